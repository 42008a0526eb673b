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
  TOOL_CONTENT_MIME_TYPES,
  type ToolResultPart,
  toolResultMessage,
} from "../../course/src/index.ts";
import { checkBase64, contentResultMessage } from "../../course/src/internal.ts";
import { freeze, isArray, isProxy, ownDataValue } from "./restate-intrinsics.ts";

/**
 * A result message as the journal holds it: the fields of
 * `CourseToolResultMessage`, in their order, `parts` (images, audio, files
 * and the text between them) only when the message has them.
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
  readonly parts?: readonly ToolResultPart[];
}

/**
 * The journal form of a result message: a plain copy of its fields. A
 * message's parts are checked, frozen data the core made, so they are
 * journaled as they are (the journal writes them as JSON).
 */
export function toJournal(result: CourseToolResultMessage): JournaledResult {
  const entry: JournaledResult = {
    id: result.id,
    role: result.role,
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    content: result.content,
    isError: result.isError,
  };
  // An own field only: a text result has no `parts`, and a getter a Tool planted on
  // Object.prototype would otherwise put its parts into another call's journaled result.
  const parts = ownDataValue(result, "parts") as CourseToolResultMessage["parts"];
  return parts === undefined ? entry : { ...entry, parts };
}

/** One part read back from the journal, frozen; undefined when it is not a part the core writes. */
function partFromJournal(value: unknown): ToolResultPart | undefined {
  if (typeof value !== "object" || value === null || isArray(value) || isProxy(value)) {
    return undefined;
  }
  const type = ownDataValue(value, "type");
  if (type === "text") {
    const text = ownDataValue(value, "text");
    return typeof text === "string" ? freeze({ type, text }) : undefined;
  }
  // The media types each kind may carry, as `toolContent` checks them.
  const allowed =
    type === "image" || type === "audio" || type === "file"
      ? TOOL_CONTENT_MIME_TYPES[type]
      : undefined;
  const data = ownDataValue(value, "data");
  const mimeType = ownDataValue(value, "mimeType");
  if (allowed === undefined || typeof data !== "string" || typeof mimeType !== "string") {
    return undefined;
  }
  if (!allowed.includes(mimeType) || !checkBase64(data).ok) return undefined;
  const name = ownDataValue(value, "name");
  if (type !== "file") return freeze({ type, data, mimeType }) as ToolResultPart;
  if (name === undefined) return freeze({ type, data, mimeType }) as ToolResultPart;
  return typeof name === "string"
    ? (freeze({ type, data, mimeType, name }) as ToolResultPart)
    : undefined;
}

/** The parts of a journal entry, frozen; undefined for none; null for parts that are not the core's. */
function partsFromJournal(entry: object): readonly ToolResultPart[] | undefined | null {
  const value = ownDataValue(entry, "parts");
  if (value === undefined) return undefined;
  if (!isArray(value) || isProxy(value) || value.length === 0) return null;
  const parts: ToolResultPart[] = [];
  for (let index = 0; index < value.length; index += 1) {
    // Read as own data, like every field here: an accessor is no part the core writes.
    const part = partFromJournal(ownDataValue(value, index));
    if (part === undefined) return null;
    parts[index] = part;
  }
  return freeze(parts);
}

/**
 * The frozen result message of `call` from its journal entry. Throws a
 * TypeError when the entry is not this call's result (a journal written by
 * other code under the same step name): the engine then retries the
 * invocation, as for any fault outside the Tool call. An entry's parts are
 * read back only as the core writes them (each kind with its own media types
 * and strict base64 data).
 *
 * @example
 * fromJournal(toJournal(result), call); // a frozen message equal to `result`
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
  const parts = partsFromJournal(entry);
  // Error results never carry parts (see CourseToolResultMessage).
  if (parts === null || (parts !== undefined && isError)) {
    throw new TypeError(
      `the journal entry of Tool call "${call.id}" has parts the core never writes`,
    );
  }
  return parts === undefined
    ? toolResultMessage(call, content, isError)
    : contentResultMessage(call, content, parts);
}
