/**
 * toToolResultMessages: result messages in, each provider's next-request
 * items out, content unchanged and error flags mapped; anything but the
 * boundary's own frozen result messages is refused, naming what was wrong.
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolResultMessage,
  toolErrorResult,
  toolResultMessage,
} from "../../course/src/index.ts";
import { functionCallPart, recordingRegistry, thrownBy } from "../../test/support/providers.ts";
import { executeToolCalls } from "../rounds/index.ts";
import { readToolCalls, toToolResultMessages } from "./index.ts";

const ok = toolResultMessage({ id: "call_1", name: "add" }, '{"sum":3}', false);
const failed = toolErrorResult(
  { id: "call_2", name: "work" },
  "TOOL_EXECUTION_FAILED",
  "disk full",
);
const RESULTS = [ok, failed];

function deepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

describe("each provider's shape", () => {
  test("openai-chat: one tool message per result", () => {
    expect(toToolResultMessages("openai-chat", RESULTS)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: '{"sum":3}' },
      { role: "tool", tool_call_id: "call_2", content: failed.content },
    ]);
  });

  test("openai-responses: one function_call_output item per result", () => {
    expect(toToolResultMessages("openai-responses", RESULTS)).toEqual([
      { type: "function_call_output", call_id: "call_1", output: '{"sum":3}' },
      { type: "function_call_output", call_id: "call_2", output: failed.content },
    ]);
  });

  test("anthropic: one user message of tool_result blocks, is_error from isError", () => {
    expect(toToolResultMessages("anthropic", RESULTS)).toEqual([
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_1", content: '{"sum":3}', is_error: false },
          { type: "tool_result", tool_use_id: "call_2", content: failed.content, is_error: true },
        ],
      },
    ]);
  });

  test("gemini: one user content of functionResponse parts, { output } or { error }", () => {
    expect(toToolResultMessages("gemini", RESULTS)).toEqual([
      {
        role: "user",
        parts: [
          { functionResponse: { id: "call_1", name: "add", response: { output: '{"sum":3}' } } },
          { functionResponse: { id: "call_2", name: "work", response: { error: failed.content } } },
        ],
      },
    ]);
  });

  test("gemini: an id readToolCalls made up is left out, since Gemini never issued it", async () => {
    const calls = readToolCalls("gemini", [
      functionCallPart("work", { a: 1 }),
      functionCallPart("work", { b: 2 }, "fc-issued"),
    ]);
    const { registry } = recordingRegistry();
    const results = await executeToolCalls(registry, calls, new AbortController().signal);
    const [content] = toToolResultMessages("gemini", results);
    expect(content?.parts.map((part) => part.functionResponse)).toEqual([
      { name: "work", response: { output: '{"a":1}' } },
      { id: "fc-issued", name: "work", response: { output: '{"b":2}' } },
    ]);
  });

  test.each(["openai-chat", "openai-responses", "anthropic", "gemini"] as const)(
    "%s: no results give no items, and the items are frozen all the way down",
    (format) => {
      expect(toToolResultMessages(format, [])).toEqual([]);
      const items = toToolResultMessages(format, RESULTS);
      expect(items.length).toBeGreaterThan(0);
      expect(deepFrozen(items)).toBe(true);
      expect(deepFrozen(toToolResultMessages(format, []))).toBe(true);
    },
  );

  test("content passes unchanged: the marker, quotes, astral characters and lone-surrogate escapes", () => {
    const content = '"\\ud800 😀"\n[Tool output truncated]';
    const result = toolResultMessage({ id: "c", name: "work" }, content, false);
    expect(toToolResultMessages("openai-chat", [result])[0]?.content).toBe(content);
    expect(toToolResultMessages("anthropic", [result])[0]?.content[0]?.content).toBe(content);
    const [gemini] = toToolResultMessages("gemini", [result]);
    expect(gemini?.parts[0]?.functionResponse.response).toEqual({ output: content });
  });
});

describe("anything but the boundary's result messages is a TypeError naming what was wrong", () => {
  const frozen = (fields: Partial<Record<keyof CourseToolResultMessage, unknown>>) =>
    Object.freeze({ ...ok, ...fields });
  test.each([
    ["a non-array", { ...ok }, "results must be an array of result messages; found an object"],
    [
      "a Proxy of an array",
      new Proxy([ok], {}),
      "results must be an array of result messages; found a Proxy",
    ],
    [
      "an unfrozen copy",
      [{ ...ok }],
      "results[0] must be a frozen result message (from executeToolCall, executeToolCalls or toolResultMessage); found an object that is not frozen",
    ],
    ["null", [ok, null], "results[1] must be a frozen result message"],
    [
      "a hole",
      Object.assign([], { 0: ok, 2: failed, length: 3 }),
      "results[1] must be a frozen result message (from executeToolCall, executeToolCalls or toolResultMessage); found undefined",
    ],
    ["a string", ["done"], "found a string"],
    ["another role", [frozen({ role: "tool" })], 'results[0].role must be "toolResult"'],
    [
      "an id that is not its call's",
      [frozen({ id: "result-1" })],
      'results[0].id must be "tool-result-" followed by its toolCallId',
    ],
    [
      "a blank toolCallId",
      [frozen({ toolCallId: " ", id: "tool-result- " })],
      "results[0].toolCallId must be a non-blank string",
    ],
    [
      "a blank toolName",
      [frozen({ toolName: "" })],
      "results[0].toolName must be a non-blank string",
    ],
    [
      "content that is not a string",
      [frozen({ content: { sum: 3 } })],
      "results[0].content must be a string",
    ],
    [
      "isError that is not a boolean",
      [frozen({ isError: "false" })],
      "results[0].isError must be a boolean",
    ],
    [
      "a missing field",
      [
        Object.freeze({
          id: "tool-result-c",
          role: "toolResult",
          toolCallId: "c",
          toolName: "w",
          content: "",
        }),
      ],
      "results[0].isError must be an own data field",
    ],
    [
      "two results for one call",
      [ok, failed, ok],
      "results[0] and results[2] answer the same call id",
    ],
  ])("%s", (_label, results, message) => {
    const error = thrownBy(() => toToolResultMessages("anthropic", results as never));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(/^toToolResultMessages\("anthropic"\): /);
    expect((error as TypeError).message).toContain(message);
  });

  test("a getter is refused without running", () => {
    let runs = 0;
    const result = Object.freeze(
      Object.defineProperty({ ...ok }, "content", {
        enumerable: true,
        get() {
          runs += 1;
          return "text";
        },
      }),
    );
    expect(() => toToolResultMessages("openai-chat", [result as never])).toThrow(
      "results[0].content must be an own data field",
    );
    expect(runs).toBe(0);
  });

  test("an unknown format is a TypeError naming the formats", () => {
    expect(() => toToolResultMessages("mcp" as never, RESULTS)).toThrow(
      "toToolResultMessages format must be one of openai-chat, openai-responses, anthropic, gemini",
    );
  });
});
