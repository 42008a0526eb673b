/**
 * The linear-time engine's own bounds, each attacked and counted: the work a
 * check may ask of the patterns (many patterns, or one applied many times,
 * against long strings), the DFA memory a pattern keeps, the length of a
 * pattern read, and one compilation per pattern however often a schema
 * repeats it.
 */
import { RE2JS } from "re2js";
import { afterEach, describe, expect, test, vi } from "vitest";
import { compileArgumentCheck, loadAjv } from "./json-schema-check.ts";
import {
  linearTimePatterns,
  MAX_PATTERN_CHARACTERS,
  MAX_PATTERN_WORK,
  MAX_SCHEMA_PATTERN_INSTRUCTIONS,
  PatternWorkExceeded,
} from "./linear-patterns.ts";

const engine = await linearTimePatterns();
const ajv = await loadAjv();

// About 4,900 instructions: near the cap, where RE2JS's DFA gives up and its NFA takes
// about 0.1 ms a character.
const HEAVY = ".{0,1000}.{0,1000}.{0,450}b$";

/** Counts the matches RE2JS runs, and keeps each program it compiles. */
function spyOnRe2(): { readonly matches: () => number; readonly programs: RE2JS[] } {
  let matches = 0;
  const programs: RE2JS[] = [];
  const test = RE2JS.prototype.test;
  vi.spyOn(RE2JS.prototype, "test").mockImplementation(function (this: RE2JS, input) {
    matches += 1;
    return Reflect.apply(test, this, [input]);
  });
  const compile = RE2JS.compile;
  vi.spyOn(RE2JS, "compile").mockImplementation((...args) => {
    const program = compile(...args);
    programs.push(program);
    return program;
  });
  return { matches: () => matches, programs };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** A fresh pattern each time, so the engine's kept programs never answer for another test. */
let serial = 0;
function fresh(pattern: string): string {
  serial += 1;
  return `(?:${pattern})(?:z{0}${serial}{0})`;
}

describe("the work a check may ask of the patterns", () => {
  test("a heavy pattern applied forty times to 1,000 characters: refused before any match", () => {
    const spy = spyOnRe2();
    const schema = {
      $defs: { heavy: { type: "string", pattern: fresh(HEAVY) } },
      type: "object",
      properties: { q: { allOf: Array.from({ length: 40 }, () => ({ $ref: "#/$defs/heavy" })) } },
    };
    const compiled = compileArgumentCheck(ajv, schema, engine);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(compiled.check({ q: "a".repeat(1_000) })).toBe(
      `arguments are too long to check against the Tool's patterns: checking these strings against the schema's patterns would take more than ${MAX_PATTERN_WORK} steps; send shorter strings`,
    );
    // One match of it would be about 4.9 million steps: none ran.
    expect(spy.matches()).toBe(0);
    expect(compiled.check({ q: "b" })).toBeUndefined();
    expect(spy.matches()).toBe(40);
  });

  test("one pattern applied through a $ref many times stops when the budget runs out", () => {
    const word = fresh("^[a-z]+$");
    const schema = {
      $defs: { word: { type: "string", pattern: word } },
      type: "object",
      properties: { q: { allOf: Array.from({ length: 500 }, () => ({ $ref: "#/$defs/word" })) } },
    };
    const spy = spyOnRe2();
    const compiled = compileArgumentCheck(ajv, schema, engine);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(spy.programs).toHaveLength(1);
    const text = "a".repeat(20_000);
    expect(compiled.check({ q: text })).toMatch(/^arguments are too long to check/);
    // Each match costs the program's size times 20,001: the budget allows only so many.
    const perMatch = (spy.programs[0] as RE2JS).programSize() * 20_001;
    expect(spy.matches()).toBe(Math.floor(MAX_PATTERN_WORK / perMatch));
    expect(spy.matches()).toBeLessThan(500);
  });

  test("each check has the whole budget: a check after a refused one is answered", () => {
    const compiled = compileArgumentCheck(
      ajv,
      { type: "object", properties: { q: { type: "string", pattern: fresh("^[a-z]+$") } } },
      engine,
    );
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(compiled.check({ q: "a".repeat(1_000_000) })).toMatch(/^arguments are too long/);
    expect(compiled.check({ q: "a".repeat(50_000) })).toBeUndefined();
    expect(compiled.check({ q: `${"a".repeat(50_000)}1` })).toMatch(/must match pattern/);
  });

  test("outside a check (the MCP SDK client's own), the budget is per turn of the event loop", async () => {
    const pattern = engine(fresh("^[a-z]+$"), "u");
    const text = "a".repeat(20_000);
    let answered = 0;
    expect(() => {
      for (let round = 0; round < 1_000; round += 1) {
        pattern.test(text);
        answered += 1;
      }
    }).toThrow(PatternWorkExceeded);
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(1_000);
    await Promise.resolve();
    expect(pattern.test(text)).toBe(true);
  });
});

test("a pattern keeps at most 512 bytes of DFA states per instruction between checks", () => {
  // [ab]*a[ab]{12}: up to 2^13 DFA states, about 2 MB, over a text that reaches many of them.
  const spy = spyOnRe2();
  const pattern = engine(fresh("^[ab]*a[ab]{12}$"), "u");
  let seed = 7;
  let text = "";
  for (let index = 0; index < 30_000; index += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    text += seed % 3 === 0 ? "a" : "b";
  }
  pattern.test(text);
  const dfa = (
    spy.programs[0] as unknown as {
      re2Input: { lazyDFA: { maxMem: number; memBudget: number; stateCount: number } };
    }
  ).re2Input.lazyDFA;
  const size = (spy.programs[0] as RE2JS).programSize();
  expect(size).toBeLessThan(128);
  expect(dfa.maxMem - dfa.memBudget).toBeLessThanOrEqual(Math.max(4_096, size * 512));
  // The cache was there to drop: the same match without the drop keeps far more.
  const kept = RE2JS.compile("^[ab]*a[ab]{12}$");
  kept.test(text);
  const lazy = (kept as unknown as { re2Input: { lazyDFA: { maxMem: number; memBudget: number } } })
    .re2Input.lazyDFA;
  expect(lazy.maxMem - lazy.memBudget).toBeGreaterThan(64 * 1024);
});

describe("reading patterns", () => {
  test(`a schema whose patterns compile to over ${MAX_SCHEMA_PATTERN_INSTRUCTIONS} instructions is refused`, () => {
    // Five patterns of 28 characters, each about 800 KB once compiled.
    const spy = spyOnRe2();
    const properties = Object.fromEntries(
      Array.from({ length: 5 }, (_, index) => [
        `p${index}`,
        { type: "string", pattern: fresh(HEAVY) },
      ]),
    );
    const compiled = compileArgumentCheck(ajv, { type: "object", properties }, engine);
    expect(compiled).toEqual({
      ok: false,
      reason: `the schema's patterns compile to more than ${MAX_SCHEMA_PATTERN_INSTRUCTIONS} instructions in all`,
    });
    // The fifth was compiled and refused: four fit.
    expect(spy.programs).toHaveLength(5);
    // Each schema has its own budget: the same four patterns again are taken.
    const four = Object.fromEntries(Object.entries(properties).slice(0, 4));
    expect(compileArgumentCheck(ajv, { type: "object", properties: four }, engine).ok).toBe(true);
  });

  test(`a pattern over ${MAX_PATTERN_CHARACTERS} characters is refused before it is parsed`, () => {
    const spy = spyOnRe2();
    const long = `[${"\\p{L}".repeat(1_000)}]`;
    expect(() => engine(long, "u")).toThrow(
      `has ${long.length} characters, over ${MAX_PATTERN_CHARACTERS}`,
    );
    expect(spy.programs).toHaveLength(0);
  });

  test("a pattern a schema repeats a thousand times is compiled once", () => {
    const spy = spyOnRe2();
    const repeated = fresh("^[a-z]+\\d*$");
    const schema = {
      type: "object",
      properties: { q: { anyOf: Array.from({ length: 1_000 }, () => ({ pattern: repeated })) } },
    };
    const compiled = compileArgumentCheck(ajv, schema, engine);
    expect(compiled.ok).toBe(true);
    expect(spy.programs).toHaveLength(1);
  });
});
