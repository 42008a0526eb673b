/**
 * The arrays of a response (choices, candidates, tool calls, output items,
 * content blocks, parts) are read one slot at a time and counted first: a
 * `length` of fifty million is refused before any slot is read, and the walk
 * stops at the first slot it refuses. Each attack counts the slots it touched
 * through getters on them.
 */
import { describe, expect, test } from "vitest";
import { type RoundTripFormat, readToolCalls } from "./index.ts";
import { MAX_RESPONSE_ITEMS } from "./response-fields.ts";

/** A sparse array of `length` slots with counting getters on its first `watched` slots. */
function watchedArray(length: number, watched: number, slot: () => unknown) {
  const reads: number[] = [];
  const list: unknown[] = [];
  list.length = length;
  for (let index = 0; index < watched; index += 1) {
    Object.defineProperty(list, index, {
      enumerable: true,
      configurable: true,
      get() {
        reads.push(index);
        return slot();
      },
    });
  }
  return { list, reads };
}

const toolCallSlot = () => ({
  id: "call_1",
  type: "function",
  function: { name: "work", arguments: "{}" },
});

/** Where each format keeps one list, and the response that holds `list` there. */
const LISTS: ReadonlyArray<
  readonly [string, RoundTripFormat, (list: unknown[]) => unknown, string, () => unknown]
> = [
  ["choices", "openai-chat", (list) => ({ choices: list }), "response.choices", () => ({})],
  [
    "tool_calls",
    "openai-chat",
    (list) => ({ role: "assistant", tool_calls: list }),
    "message.tool_calls",
    toolCallSlot,
  ],
  [
    "output",
    "openai-responses",
    (list) => ({ output: list }),
    "response.output",
    () => ({ type: "message" }),
  ],
  [
    "content",
    "anthropic",
    (list) => ({ content: list }),
    "message.content",
    () => ({ type: "text", text: "hi" }),
  ],
  ["candidates", "gemini", (list) => ({ candidates: list }), "response.candidates", () => ({})],
  [
    "parts",
    "gemini",
    (list) => ({ candidates: [{ content: { parts: list } }] }),
    "response.candidates[0].content.parts",
    () => ({ text: "hi" }),
  ],
];

describe.each(LISTS)("%s (%s)", (_name, format, wrap, path, slot) => {
  test("a length of 50,000,000 is refused before any slot is read", () => {
    const { list, reads } = watchedArray(50_000_000, 3, slot);
    expect(() => readToolCalls(format, wrap(list))).toThrow(
      new TypeError(
        `readToolCalls("${format}"): ${path} holds 50000000 items, more than the ${MAX_RESPONSE_ITEMS} one response can hold`,
      ),
    );
    expect(reads).toEqual([]);
  });

  test("the walk stops at the first slot it refuses: a hole at 1, the slots after it never read", () => {
    const { list, reads } = watchedArray(5, 1, slot);
    // Slot 1 is a hole; slots 2 to 4 count any read.
    for (let index = 2; index < 5; index += 1) {
      Object.defineProperty(list, index, {
        enumerable: true,
        get() {
          reads.push(index);
          return slot();
        },
      });
    }
    expect(() => readToolCalls(format, wrap(list))).toThrow(TypeError);
    // The lists of exactly one item are refused by their count, before any slot.
    expect(reads).toEqual(path.endsWith("choices") || path.endsWith("candidates") ? [] : [0]);
  });
});

describe("lists of exactly one item are counted before any slot is read", () => {
  test.each([
    ["openai-chat", "choices", (list: unknown[]) => ({ choices: list })],
    ["gemini", "candidates", (list: unknown[]) => ({ candidates: list })],
  ] as const)("%s: two %s touch no slot", (format, _name, wrap) => {
    const { list, reads } = watchedArray(2, 2, () => ({}));
    expect(() => readToolCalls(format, wrap(list))).toThrow(TypeError);
    expect(reads).toEqual([]);
  });
});

describe("the count's boundary", () => {
  test.each([
    [MAX_RESPONSE_ITEMS, true],
    [MAX_RESPONSE_ITEMS + 1, false],
  ])("%i output items: accepted %s", (count, accepted) => {
    const message = { type: "message" };
    const output = Array.from({ length: count }, () => message);
    const read = () => readToolCalls("openai-responses", { output });
    if (accepted) expect(read()).toEqual([]);
    else expect(read).toThrow(TypeError);
  });
});
