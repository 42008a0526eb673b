/**
 * Reads the Tool calls of an Anthropic Messages API response: the message, or
 * its `content` blocks. `tool_use` blocks become calls; text, thinking and the
 * blocks of tools Anthropic runs itself (`server_tool_use`, …) are passed over.
 * Anthropic sends `input` already parsed, so it is checked as a value.
 */

import { ArrayPrototype } from "../../course/src/internal.ts";
import { addData } from "./own-data.ts";
import { markLastCallCutOff, type RawToolCall } from "./raw-call.ts";
import type { ResponseList, ResponseReader } from "./response-fields.ts";

/** Reads the `tool_use` blocks in content order. */
export function readAnthropicCalls(reader: ResponseReader, response: unknown): RawToolCall[] {
  let blocks: ResponseList;
  let path: string;
  let stopReason: unknown;
  if (reader.isList(response)) {
    path = "content";
    blocks = reader.elements(response, path);
  } else if (reader.isRecord(response)) {
    const content = reader.field(response, "content", "message");
    if (content === undefined) {
      reader.refuse(
        'the response must be a message (with "content") or its content blocks; found an object without "content"',
      );
    }
    path = "message.content";
    // A user-role message can hold a plain string; an assistant's content is always blocks.
    blocks = reader.elements(content, path, "an array of content blocks");
    stopReason = reader.field(response, "stop_reason", "message");
  } else {
    return reader.fail("the response", "a message or its content blocks", response);
  }
  const calls: RawToolCall[] = [];
  for (let index = 0; index < blocks.length; index += 1) {
    const at = `${path}[${index}]`;
    const block = reader.record(blocks.at(index), at);
    const type = reader.field(block, "type", at);
    if (typeof type !== "string") reader.fail(`${at}.type`, "a string", type);
    if (type !== "tool_use") continue;
    const id = reader.text(block, "id", at);
    const name = reader.text(block, "name", at);
    const input = reader.field(block, "input", at);
    if (input === undefined) reader.fail(`${at}.input`, "present", input);
    // Defined, not pushed: a push writes through Array.prototype, where a Tool's planted
    // index setter could swallow the call and a getter answer one the model never made.
    addData(calls, ArrayPrototype, calls.length, {
      id,
      name,
      path: at,
      arguments: { kind: "value", value: input },
      cutOff: undefined,
    });
  }
  // At the output limit the API closes the block it was writing: its input can
  // be a valid object that lacks the keys the model had not written yet.
  if (stopReason === "max_tokens" || stopReason === "model_context_window_exceeded") {
    markLastCallCutOff(
      calls,
      `the response stopped early (stop_reason "${stopReason}"), so these arguments may be incomplete`,
    );
  }
  return calls;
}
