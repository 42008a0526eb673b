/**
 * Reads the Tool calls of an OpenAI Responses API response: the response, or
 * its `output` items. `function_call` items become calls; messages, reasoning
 * and the calls of tools OpenAI runs itself (web search, file search, …) are
 * not ours and are passed over.
 */

import { ArrayPrototype } from "../../course/src/internal.ts";
import { addData } from "./own-data.ts";
import { markLastCallCutOff, type RawToolCall } from "./raw-call.ts";
import type { ResponseList, ResponseReader } from "./response-fields.ts";

/**
 * Reads the `function_call` items in output order. Refuses `custom_tool_call`
 * items (free-form text, which no JSON-object Tool can receive) and calls in a
 * `namespace` (the name alone would pick a Tool the model did not mean).
 */
export function readOpenAIResponsesCalls(reader: ResponseReader, response: unknown): RawToolCall[] {
  let items: ResponseList;
  let path: string;
  let status: unknown;
  if (reader.isList(response)) {
    path = "output";
    items = reader.elements(response, path);
  } else if (reader.isRecord(response)) {
    const output = reader.field(response, "output", "response");
    if (output === undefined) {
      reader.refuse(
        'the response must be a Responses API response (with "output") or its output items; found an object without "output"',
      );
    }
    path = "response.output";
    items = reader.elements(output, path);
    status = reader.field(response, "status", "response");
  } else {
    return reader.fail("the response", "a Responses API response or its output items", response);
  }
  const calls: RawToolCall[] = [];
  for (let index = 0; index < items.length; index += 1) {
    const at = `${path}[${index}]`;
    const item = reader.record(items.at(index), at);
    const type = reader.field(item, "type", at);
    if (typeof type !== "string") reader.fail(`${at}.type`, "a string", type);
    if (type === "custom_tool_call") {
      reader.refuse(
        `${at} is a custom tool call, which is not supported: its input is free-form text, and Tools take a JSON object`,
      );
    }
    if (type !== "function_call") continue;
    // An OpenAI-compatible server may leave the id blank: the call gets one made up.
    const id = reader.callId(item, "call_id", at, "openai-call", calls.length);
    const name = reader.text(item, "name", at);
    const text = reader.field(item, "arguments", at);
    if (typeof text !== "string") reader.fail(`${at}.arguments`, "a string", text);
    const namespace = reader.field(item, "namespace", at);
    if (namespace !== undefined && namespace !== null) {
      reader.refuse(`${at} is a call in a namespace, which is not supported`);
    }
    const cutOff =
      reader.field(item, "status", at) === "incomplete"
        ? 'the call is incomplete (status "incomplete"), so these arguments may be incomplete'
        : undefined;
    // Defined, not pushed: a push writes through Array.prototype, where a Tool's planted
    // index setter could swallow the call and a getter answer one the model never made.
    addData(calls, ArrayPrototype, calls.length, {
      id,
      name,
      path: at,
      arguments: { kind: "text", text },
      cutOff,
    });
  }
  if (status === "incomplete") {
    markLastCallCutOff(
      calls,
      'the response is incomplete (status "incomplete"), so these arguments may be incomplete',
    );
  }
  return calls;
}
