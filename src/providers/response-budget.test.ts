/**
 * `maxResponseArgumentCharacters`: a budget of argument characters for one
 * whole response, so that a response of many maximal calls cannot make
 * `readToolCalls` parse without end. Calls are taken in order; a call whose
 * arguments do not fit in what is left is refused without being read, and
 * the model reads why.
 */
import { describe, expect, test } from "vitest";
import { invalidArgumentsReason } from "../../course/src/index.ts";
import { TEXT_FORMATS, VALUE_FORMATS } from "../../test/support/providers.ts";
import { PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS, readToolCalls } from "./index.ts";

const budgetReason = (limit: number) =>
  `arguments are longer than what is left of the limit of ${limit} characters for all the arguments of one response`;

/** Argument text of exactly `length` characters: `{"a":"xxx…"}`. */
const textOf = (length: number) => `{"a":"${"x".repeat(length - 8)}"}`;

describe.each(TEXT_FORMATS)("%s: the response's argument budget", (format, response) => {
  test("the default is 4,000,000: of 16 one-million-character calls, the first 4 are read and 12 refused unread", () => {
    expect(PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS).toBe(4_000_000);
    // Each text is valid JSON: a call that was read has arguments, a refused one has a reason.
    const texts = Array.from({ length: 16 }, () => textOf(1_000_000));
    const calls = readToolCalls(format, response(texts));
    const read = calls.filter((call) => invalidArgumentsReason(call) === undefined);
    expect(read).toHaveLength(4);
    expect(calls.slice(0, 4)).toEqual(read);
    for (const call of calls.slice(4)) {
      expect(invalidArgumentsReason(call)).toBe(budgetReason(4_000_000));
    }
  });

  test.each([
    ["exactly what the calls need", 300, [true, true, true]],
    ["one character less", 299, [true, true, false]],
    ["room for the first only", 100, [true, false, false]],
    ["less than the first", 99, [false, false, false]],
  ])("a budget of %s (%i) reads the calls that fit, in order", (_label, limit, expected) => {
    const calls = readToolCalls(format, response([textOf(100), textOf(100), textOf(100)]), {
      maxResponseArgumentCharacters: limit,
    });
    expect(calls.map((call) => invalidArgumentsReason(call) === undefined)).toEqual(expected);
    for (const [index, fits] of expected.entries()) {
      if (!fits) expect(invalidArgumentsReason(calls[index])).toBe(budgetReason(limit));
    }
  });

  test("a call refused unread costs nothing: a smaller call after it still fits", () => {
    const calls = readToolCalls(format, response([textOf(100), textOf(500), textOf(50)]), {
      maxResponseArgumentCharacters: 200,
    });
    expect(calls.map((call) => invalidArgumentsReason(call))).toEqual([
      undefined,
      budgetReason(200),
      undefined,
    ]);
  });

  test("a text past its own limit is refused by that limit and costs the response nothing", () => {
    const calls = readToolCalls(format, response([textOf(2_000), textOf(100)]), {
      maxArgumentCharacters: 1_000,
      maxResponseArgumentCharacters: 150,
    });
    expect(invalidArgumentsReason(calls[0])).toBe(
      "arguments are 2000 characters long, more than the limit of 1000",
    );
    expect(invalidArgumentsReason(calls[1])).toBeUndefined();
  });

  test("Infinity lifts the budget", () => {
    const texts = Array.from({ length: 5 }, () => textOf(1_000_000));
    const calls = readToolCalls(format, response(texts), {
      maxResponseArgumentCharacters: Number.POSITIVE_INFINITY,
    });
    expect(calls.every((call) => invalidArgumentsReason(call) === undefined)).toBe(true);
  });
});

describe.each(VALUE_FORMATS)(
  "%s: parsed arguments count their compact JSON",
  (format, response) => {
    // {"a":"xxx…"} as a value: its JSON text is exactly `length` characters.
    const argumentsValue = (length: number) => ({ a: "x".repeat(length - 8) });

    test.each([
      ["exactly what the calls need", 200, [true, true]],
      ["one character less", 199, [true, false]],
    ])("a budget of %s (%i)", (_label, limit, expected) => {
      const calls = readToolCalls(format, response([argumentsValue(100), argumentsValue(100)]), {
        maxResponseArgumentCharacters: limit,
      });
      expect(calls.map((call) => invalidArgumentsReason(call) === undefined)).toEqual(expected);
      if (expected[1] === false) expect(invalidArgumentsReason(calls[1])).toBe(budgetReason(limit));
    });

    test("a value past its own limit, with room left in the response, names its own limit", () => {
      const calls = readToolCalls(format, response([argumentsValue(2_000)]), {
        maxArgumentCharacters: 1_000,
        maxResponseArgumentCharacters: 10_000,
      });
      expect(invalidArgumentsReason(calls[0])).toBe(
        "arguments are longer than the limit of 1000 characters as JSON text",
      );
    });
  },
);

describe("the option itself", () => {
  test.each([
    ["zero", 0],
    ["a negative number", -1],
    ["a fraction", 1.5],
    ["NaN", Number.NaN],
    ["a string", "1000"],
    ["a boxed number", Object(1000)],
  ])("%s is a TypeError naming the option", (_label, value) => {
    expect(() =>
      readToolCalls(
        "openai-chat",
        { role: "assistant", content: "hi" },
        {
          maxResponseArgumentCharacters: value as number,
        },
      ),
    ).toThrow(
      new TypeError(
        "readToolCalls option maxResponseArgumentCharacters must be a positive integer or Infinity",
      ),
    );
  });

  test("is read once", () => {
    let reads = 0;
    const options = {
      get maxResponseArgumentCharacters() {
        reads += 1;
        return 10;
      },
    };
    readToolCalls("openai-chat", { role: "assistant", content: "hi" }, options);
    expect(reads).toBe(1);
  });
});
