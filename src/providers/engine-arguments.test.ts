/**
 * The engine's path for ordinary argument text: it answers only what the
 * exact reader answers, and leaves to the exact reader every text that breaks
 * a rule `JSON.parse` does not apply (nesting, repeated keys, lone
 * surrogates, numbers a double changes), nesting before the engine reads.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { plainJsonObject } from "../../test/property/support/json-arbitraries.ts";
import { readTextFacts, readWithEngine } from "./engine-arguments.ts";
import { Refusal, readExactly } from "./exact-argument-reader.ts";

/** Every object and array of `value`, the value itself included. */
function containersOf(value: unknown): object[] {
  const found: object[] = [];
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null) continue;
    found.push(node);
    pending.push(...Object.values(node));
  }
  return found;
}

/** The exact reader's answer: its value, or its refusal's reason. */
function exactly(text: string, maxDepth = 64): unknown {
  try {
    return { value: readExactly(text, maxDepth) };
  } catch (thrown) {
    if (thrown instanceof Refusal) return { reason: thrown.reason };
    throw thrown;
  }
}

describe("ordinary text: the engine's value, frozen, equal to the exact reader's", () => {
  const ordinary = [
    "{}",
    ' { "a" : [ 1 , 2 ] } ',
    '{"a":[1,2,{"b":null}],"c":true,"d":false,"e":-0.5e+3,"f":"text"}',
    '{"escapes":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9","more":"\\n"}',
    '{"pair escaped":"\\ud83d\\ude00","pair raw":"😀","colon":":{[","quote":"\\""}',
    '{"__proto__":{"polluted":true},"constructor":1}',
    '{"n":-0,"z":0,"m":1E2,"o":0.1,"p":0.05,"big":9007199254740991}',
    '{"small":2.2250738585072014e-308,"tiny but not zero":1.5e-3}',
    '{"zero":0.0e5,"again":-0.0}',
    '{"deep":[[[[[[[[[[{"x":[]}]]]]]]]]]]}',
  ];

  test.each(ordinary)("%s", (text) => {
    expect(ordinary.length).toBeGreaterThan(0);
    const value = readWithEngine(text, 64);
    expect(value).toEqual(JSON.parse(text));
    expect(exactly(text)).toEqual({ value });
    expect(containersOf(value).every((node) => Object.isFrozen(node))).toBe(true);
  });

  test("a __proto__ key is an own data key and the prototype is Object.prototype", () => {
    const value = readWithEngine('{"__proto__":{"polluted":true}}', 64) as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  /** Whether the exact reader reads `text` back as the same JSON. */
  const exactReads = (text: string) =>
    JSON.stringify((exactly(text) as { value?: unknown }).value) === text;

  test("for any plain JSON object with awkward keys, strings and numbers, it agrees whenever it answers", () => {
    let answered = 0;
    fc.assert(
      fc.property(plainJsonObject, (object) => {
        const text = JSON.stringify(object);
        const value = readWithEngine(text, 64);
        if (value === undefined) return true;
        answered += 1;
        return JSON.stringify(value) === text && exactReads(text);
      }),
      { seed: 20_261_204, numRuns: 400 },
    );
    // Lone surrogates, -0 written as 0 and tiny numbers are common in these; the rest is answered.
    expect(answered).toBeGreaterThan(40);
  });

  test("for almost any ordinary JSON object, it answers, and agrees with the exact reader", () => {
    let answered = 0;
    // What arguments hold: any well-formed text, integers, decimals with a few places, literals.
    const text = fc.string({ unit: "grapheme" });
    const scalar = fc.oneof(
      text,
      fc.integer(),
      fc.integer().map((thousandths) => thousandths / 1000),
      fc.boolean(),
      fc.constant(null),
    );
    const { value: ordinaryValue } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small", maxDepth: 5 },
        scalar,
        fc.array(tie("value"), { maxLength: 5 }),
        fc.dictionary(text, tie("value"), { maxKeys: 5 }),
      ),
    }));
    const ordinaryObject = fc.dictionary(text, ordinaryValue, { maxKeys: 8 });
    fc.assert(
      fc.property(ordinaryObject, (object) => {
        const text = JSON.stringify(object);
        const value = readWithEngine(text, 64);
        if (value === undefined) return true;
        answered += 1;
        return JSON.stringify(value) === text && exactReads(text);
      }),
      { seed: 20_261_205, numRuns: 300 },
    );
    // Only a decimal JSON.stringify writes with a negative exponent is left to the exact reader.
    expect(answered).toBeGreaterThan(270);
  });
});

describe("what it leaves to the exact reader", () => {
  test.each([
    ["a repeated key", '{"a":1,"a":2}'],
    ["a repeated key in a nested object", '{"a":[{"b":1,"c":2,"b":3}]}'],
    ["a repeated __proto__ key", '{"__proto__":1,"__proto__":2}'],
    ["nesting past the limit", `{"a":${"[".repeat(64)}${"]".repeat(64)}}`],
    ["an escaped lone high surrogate", '{"a":"\\ud800"}'],
    ["an escaped lone low surrogate", '{"a":"\\udc00x"}'],
    ["an escaped high surrogate before a raw low one", '{"a":"\\ud83d\ude00"}'],
    ["an escaped high surrogate before another escape", '{"a":"\\ud83d\\n"}'],
    ["a raw lone surrogate", '{"a":"\ud800"}'],
    ["a raw lone surrogate in a key", '{"\udfff":1}'],
    ["a number too large for a double", '{"a":1e999}'],
    ["an integer past 2^53 - 1", '{"a":9007199254740993}'],
    ["a number below the normal doubles", '{"a":5e-324}'],
    ["a number read as zero", '{"a":1e-400}'],
    ["a long fraction read as zero", `{"a":0.${"0".repeat(400)}1}`],
    ["an array", "[1]"],
    ["a string", '"text"'],
    ["null", "null"],
    ["text that is not JSON", '{"a":1,}'],
    ["an unclosed string", '{"a":"'],
    ["a byte-order mark", '\ufeff{"a":1}'],
    ["an empty text", ""],
  ])("%s", (_label, text) => {
    expect(readWithEngine(text, 64)).toBeUndefined();
  });

  test.each([
    ["a negative exponent", '{"a":1.5e-3}', true],
    ["a capital negative exponent", '{"a":2E-1}', true],
    ["a fraction starting with two zeros", '{"a":0.001}', true],
    ["a positive exponent and a short fraction", '{"a":1e5,"b":0.05,"c":-1}', false],
    ["a minus inside a string", '{"a":"e-"}', false],
  ])("a text with %s may hide a tiny number read as 0: %s", (_label, text, tiny) => {
    expect(readTextFacts(text, 64)?.zeroMayBeTiny).toBe(tiny);
  });

  test("a 0 is left to the exact reader when the text may hide a tiny number", () => {
    expect(readWithEngine('{"a":0,"b":1.5e-3}', 64)).toBeUndefined();
    expect(readWithEngine('{"a":0,"b":1.5e3}', 64)).toEqual({ a: 0, b: 1500 });
  });

  test("text nesting past the limit is found before the engine reads it", () => {
    // 100,000 levels: only the pass over the text sees them, and it stops at level 65.
    const text = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(readTextFacts(text, 64)).toBeUndefined();
    expect(readTextFacts(`{"a":${"[".repeat(63)}${"]".repeat(63)}}`, 64)?.members).toBe(1);
  });

  test.each([
    ['{"a":{"b":":"}}', 2],
    ['{"a":"\\":","b":[":"]}', 2],
    ['{"x\\\\":1,"y":{}}', 2],
    ['{"a":[{"b":1},{"c":2,"d":3}]}', 4],
  ])("counts the members of %s outside strings: %i", (text, members) => {
    expect(readTextFacts(text, 64)).toEqual({ members, zeroMayBeTiny: false });
  });
});
