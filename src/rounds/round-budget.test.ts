import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  ToolRegistry,
  toolResultMessage,
} from "../../course/src/index.ts";
import { countCodePoints, executeToolCalls, RoundBudget } from "./index.ts";

const MARKER = COURSE_TOOL_TRUNCATION_MARKER;
const M = countCodePoints(MARKER);
const result = (id: string, content: string, isError = false): CourseToolResultMessage =>
  toolResultMessage({ id, name: "work" }, content, isError);
const contents = (budget: number, texts: readonly string[]): string[] => {
  const spender = new RoundBudget(budget);
  return texts.map((text, index) => spender.take(result(`c${index}`, text)).content);
};

describe("countCodePoints", () => {
  test.each([
    ["", 0],
    ["abc", 3],
    ["a😀b", 3],
    ["\ud800x", 2],
    ["x\udc00", 2],
  ])("%j has %i code points", (text, expected) => {
    expect(countCodePoints(text)).toBe(expected);
  });

  test("the marker is 24 code points", () => {
    expect(M).toBe(24);
  });
});

describe("RoundBudget", () => {
  test.each([
    ["exact fit keeps everything", 10, ["abcde", "fghij"], ["abcde", "fghij"]],
    ["room for the marker only", 5 + M, ["abcde", "x".repeat(M + 1)], ["abcde", MARKER]],
    [
      "the longest prefix that fits with the marker",
      5 + M + 3,
      ["abcde", "x".repeat(M + 4)],
      ["abcde", `xxx${MARKER}`],
    ],
    [
      "less room than the marker empties the content",
      5 + M - 1,
      ["abcde", "x".repeat(M)],
      ["abcde", ""],
    ],
    [
      "after a cut every later result is empty, even a short one",
      3 + M,
      ["a".repeat(M + 10), "x"],
      [`aaa${MARKER}`, ""],
    ],
    ["an empty result spends nothing", 3, ["", "abc", ""], ["", "abc", ""]],
  ])("%s", (_name, budget, texts, expected) => {
    expect(texts.length).toBeGreaterThan(0);
    const got = contents(budget, texts);
    expect(got).toEqual(expected);
    expect(got.reduce((sum, text) => sum + countCodePoints(text), 0)).toBeLessThanOrEqual(budget);
  });

  test("a cut never splits a surrogate pair and counts code points, not code units", () => {
    const [cut] = contents(2 + M, ["😀".repeat(M + 5)]);
    expect(cut).toBe(`😀😀${MARKER}`);
    expect(countCodePoints(cut ?? "")).toBe(2 + M);
  });

  test("a result that fits is the same message; a cut one is a new frozen linked message", () => {
    const spender = new RoundBudget(3 + M);
    const kept = result("a", "ab");
    const errorResult = result("b", "e".repeat(40), true);
    expect(spender.take(kept)).toBe(kept);
    const cut = spender.take(errorResult);
    expect(cut).not.toBe(errorResult);
    expect(Object.isFrozen(cut)).toBe(true);
    expect(cut).toEqual({ ...errorResult, content: `e${MARKER}` });
    expect(spender.remaining).toBe(0);
  });

  test("an Infinity budget returns every result unchanged", () => {
    const spender = new RoundBudget(Number.POSITIVE_INFINITY);
    const big = result("a", "x".repeat(10_000));
    expect(spender.take(big)).toBe(big);
  });

  test("for all contents and budgets: the sum stays within the budget and the cut follows call order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 60 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 300 }),
        (texts, budget) => {
          const got = contents(budget, texts);
          const total = got.reduce((sum, text) => sum + countCodePoints(text), 0);
          expect(total).toBeLessThanOrEqual(budget);
          let cut = false;
          for (let index = 0; index < texts.length; index += 1) {
            const original = texts[index] as string;
            const now = got[index] as string;
            if (cut) expect(now).toBe("");
            else if (now !== original) {
              cut = true;
              const ok =
                now === "" || (now.endsWith(MARKER) && original.startsWith(now.slice(0, -M)));
              expect(ok).toBe(true);
            }
          }
        },
      ),
    );
  });
});

describe("maxRoundCharacters in a round", () => {
  const call = (id: string, text: string): CourseToolCall =>
    ({ type: "toolCall", id, name: "echo", arguments: { text } }) as CourseToolCall;

  /** Echo Tool whose calls finish in the order the test lists. */
  function echoInOrder(order: readonly string[]) {
    const finished: string[] = [];
    const registry = new ToolRegistry([
      defineTool({
        name: "echo",
        description: "Echoes after its turn comes.",
        validate: (input) => ({ ok: true as const, value: input as { text: string } }),
        execute: async ({ text }, { toolCallId }) => {
          for (
            let turn = 0;
            turn < 1000 && finished.length < order.indexOf(toolCallId);
            turn += 1
          ) {
            await new Promise((resolve) => setImmediate(resolve));
          }
          finished.push(toolCallId);
          return text;
        },
      }),
    ]);
    return { registry, finished };
  }

  test.each([[["a", "b", "c"]], [["c", "b", "a"]], [["b", "c", "a"]]])(
    "the cut is decided in call order whatever the completion order (%j)",
    async (order) => {
      const { registry, finished } = echoInOrder(order);
      const calls = [call("a", "x".repeat(20)), call("b", "y".repeat(40)), call("c", "z")];
      // Each content is the JSON string: 22, 42 and 3 code points.
      const results = await executeToolCalls(registry, calls, new AbortController().signal, {
        concurrency: Number.POSITIVE_INFINITY,
        maxRoundCharacters: 22 + M + 5,
      });
      expect(finished).toEqual(order);
      expect(results.map((message) => message.content)).toEqual([
        `"${"x".repeat(20)}"`,
        `"yyyy${MARKER}`,
        "",
      ]);
      expect(results.map((message) => message.id)).toEqual([
        "tool-result-a",
        "tool-result-b",
        "tool-result-c",
      ]);
    },
  );
});
