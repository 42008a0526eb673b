/**
 * readToolCalls("openai-chat"): chat completions and their messages, in the
 * shapes OpenAI documents, through to the results the boundary answers.
 */
import { describe, expect, test } from "vitest";
import { invalidArgumentsReason, ToolContractError } from "../../course/src/index.ts";
import {
  chatCompletion,
  chatToolCall,
  errorContent,
  recordingRegistry,
  thrownBy,
} from "../../test/support/providers.ts";
import { executeToolCalls } from "../rounds/index.ts";
import { readToolCalls } from "./index.ts";

const signal = () => new AbortController().signal;

describe("documented responses", () => {
  test("parallel calls come out in the provider's order, frozen, with parsed arguments", () => {
    const completion = chatCompletion({
      content: null,
      tool_calls: [
        chatToolCall("call_a", "add", '{"left":1,"right":2}'),
        chatToolCall("call_b", "work", '{"path":"notes.txt","lines":[1,2]}'),
        chatToolCall("call_c", "work", "{}"),
      ],
    });
    const calls = readToolCalls("openai-chat", completion);
    expect(calls).toEqual([
      { type: "toolCall", id: "call_a", name: "add", arguments: { left: 1, right: 2 } },
      {
        type: "toolCall",
        id: "call_b",
        name: "work",
        arguments: { path: "notes.txt", lines: [1, 2] },
      },
      { type: "toolCall", id: "call_c", name: "work", arguments: {} },
    ]);
    expect(Object.isFrozen(calls)).toBe(true);
    expect(calls.every((call) => Object.isFrozen(call) && Object.isFrozen(call.arguments))).toBe(
      true,
    );
  });

  test.each([
    ["no calls (a plain answer)", chatCompletion({ content: "It is 21°C in Paris." }, "stop")],
    ["tool_calls: null", chatCompletion({ content: "Done.", tool_calls: null as never }, "stop")],
    ["an empty tool_calls list", chatCompletion({ content: "Done.", tool_calls: [] }, "stop")],
    [
      "a refusal",
      chatCompletion({ content: null, refusal: "I can't help with that request." }, "stop"),
    ],
  ])("%s reads as no calls", (_label, completion) => {
    expect(readToolCalls("openai-chat", completion)).toEqual([]);
  });

  test("text mixed with calls: the calls are read, the text is the host's to keep", () => {
    const completion = chatCompletion({
      content: "Let me look that up.",
      tool_calls: [chatToolCall("call_1", "work", '{"q":"weather"}')],
    });
    expect(readToolCalls("openai-chat", completion).map((call) => call.id)).toEqual(["call_1"]);
  });

  test("the message alone (choices[0].message) reads the same as the completion", () => {
    const completion = chatCompletion({
      content: null,
      tool_calls: [chatToolCall("call_1", "add", '{"left":1,"right":2}')],
    });
    expect(readToolCalls("openai-chat", completion.choices[0]?.message)).toEqual(
      readToolCalls("openai-chat", completion),
    );
  });

  test("a message accumulated from a stream (index fields, no refusal field) reads as its calls", () => {
    const accumulated = {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          index: 0,
          id: "call_1",
          type: "function",
          function: { name: "work", arguments: '{"a":1}' },
        },
        {
          index: 1,
          id: "call_2",
          type: "function",
          function: { name: "work", arguments: '{"b":2}' },
        },
      ],
    };
    expect(readToolCalls("openai-chat", accumulated).map((call) => call.arguments)).toEqual([
      { a: 1 },
      { b: 2 },
    ]);
  });

  test('a turn truncated by finish_reason "length": the cut call is answered, never run', async () => {
    const completion = chatCompletion(
      {
        content: null,
        tool_calls: [
          chatToolCall("call_1", "add", '{"left":1,"right":2}'),
          chatToolCall("call_2", "add", '{"left":1,"ri'),
        ],
      },
      "length",
    );
    const calls = readToolCalls("openai-chat", completion);
    const reason =
      'the response stopped early (finish_reason "length"), so these arguments may be incomplete';
    expect(invalidArgumentsReason(calls[0])).toBeUndefined();
    expect(invalidArgumentsReason(calls[1])).toBe(reason);
    const { registry, executed } = recordingRegistry();
    const results = await executeToolCalls(registry, calls, signal());
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ["call_1", false],
      ["call_2", true],
    ]);
    expect(results[1]?.content).toBe(errorContent("TOOL_ARGUMENTS_INVALID", reason));
    expect(executed).toEqual([{ left: 1, right: 2 }]);
  });

  test('the last call of a "length" turn is marked even when its text happens to parse', () => {
    const completion = chatCompletion(
      { content: null, tool_calls: [chatToolCall("call_1", "work", '{"path":"a"}')] },
      "length",
    );
    expect(invalidArgumentsReason(readToolCalls("openai-chat", completion)[0])).toContain(
      'finish_reason "length"',
    );
  });

  test("a call with invalid argument text is answered with where the JSON broke", async () => {
    const completion = chatCompletion({
      content: null,
      tool_calls: [chatToolCall("call_1", "work", '{"path": "a.txt",, }')],
    });
    const { registry, executed } = recordingRegistry();
    const [result] = await executeToolCalls(
      registry,
      readToolCalls("openai-chat", completion),
      signal(),
    );
    expect(result).toEqual({
      id: "tool-result-call_1",
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "work",
      content: errorContent(
        "TOOL_ARGUMENTS_INVALID",
        "arguments are not valid JSON at position 17: expected a property name in double quotes",
      ),
      isError: true,
    });
    expect(executed).toEqual([]);
  });
});

describe("what is not an OpenAI chat response is a TypeError naming the format and what was found", () => {
  const message = (toolCalls: unknown[]) => ({
    role: "assistant",
    content: null,
    tool_calls: toolCalls,
  });
  test.each([
    ["null", null, "the response must be a chat completion or its choices[0].message; found null"],
    ["a string", "{}", "found a string"],
    ["an array", [], "found an array"],
    ["a Proxy", new Proxy({}, {}), "found a Proxy"],
    ["an object of another kind", { content: [] }, "found an object with neither"],
    ["a user message", { role: "user", content: "hi" }, "found an object with neither"],
    [
      "no choices",
      { ...chatCompletion({ content: null }), choices: [] },
      "response.choices must hold exactly one choice; found 0",
    ],
    [
      "two choices (n = 2)",
      {
        choices: [
          chatCompletion({ content: "a" }).choices[0],
          chatCompletion({ content: "b" }).choices[0],
        ],
      },
      "found 2 (with n > 1, pass the chosen choice's message)",
    ],
    [
      "choices that are not an array",
      { choices: {} },
      "response.choices must be an array; found an object",
    ],
    [
      "a choice without a message",
      { choices: [{ index: 0 }] },
      "response.choices[0].message must be an object; found undefined",
    ],
    [
      "tool_calls that are not an array",
      { role: "assistant", tool_calls: "x" },
      "message.tool_calls must be an array; found a string",
    ],
    [
      "a tool call that is not an object",
      message([7]),
      "message.tool_calls[0] must be an object; found a number",
    ],
    [
      "a custom tool call",
      message([{ id: "c", type: "custom", custom: { name: "x", input: "text" } }]),
      "message.tool_calls[0] is a custom tool call, which is not supported",
    ],
    [
      "an unknown tool call type",
      message([{ id: "c", type: "mystery" }]),
      'message.tool_calls[0].type must be "function"; found a string',
    ],
    [
      "a numeric id",
      message([{ id: 7, type: "function", function: { name: "w", arguments: "{}" } }]),
      "message.tool_calls[0].id must be a string when present; found a number",
    ],
    [
      "a blank name",
      message([chatToolCall("c", " ", "{}")]),
      "message.tool_calls[0].function.name must be a non-blank string; found a string",
    ],
    [
      "arguments that are an object",
      message([{ id: "c", type: "function", function: { name: "w", arguments: {} } }]),
      "message.tool_calls[0].function.arguments must be a string; found an object",
    ],
    [
      "the legacy function_call",
      { role: "assistant", content: null, function_call: { name: "w", arguments: "{}" } },
      "message.function_call is the legacy functions API, which is not supported",
    ],
  ])("%s", (_label, response, message) => {
    const error = thrownBy(() => readToolCalls("openai-chat", response));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(/^readToolCalls\("openai-chat"\): /);
    expect((error as TypeError).message).toContain(message);
  });

  test("two calls with one id reject with INVALID_TOOL_CALL", () => {
    const completion = chatCompletion({
      content: null,
      tool_calls: [
        chatToolCall("dup", "work", "{}"),
        chatToolCall("ok", "work", "{}"),
        chatToolCall("dup", "work", "{}"),
      ],
    });
    const error = thrownBy(() => readToolCalls("openai-chat", completion));
    expect(error).toBeInstanceOf(ToolContractError);
    expect(error).toMatchObject({
      code: "INVALID_TOOL_CALL",
      message: 'readToolCalls("openai-chat"): calls 0 and 2 of the response share one id',
    });
  });
});
