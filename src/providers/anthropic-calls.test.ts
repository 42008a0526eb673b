/**
 * readToolCalls("anthropic"): Messages API responses and their content
 * blocks, in the shapes Anthropic documents. `input` arrives parsed.
 */
import { describe, expect, test } from "vitest";
import { invalidArgumentsReason, ToolContractError } from "../../course/src/index.ts";
import {
  anthropicMessage,
  textBlock,
  thrownBy,
  toolUseBlock,
} from "../../test/support/providers.ts";
import { readToolCalls } from "./index.ts";

describe("documented responses", () => {
  test("text, thinking and server tool blocks are passed over; tool_use blocks come out in order", () => {
    const message = anthropicMessage([
      { type: "thinking", thinking: "Two lookups.", signature: "sig" },
      textBlock("I'll check both."),
      toolUseBlock("toolu_01", "work", { city: "Paris" }),
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "x" } },
      toolUseBlock("toolu_02", "add", { left: 1, right: 2 }),
    ]);
    expect(readToolCalls("anthropic", message)).toEqual([
      { type: "toolCall", id: "toolu_01", name: "work", arguments: { city: "Paris" } },
      { type: "toolCall", id: "toolu_02", name: "add", arguments: { left: 1, right: 2 } },
    ]);
  });

  test("the arguments are a frozen copy: changing the response later changes nothing", () => {
    const input = { list: [1, 2] };
    const [call] = readToolCalls("anthropic", [toolUseBlock("toolu_1", "work", input)]);
    input.list.push(3);
    expect(call?.arguments).toEqual({ list: [1, 2] });
    expect(Object.isFrozen(call?.arguments.list)).toBe(true);
  });

  test.each([
    ["no calls", anthropicMessage([textBlock("Paris is sunny.")], "end_turn")],
    ["a refusal", anthropicMessage([], "refusal")],
    ["an empty content list", []],
  ])("%s reads as no calls", (_label, response) => {
    expect(readToolCalls("anthropic", response)).toEqual([]);
  });

  test("the content blocks alone read the same as the message", () => {
    const message = anthropicMessage([textBlock("x"), toolUseBlock("toolu_1", "work", { a: 1 })]);
    expect(readToolCalls("anthropic", message.content)).toEqual(
      readToolCalls("anthropic", message),
    );
  });

  test.each(["max_tokens", "model_context_window_exceeded"])(
    'stop_reason "%s" marks the last call: its input can be a valid object with keys missing',
    (stopReason) => {
      const message = anthropicMessage(
        [
          toolUseBlock("toolu_1", "work", { a: 1 }),
          toolUseBlock("toolu_2", "work", { path: "/tm" }),
        ],
        stopReason,
      );
      expect(readToolCalls("anthropic", message).map(invalidArgumentsReason)).toEqual([
        undefined,
        `the response stopped early (stop_reason "${stopReason}"), so these arguments may be incomplete`,
      ]);
    },
  );

  test.each([
    ["an array", [1, 2], "arguments must be a JSON object, not an array"],
    ["a string", '{"a":1}', "arguments must be a JSON object, not a string"],
    ["null", null, "arguments must be a JSON object, not null"],
    ["a number", 42, "arguments must be a JSON object, not a number"],
  ])("an input that is %s is answered to the model", (_label, input, reason) => {
    const [call] = readToolCalls("anthropic", [toolUseBlock("toolu_1", "work", input)]);
    expect(invalidArgumentsReason(call)).toBe(reason);
  });
});

describe("what is not an Anthropic response is a TypeError", () => {
  test.each([
    ["a number", 5, "the response must be a message or its content blocks; found a number"],
    ["an object without content", { role: "assistant" }, 'found an object without "content"'],
    [
      "string content (a user message)",
      { role: "user", content: "hi" },
      "message.content must be an array of content blocks; found a string",
    ],
    ["a block without a type", [{ id: "x" }], "content[0].type must be a string; found undefined"],
    [
      "a tool_use block without input",
      [{ type: "tool_use", id: "toolu_1", name: "work" }],
      "content[0].input must be present; found undefined",
    ],
    [
      "a tool_use block without an id",
      [{ type: "tool_use", name: "work", input: {} }],
      "content[0].id must be a non-blank string; found undefined",
    ],
    [
      "a tool_use block with a numeric name",
      [{ type: "tool_use", id: "t", name: 7, input: {} }],
      "content[0].name must be a non-blank string; found a number",
    ],
  ])("%s", (_label, response, message) => {
    const error = thrownBy(() => readToolCalls("anthropic", response));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toContain(message);
  });

  test("two blocks with one id reject with INVALID_TOOL_CALL", () => {
    const blocks = [toolUseBlock("t", "work", {}), toolUseBlock("t", "work", {})];
    expect(thrownBy(() => readToolCalls("anthropic", blocks))).toMatchObject({
      code: "INVALID_TOOL_CALL",
    });
    expect(thrownBy(() => readToolCalls("anthropic", blocks))).toBeInstanceOf(ToolContractError);
  });
});
