/**
 * Ids the provider did not send, and names the model made up, on their way
 * back: `readToolCalls` makes up an id for a call without one (Gemini; an
 * OpenAI-compatible server that left it blank) and `toToolResultMessages`
 * knows exactly those again, never an id that only looks like one; a Gemini
 * answer carries a bounded name.
 */
import { describe, expect, test } from "vitest";
import { toolResultMessage } from "../../course/src/index.ts";
import {
  chatCompletion,
  functionCallItem,
  functionCallPart,
  geminiResponse,
  recordingRegistry,
  responsesResponse,
} from "../../test/support/providers.ts";
import { executeToolCalls } from "../rounds/index.ts";
import { readToolCalls, toToolResultMessages } from "./index.ts";
import { inventedId, isInventedId } from "./invented-ids.ts";
import { GEMINI_RESPONSE_NAME_MAX_CHARACTERS } from "./tool-result-messages.ts";

const signal = () => new AbortController().signal;

describe("which ids are ours", () => {
  const token = inventedId("gemini-call", 0).slice("gemini-call-0-".length);

  test.each([
    ["an id made up for a Gemini call", inventedId("gemini-call", 0), true],
    ["an id made up for an OpenAI call", inventedId("openai-call", 12), true],
    ["the shape of old, which Gemini may send", "gemini-call-0", false],
    ["the shape with another token", `gemini-call-0-${"0".repeat(32)}`, false],
    ["a leading zero", `gemini-call-01-${token}`, false],
    ["a sign", `gemini-call--1-${token}`, false],
    ["no index", `gemini-call--${token}`, false],
    ["another prefix", `anthropic-call-0-${token}`, false],
    ["the token alone", token, false],
    ["something after the token", `${inventedId("gemini-call", 3)}x`, false],
    ["a letter in the index", `gemini-call-1a-${token}`, false],
  ])("%s: %s", (_label, id, ours) => {
    expect(isInventedId(id)).toBe(ours);
  });
});

describe("gemini: the id goes back exactly when Gemini sent it", () => {
  test("an id Gemini sent that looks like gemini-call-<n> is Gemini's, and goes back; a made-up one does not", async () => {
    const calls = readToolCalls("gemini", [
      functionCallPart("work", { a: 1 }, "gemini-call-0"),
      functionCallPart("work", { b: 2 }),
    ]);
    const { registry, executed } = recordingRegistry();
    const results = await executeToolCalls(registry, calls, signal());
    expect(executed).toHaveLength(2);
    const [content] = toToolResultMessages("gemini", results);
    expect(content?.parts.map((part) => part.functionResponse)).toEqual([
      { id: "gemini-call-0", name: "work", response: { output: '{"a":1}' } },
      { name: "work", response: { output: '{"b":2}' } },
    ]);
  });
});

describe("openai: a blank id from a compatible server costs one id, not the turn", () => {
  const blankIds: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ["empty", { id: "" }],
    ["white space", { id: "  " }],
    ["null", { id: null }],
    ["absent", {}],
  ];

  test.each(blankIds)(
    "chat: an id that is %s: the call runs, and its answer has a blank id",
    async (_label, idField) => {
      const completion = chatCompletion({
        content: null,
        tool_calls: [
          {
            ...idField,
            type: "function",
            function: { name: "add", arguments: '{"left":1,"right":2}' },
          },
          { id: "call_ok", type: "function", function: { name: "work", arguments: '{"x":1}' } },
        ],
      });
      const calls = readToolCalls("openai-chat", completion);
      expect(isInventedId(calls[0]?.id ?? "")).toBe(true);
      const { registry, executed } = recordingRegistry();
      const results = await executeToolCalls(registry, calls, signal());
      expect(executed).toEqual([{ left: 1, right: 2 }, { x: 1 }]);
      expect(toToolResultMessages("openai-chat", results)).toEqual([
        { role: "tool", tool_call_id: "", content: '{"sum":3}' },
        { role: "tool", tool_call_id: "call_ok", content: '{"x":1}' },
      ]);
    },
  );

  test("responses: two blank call_ids are two calls, answered in order with blank ids", async () => {
    const response = responsesResponse([
      { ...functionCallItem("", "work", '{"n":1}') },
      { ...functionCallItem("", "work", '{"n":2}') },
    ]);
    const calls = readToolCalls("openai-responses", response);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    const { registry, executed } = recordingRegistry();
    const results = await executeToolCalls(registry, calls, signal());
    expect(executed).toEqual([{ n: 1 }, { n: 2 }]);
    expect(toToolResultMessages("openai-responses", results)).toEqual([
      { type: "function_call_output", call_id: "", output: '{"n":1}' },
      { type: "function_call_output", call_id: "", output: '{"n":2}' },
    ]);
  });

  test("an id that only looks made up goes back as it came", () => {
    const result = toolResultMessage({ id: "gemini-call-0", name: "work" }, "ok", false);
    expect(toToolResultMessages("openai-chat", [result])[0]).toMatchObject({
      tool_call_id: "gemini-call-0",
    });
  });
});

describe("gemini: the name an answer carries is bounded", () => {
  test("a 1,000,000-character name the model made up goes back as its first 64 code units", async () => {
    const name = `tool_${"x".repeat(1_000_000)}`;
    const calls = readToolCalls("gemini", geminiResponse([functionCallPart(name, {}, "fc-1")]));
    const { registry, executed } = recordingRegistry();
    const results = await executeToolCalls(registry, calls, signal());
    expect(executed).toEqual([]);
    const [content] = toToolResultMessages("gemini", results);
    const part = content?.parts[0]?.functionResponse;
    expect(part?.name).toBe(name.slice(0, GEMINI_RESPONSE_NAME_MAX_CHARACTERS));
    expect(part?.id).toBe("fc-1");
    // What the next request carries for this answer: the bounded name and the bounded error.
    expect(JSON.stringify(content).length).toBeLessThan(5_000);
  });

  test.each([
    ["64 characters, kept whole", "n".repeat(64), "n".repeat(64)],
    ["65 characters, cut to 64", "n".repeat(65), "n".repeat(64)],
    ["a pair across the 64th unit, cut before it", `${"n".repeat(63)}😀`, "n".repeat(63)],
    ["a pair ending at the 64th unit, kept", `${"n".repeat(62)}😀x`, `${"n".repeat(62)}😀`],
  ])("%s", (_label, name, written) => {
    const result = toolResultMessage({ id: "fc-1", name }, "ok", false);
    const [content] = toToolResultMessages("gemini", [result]);
    expect(content?.parts[0]?.functionResponse.name).toBe(written);
  });
});
