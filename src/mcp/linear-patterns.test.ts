/**
 * The linear-time engine's own bounds, each attacked and counted: the work
 * one match may take and the time one check may spend (a heavy pattern
 * applied many times, long strings), the DFA memory a pattern keeps, what a
 * schema's and a listing's patterns may cost to compile, the length of a
 * pattern read, and one compilation per pattern however often a schema
 * repeats it.
 */
import { RE2JS } from "re2js";
import { afterEach, describe, expect, test, vi } from "vitest";
import { compileArgumentCheck, loadAjv } from "./json-schema-check.ts";
import { linearTimePatterns, MAX_PATTERN_CHARACTERS } from "./linear-patterns.ts";
import {
  CompileAccount,
  MAX_PATTERN_WORK,
  MAX_SCHEMA_COMPILE_COST,
  PatternWorkExceeded,
  PROPERTY_ESCAPE_COST,
  PROPERTY_SCAN_COST,
  propertyEscapes,
} from "./pattern-budgets.ts";

const engine = await linearTimePatterns();
const ajv = await loadAjv();

// About 4,900 instructions: near the cap, where RE2JS's DFA gives up and its NFA takes
// about 0.1 ms a character (about 80 ms for 300 characters that end in "b").
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
  return `(?:${pattern})(?:(?:${serial}){0})`;
}

/** A schema that applies `pattern` to `q` `times` times, through a $ref. */
function applied(pattern: string, times: number): Record<string, unknown> {
  return {
    $defs: { p: { type: "string", pattern } },
    type: "object",
    properties: { q: { allOf: Array.from({ length: times }, () => ({ $ref: "#/$defs/p" })) } },
  };
}

function checkOf(schema: Record<string, unknown>) {
  const compiled = compileArgumentCheck(ajv, schema, engine);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.check;
}

describe("what one match and one check may spend", () => {
  test("a match over the work bound is refused before it runs", () => {
    const spy = spyOnRe2();
    const check = checkOf(applied(fresh(HEAVY), 40));
    // 2,000 characters against about 4,900 instructions: about 9.8 million steps.
    const refusal = check({ q: "a".repeat(2_000) });
    expect(refusal).toMatch(
      new RegExp(
        `^arguments take too long to check against the Tool's patterns \\(one string would take \\d+ steps against one of the schema's patterns, over ${MAX_PATTERN_WORK}\\); send shorter or fewer strings$`,
      ),
    );
    expect(spy.matches()).toBe(0);
    expect(check({ q: "b" })).toBeUndefined();
    expect(spy.matches()).toBe(40);
  });

  test("a heavy pattern applied forty times stops once the check's time is spent", () => {
    const spy = spyOnRe2();
    const check = checkOf(applied(fresh(HEAVY), 40));
    // Each match is under the work bound and takes tens of milliseconds: forty would take seconds.
    expect(check({ q: "ab".repeat(150) })).toMatch(
      /took over 50 ms\); send shorter or fewer strings$/,
    );
    expect(spy.matches()).toBeGreaterThan(0);
    expect(spy.matches()).toBeLessThan(10);
    // The next check has its own time.
    expect(check({ q: "b" })).toBeUndefined();
  });

  test("ordinary patterns check many strings: 500 UUIDs", () => {
    const uuid = fresh("^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    const check = checkOf({
      type: "object",
      properties: { ids: { type: "array", items: { type: "string", pattern: uuid } } },
    });
    const ids = Array.from(
      { length: 500 },
      (_, index) => `${index.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`,
    );
    expect(check({ ids })).toBeUndefined();
    expect(check({ ids: [...ids, "not-a-uuid"] })).toMatch(/must match pattern/);
  });

  test("outside a check (the MCP SDK client's own), each synchronous run gets the time", async () => {
    const pattern = engine(fresh(HEAVY), "u");
    const text = "ab".repeat(150);
    let answered = 0;
    expect(() => {
      for (let round = 0; round < 100; round += 1) {
        pattern.test(text);
        answered += 1;
      }
    }).toThrow(PatternWorkExceeded);
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(10);
    await Promise.resolve();
    expect(pattern.test("b")).toBe(true);
    expect(() => engine(fresh("^a+$"), "u").test("a".repeat(1_000_000))).toThrow(
      PatternWorkExceeded,
    );
  });

  test("a class of many Unicode classes keeps its DFA tables between matches", () => {
    // 3,290 Unicode classes in 3 instructions: each DFA state's table has a slot per class.
    const spy = spyOnRe2();
    const pattern = engine(
      fresh(
        "[\\p{Ll}\\p{Lo}\\p{Mn}\\p{So}\\p{Pe}\\p{Po}\\p{Nd}\\p{Sk}\\p{Pf}\\p{Cf}\\p{Co}\\p{Cc}]",
      ),
      "u",
    );
    const program = spy.programs.at(-1) as unknown as {
      re2Input: { lazyDFA: { clearCache(): void; numClasses: number } };
    };
    expect(program.re2Input.lazyDFA.numClasses).toBeGreaterThan(1_000);
    const clears = vi.spyOn(program.re2Input.lazyDFA, "clearCache");
    // Searched for (unanchored) in texts without one: the DFA runs to the end of each.
    for (const text of ["", " ", "  ", "\u2000", "A B", "", " "]) pattern.test(text);
    expect(clears).not.toHaveBeenCalled();
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
  test(`a schema whose patterns cost over ${MAX_SCHEMA_COMPILE_COST} to compile is refused`, () => {
    // Five patterns of 28 characters, each about 4,900 instructions (about 800 KB) once compiled.
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
      reason: `the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
    });
    // The fifth was compiled and refused: four fit.
    expect(spy.programs).toHaveLength(5);
    // Each schema has its own budget: the same four patterns again are taken.
    const four = Object.fromEntries(Object.entries(properties).slice(0, 4));
    expect(compileArgumentCheck(ajv, { type: "object", properties: four }, engine).ok).toBe(true);
  });

  test("a listing's schemas share one budget", () => {
    const listing = new CompileAccount(50_000, "the server's schemas, all Tools together,");
    const reasons: string[] = [];
    for (let tool = 0; tool < 4; tool += 1) {
      const properties = Object.fromEntries(
        Array.from({ length: 4 }, (_, index) => [
          `p${index}`,
          { type: "string", pattern: fresh(HEAVY) },
        ]),
      );
      const compiled = compileArgumentCheck(ajv, { type: "object", properties }, engine, listing);
      reasons.push(compiled.ok ? "ok" : compiled.reason);
    }
    // Each schema costs about 19,800: two fit in 50,000.
    expect(reasons.slice(0, 2)).toEqual(["ok", "ok"]);
    expect(reasons[2]).toBe(
      "the server's schemas, all Tools together, cost more than 50000 to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)",
    );
  });

  test(`each Unicode property the process looks up costs ${PROPERTY_SCAN_COST}: four fill a schema`, () => {
    // Properties no other test here asks for: each is looked up (scanned) for this schema.
    const spy = spyOnRe2();
    const scripts = ["Zyyy", "Zinh", "Hira", "Kana"];
    const properties = Object.fromEntries(
      scripts.map((script) => [script, { type: "string", pattern: `^\\p{scx=${script}}+$` }]),
    );
    expect(compileArgumentCheck(ajv, { type: "object", properties }, engine)).toEqual({
      ok: false,
      reason: `the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
    });
    // The fourth look-up was refused before its scan: three patterns reached RE2.
    expect(spy.programs.filter((program) => program.pattern().includes("\\x{"))).toHaveLength(3);
  });

  test("attack: 800 property escapes in one pattern are refused before either engine reads them", () => {
    // Both engines merge each property's ranges into the class: about 220 ms for this one
    // pattern of 4,002 characters, before any budget saw it. The unclosed group at its end
    // would make the platform's syntax check throw: the budget's refusal shows it never ran.
    const spy = spyOnRe2();
    const pattern = `[${"\\p{L}".repeat(800)}](`;
    expect(pattern.length).toBeLessThanOrEqual(MAX_PATTERN_CHARACTERS);
    expect(propertyEscapes(pattern) * PROPERTY_ESCAPE_COST).toBeGreaterThan(
      MAX_SCHEMA_COMPILE_COST,
    );
    const schema = { type: "object", properties: { name: { type: "string", pattern } } };
    expect(compileArgumentCheck(ajv, schema, engine)).toEqual({
      ok: false,
      reason: `the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
    });
    expect(spy.programs).toHaveLength(0);
  });

  test("attack: a pattern RE2JS would build to 1,400,000 instructions is refused before it is built", () => {
    // 1,400 characters: RE2JS writes the group out 1,000 times (a second and 270 MB), and
    // only then did the instruction bound refuse the program.
    const spy = spyOnRe2();
    const pattern = `(?:${"a?".repeat(698)}){1000}`;
    expect(() => engine(pattern, "u")).toThrow(
      /would compile to about 1396002 instructions, over 5000$/,
    );
    expect(spy.programs).toHaveLength(0);
  });

  test("eight distinct ordinary patterns with property escapes fit one schema", () => {
    // Names in any script: each pattern costs about 2,000, mostly its Unicode classes (the
    // DFA's tables); its three escapes are 150 of it. The same pattern repeated is paid once.
    const properties = Object.fromEntries(
      Array.from({ length: 8 }, (_, index) => [
        `f${index}`,
        { type: "string", pattern: fresh("^[\\p{L}\\p{M}\\p{N} ._-]{1,100}$") },
      ]),
    );
    expect(compileArgumentCheck(ajv, { type: "object", properties }, engine).ok).toBe(true);
  });

  test.each([
    ["one escape", "^\\p{L}+$", 1],
    ["a negated escape", "\\P{Lu}", 1],
    ["two in a class", "[\\p{L}\\p{N}_-]", 2],
    ["none", "^[a-z]+$", 0],
    ["an escaped backslash before p{L}", "\\\\p{L}", 0],
    ["an escaped backslash, then an escape", "\\\\\\p{L}", 1],
    ["a backslash at the end", "a\\", 0],
  ])("propertyEscapes: %s", (_what, pattern, expected) => {
    expect(propertyEscapes(pattern)).toBe(expected);
  });

  test("three Unicode properties looked up fit one schema", () => {
    const properties = Object.fromEntries(
      ["Hang", "Hani", "Bopo"].map((script) => [
        script,
        { type: "string", pattern: `^\\p{scx=${script}}+$` },
      ]),
    );
    const compiled = compileArgumentCheck(ajv, { type: "object", properties }, engine);
    expect(compiled.ok).toBe(true);
  });

  test(`a pattern over ${MAX_PATTERN_CHARACTERS} characters is refused before it is parsed`, () => {
    const spy = spyOnRe2();
    const long = `[${"\\p{L}".repeat(1_000)}]`;
    expect(() => engine(long, "u")).toThrow(
      `has ${long.length} characters, over ${MAX_PATTERN_CHARACTERS}`,
    );
    expect(spy.programs).toHaveLength(0);
  });

  test("a pattern a schema repeats 900 times is compiled once", () => {
    const spy = spyOnRe2();
    const repeated = fresh("^[a-z]+\\d*$");
    // 900 subschemas in one anyOf: about as many as a schema's budget takes (see schema-structure.ts).
    const schema = {
      type: "object",
      properties: { q: { anyOf: Array.from({ length: 900 }, () => ({ pattern: repeated })) } },
    };
    const compiled = compileArgumentCheck(ajv, schema, engine);
    expect(compiled.ok).toBe(true);
    expect(spy.programs).toHaveLength(1);
  });
});
