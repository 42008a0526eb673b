/**
 * What a durable step writes to Restate's journal: the bounded result message
 * the model will read, as plain JSON, never the Tool's raw output. Read back
 * (on the first run as on every replay, the SDK hands the journaled bytes
 * back), it is checked against the call and rebuilt as the same frozen
 * message, so a replay hands the model the same bytes.
 */

import {
  type CourseToolCall,
  type CourseToolResultMessage,
  toolResultMessage,
} from "../../course/src/index.ts";
import { isArray, isProxy, ownDataValue } from "./restate-intrinsics.ts";

/**
 * A result message as the journal holds it: the six fields of
 * `CourseToolResultMessage`, in their order.
 *
 * @example
 * const entry: JournaledResult = { id: "tool-result-call-1", role: "toolResult", toolCallId: "call-1", toolName: "echo", content: '"hi"', isError: false };
 */
export interface JournaledResult {
  readonly id: string;
  readonly role: "toolResult";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: string;
  readonly isError: boolean;
}

/** The journal form of a result message (a plain copy of its six fields). */
export function toJournal(result: CourseToolResultMessage): JournaledResult {
  return {
    id: result.id,
    role: result.role,
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    content: result.content,
    isError: result.isError,
  };
}

/**
 * The frozen result message of `call` from its journal entry. Throws a
 * TypeError when the entry is not this call's result (a journal written by
 * other code under the same step name): the engine then retries the
 * invocation, as for any fault outside the Tool call.
 */
export function fromJournal(entry: unknown, call: CourseToolCall): CourseToolResultMessage {
  if (typeof entry !== "object" || entry === null || isArray(entry) || isProxy(entry)) {
    throw new TypeError(`the journal entry of Tool call "${call.id}" is not a result message`);
  }
  const content = ownDataValue(entry, "content");
  const isError = ownDataValue(entry, "isError");
  if (
    ownDataValue(entry, "id") !== `tool-result-${call.id}` ||
    ownDataValue(entry, "role") !== "toolResult" ||
    ownDataValue(entry, "toolCallId") !== call.id ||
    ownDataValue(entry, "toolName") !== call.name ||
    typeof content !== "string" ||
    typeof isError !== "boolean"
  ) {
    throw new TypeError(`the journal entry of Tool call "${call.id}" is not this call's result`);
  }
  return toolResultMessage(call, content, isError);
}
