/**
 * readToolCalls("openai-responses"): Responses API responses and their output
 * items, in the shapes OpenAI documents.
 */
import { describe, expect, test } from "vitest";
import { invalidArgumentsReason, ToolContractError } from "../../course/src/index.ts";
import {
  functionCallItem,
  outputMessage,
  responsesResponse,
  thrownBy,
} from "../../test/support/providers.ts";
import { readToolCalls } from "./index.ts";

const reasoning = { type: "reasoning", id: "rs_1", summary: [] };
const webSearch = { type: "web_search_call", id: "ws_1", status: "completed" };

describe("documented responses", () => {
  test("parallel function calls among reasoning, messages and OpenAI's own tool calls come out in output order", () => {
    const response = responsesResponse([
      reasoning,
      outputMessage("Checking both cities."),
      functionCallItem("call_paris", "work", '{"city":"Paris"}'),
      webSearch,
      functionCallItem("call_rome", "work", '{"city":"Rome"}'),
    ]);
    expect(readToolCalls("openai-responses", response)).toEqual([
      { type: "toolCall", id: "call_paris", name: "work", arguments: { city: "Paris" } },
      { type: "toolCall", id: "call_rome", name: "work", arguments: { city: "Rome" } },
    ]);
  });

  test("the id of a call is its call_id (what function_call_output answers), not the item id", () => {
    const [call] = readToolCalls("openai-responses", [functionCallItem("call_x", "work", "{}")]);
    expect(call?.id).toBe("call_x");
  });

  test.each([
    ["no calls", responsesResponse([outputMessage("The answer is 42.")])],
    [
      "a refusal",
      responsesResponse([
        {
          type: "message",
          id: "msg_1",
          status: "completed",
          role: "assistant",
          content: [{ type: "refusal", refusal: "I can't help with that." }],
        },
      ]),
    ],
    ["an empty output", responsesResponse([])],
  ])("%s reads as no calls", (_label, response) => {
    expect(readToolCalls("openai-responses", response)).toEqual([]);
  });

  test("the output items alone read the same as the response", () => {
    const response = responsesResponse([functionCallItem("call_1", "work", '{"a":[1]}')]);
    expect(readToolCalls("openai-responses", response.output)).toEqual(
      readToolCalls("openai-responses", response),
    );
  });

  test("an incomplete response (max_output_tokens) marks its last call; an incomplete item is marked wherever it is", () => {
    const response = responsesResponse(
      [
        functionCallItem("call_1", "work", '{"a":1}', "incomplete"),
        functionCallItem("call_2", "work", '{"b":2}'),
        functionCallItem("call_3", "work", '{"c":'),
      ],
      "incomplete",
    );
    const reasons = readToolCalls("openai-responses", response).map(invalidArgumentsReason);
    expect(reasons).toEqual([
      'the call is incomplete (status "incomplete"), so these arguments may be incomplete',
      undefined,
      'the response is incomplete (status "incomplete"), so these arguments may be incomplete',
    ]);
  });
});

describe("what is not a Responses API response is a TypeError", () => {
  test.each([
    [
      "undefined",
      undefined,
      "the response must be a Responses API response or its output items; found undefined",
    ],
    ["an object without output", { id: "resp_1" }, 'found an object without "output"'],
    [
      "output that is not an array",
      { output: "x" },
      "response.output must be an array; found a string",
    ],
    [
      "an item without a type",
      [{ call_id: "c" }],
      "output[0].type must be a string; found undefined",
    ],
    [
      "a custom tool call",
      [{ type: "custom_tool_call", call_id: "c", name: "x", input: "text" }],
      "output[0] is a custom tool call, which is not supported",
    ],
    [
      "a namespaced call",
      [{ ...functionCallItem("c", "work", "{}"), namespace: "files" }],
      "output[0] is a call in a namespace, which is not supported",
    ],
    [
      "a numeric call_id",
      [{ type: "function_call", call_id: 7, name: "work", arguments: "{}" }],
      "output[0].call_id must be a string when present; found a number",
    ],
    [
      "arguments that are not text",
      [{ ...functionCallItem("c", "work", "{}"), arguments: { a: 1 } }],
      "output[0].arguments must be a string; found an object",
    ],
  ])("%s", (_label, response, message) => {
    const error = thrownBy(() => readToolCalls("openai-responses", response));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(/^readToolCalls\("openai-responses"\): /);
    expect((error as TypeError).message).toContain(message);
  });

  test("two calls with one call_id reject with INVALID_TOOL_CALL", () => {
    const output = [functionCallItem("c", "work", "{}"), functionCallItem("c", "work", "{}")];
    expect(thrownBy(() => readToolCalls("openai-responses", output))).toBeInstanceOf(
      ToolContractError,
    );
  });
});
