/**
 * readToolCalls("gemini"): generateContent responses, a candidate's content
 * and its parts, in the shapes Gemini documents, and the SDK's own response
 * class. `args` arrive parsed; ids may be missing.
 */
import { GenerateContentResponse } from "@google/genai";
import { describe, expect, test, vi } from "vitest";
import { invalidArgumentsReason } from "../../course/src/index.ts";
import { functionCallPart, geminiResponse, thrownBy } from "../../test/support/providers.ts";
import { readToolCalls } from "./index.ts";

describe("documented responses", () => {
  test("calls without ids get gemini-call-<index>-<token>, their index among the response's calls", () => {
    const response = geminiResponse([
      { text: "Checking both." },
      functionCallPart("work", { city: "Paris" }),
      { text: "and" },
      functionCallPart("work", { city: "Rome" }),
    ]);
    const calls = readToolCalls("gemini", response);
    expect(calls.map((call) => call.arguments)).toEqual([{ city: "Paris" }, { city: "Rome" }]);
    expect(calls[0]?.id).toMatch(/^gemini-call-0-[0-9a-f]{32}$/);
    expect(calls[1]?.id).toMatch(/^gemini-call-1-[0-9a-f]{32}$/);
    // One token for the process: the two ids differ by their index only.
    expect(calls[1]?.id.slice(-32)).toBe(calls[0]?.id.slice(-32));
  });

  test("the ids are deterministic: the same response reads the same every time", () => {
    const response = geminiResponse([functionCallPart("work", {}), functionCallPart("work", {})]);
    expect(readToolCalls("gemini", response)).toEqual(readToolCalls("gemini", response));
  });

  test("ids Gemini sent are kept; an empty or blank id counts as none", () => {
    const response = geminiResponse([
      functionCallPart("work", { a: 1 }, "fc-7"),
      functionCallPart("work", { b: 2 }, ""),
      functionCallPart("work", { c: 3 }, "  "),
    ]);
    const ids = readToolCalls("gemini", response).map((call) => call.id);
    expect(ids[0]).toBe("fc-7");
    expect(ids[1]).toMatch(/^gemini-call-1-/);
    expect(ids[2]).toMatch(/^gemini-call-2-/);
  });

  test("a call without args is a call with no arguments", () => {
    const [call] = readToolCalls("gemini", [functionCallPart("work")]);
    expect(call?.arguments).toEqual({});
  });

  test("thought parts and their signatures are passed over", () => {
    const parts = [
      { text: "planning", thought: true },
      { ...functionCallPart("work", { a: 1 }), thoughtSignature: "c2lnbmF0dXJl" },
    ];
    expect(readToolCalls("gemini", parts).map((call) => call.name)).toEqual(["work"]);
  });

  test.each([
    ["no calls", geminiResponse([{ text: "Paris is sunny." }])],
    ["a blocked prompt (no candidates)", { promptFeedback: { blockReason: "SAFETY" } }],
    ["an empty candidate list", { candidates: [], promptFeedback: { blockReason: "OTHER" } }],
    [
      "a refusal (a candidate stopped for safety, without content)",
      { candidates: [{ finishReason: "SAFETY", index: 0 }] },
    ],
    ["a content without parts", { candidates: [{ content: { role: "model" } }] }],
  ])("%s reads as no calls", (_label, response) => {
    expect(readToolCalls("gemini", response)).toEqual([]);
  });

  test("the candidate's content and its parts read the same as the response", () => {
    const response = geminiResponse([functionCallPart("work", { a: [1] }, "fc-1")]);
    const content = response.candidates[0]?.content;
    expect(readToolCalls("gemini", content)).toEqual(readToolCalls("gemini", response));
    expect(readToolCalls("gemini", content?.parts)).toEqual(readToolCalls("gemini", response));
  });

  test('finishReason "MAX_TOKENS" marks the last call', () => {
    const response = geminiResponse(
      [functionCallPart("work", { a: 1 }), functionCallPart("work", { path: "/tm" })],
      "MAX_TOKENS",
    );
    expect(readToolCalls("gemini", response).map(invalidArgumentsReason)).toEqual([
      undefined,
      'the response stopped early (finishReason "MAX_TOKENS"), so these arguments may be incomplete',
    ]);
  });

  test("the SDK's GenerateContentResponse class reads from its own fields; its prototype getters never run", () => {
    const response = Object.assign(
      new GenerateContentResponse(),
      geminiResponse([functionCallPart("work", { a: 1 }, "fc-1")]),
    );
    const functionCalls = vi.spyOn(GenerateContentResponse.prototype, "functionCalls", "get");
    const text = vi.spyOn(GenerateContentResponse.prototype, "text", "get");
    try {
      expect(readToolCalls("gemini", response)).toEqual([
        { type: "toolCall", id: "fc-1", name: "work", arguments: { a: 1 } },
      ]);
      expect(functionCalls).not.toHaveBeenCalled();
      expect(text).not.toHaveBeenCalled();
    } finally {
      functionCalls.mockRestore();
      text.mockRestore();
    }
  });
});

describe("what is not a Gemini response is a TypeError", () => {
  test.each([
    [
      "a string",
      "x",
      "the response must be a GenerateContentResponse, a content or its parts; found a string",
    ],
    ["an object with none of the fields", { text: "hi" }, "found an object with none of them"],
    [
      "two candidates",
      { candidates: [geminiResponse([]).candidates[0], geminiResponse([]).candidates[0]] },
      "response.candidates must hold one candidate; found 2 (with candidateCount > 1, pass the chosen candidate's content)",
    ],
    ["a part that is not an object", [null], "parts[0] must be an object; found null"],
    [
      "a functionCall that is not an object",
      [{ functionCall: "work" }],
      "parts[0].functionCall must be an object; found a string",
    ],
    [
      "a call without a name",
      [{ functionCall: { args: {} } }],
      "parts[0].functionCall.name must be a non-blank string; found undefined",
    ],
    [
      "a numeric id",
      [{ functionCall: { name: "work", id: 7 } }],
      "parts[0].functionCall.id must be a string when present; found a number",
    ],
  ])("%s", (_label, response, message) => {
    const error = thrownBy(() => readToolCalls("gemini", response));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toContain(message);
  });

  test("an id that merely looks made up is Gemini's own: kept, never taken for one of ours", () => {
    const parts = [functionCallPart("work", {}, "gemini-call-1"), functionCallPart("work", {})];
    const calls = readToolCalls("gemini", parts);
    expect(calls[0]?.id).toBe("gemini-call-1");
    expect(calls[1]?.id).toMatch(/^gemini-call-1-[0-9a-f]{32}$/);
  });
});
