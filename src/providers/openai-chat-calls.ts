/**
 * Reads the Tool calls of an OpenAI Chat Completions response: a chat
 * completion (one choice) or its `choices[0].message`, including a message
 * accumulated from a stream. Arguments are JSON text, parsed later under limits.
 */

import { ArrayPrototype } from "../../course/src/internal.ts";
import { addData } from "./own-data.ts";
import { markLastCallCutOff, type RawToolCall } from "./raw-call.ts";
import type { ResponseReader } from "./response-fields.ts";

/**
 * Reads `tool_calls` of the completion's one choice, or of the message given.
 * Refuses a completion with several choices (pass the chosen choice's
 * message), a legacy `function_call` and custom tool calls, whose free-form
 * text no JSON-object Tool can receive: ignoring them would lose a call the
 * model made.
 */
export function readOpenAIChatCalls(reader: ResponseReader, response: unknown): RawToolCall[] {
  if (!reader.isRecord(response)) {
    return reader.fail("the response", "a chat completion or its choices[0].message", response);
  }
  const choices = reader.field(response, "choices", "response");
  let message: object;
  let path: string;
  let finishReason: unknown;
  if (choices !== undefined) {
    const list = reader.elements(choices, "response.choices");
    if (list.length !== 1) {
      const hint = list.length > 1 ? " (with n > 1, pass the chosen choice's message)" : "";
      reader.refuse(`response.choices must hold exactly one choice; found ${list.length}${hint}`);
    }
    const choice = reader.record(list.at(0), "response.choices[0]");
    finishReason = reader.field(choice, "finish_reason", "response.choices[0]");
    path = "response.choices[0].message";
    message = reader.record(reader.field(choice, "message", "response.choices[0]"), path);
  } else {
    if (reader.field(response, "role", "response") !== "assistant") {
      reader.refuse(
        'the response must be a chat completion (with "choices") or an assistant message (role "assistant"); found an object with neither',
      );
    }
    path = "message";
    message = response;
  }
  const legacy = reader.field(message, "function_call", path);
  if (legacy !== undefined && legacy !== null) {
    reader.refuse(
      `${path}.function_call is the legacy functions API, which is not supported: declare tools instead`,
    );
  }
  const toolCalls = reader.field(message, "tool_calls", path);
  if (toolCalls === undefined || toolCalls === null) return [];
  const entries = reader.elements(toolCalls, `${path}.tool_calls`);
  const calls: RawToolCall[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    const at = `${path}.tool_calls[${index}]`;
    const entry = reader.record(entries.at(index), at);
    const type = reader.field(entry, "type", at);
    if (type === "custom") {
      reader.refuse(
        `${at} is a custom tool call, which is not supported: its input is free-form text, and Tools take a JSON object`,
      );
    }
    if (type !== "function") reader.fail(`${at}.type`, '"function"', type);
    // An OpenAI-compatible server may leave the id blank: the call gets one made up.
    const id = reader.callId(entry, "id", at, "openai-call", calls.length);
    const fn = reader.record(reader.field(entry, "function", at), `${at}.function`);
    const name = reader.text(fn, "name", `${at}.function`);
    const text = reader.field(fn, "arguments", `${at}.function`);
    if (typeof text !== "string") reader.fail(`${at}.function.arguments`, "a string", text);
    // Defined, not pushed: a push writes through Array.prototype, where a Tool's planted
    // index setter could swallow the call and a getter answer one the model never made.
    addData(calls, ArrayPrototype, calls.length, {
      id,
      name,
      path: at,
      arguments: { kind: "text", text },
      cutOff: undefined,
    });
  }
  // "length" is the output token limit; "content_filter" also stops the model mid-turn.
  if (finishReason === "length" || finishReason === "content_filter") {
    markLastCallCutOff(
      calls,
      `the response stopped early (finish_reason "${finishReason}"), so these arguments may be incomplete`,
    );
  }
  return calls;
}
