/**
 * Leading lookaheads run as patterns of their own: the split keeps
 * ECMAScript's meaning (a table of real patterns, then generated ones, each
 * against the platform's engine), every part is paid for, and any other
 * lookaround is still refused.
 */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, test, vi } from "vitest";
import * as z from "zod";
import { countNativeMatches } from "../../test/support/native-matches.ts";
import { linearTimePatterns, MAX_PATTERN_INSTRUCTIONS } from "./linear-patterns.ts";
import { PatternWorkExceeded } from "./pattern-budgets.ts";
import { MAX_LEADING_LOOKAHEADS, splitLeadingLookaheads } from "./pattern-lookaheads.ts";

const engine = await linearTimePatterns();
const metered = engine.metered as NonNullable<typeof engine.metered>;
const linear = (pattern: string, text: string) => metered(() => engine(pattern, "u").test(text));
const native = (pattern: string, text: string) => new RegExp(pattern, "u").test(text);

// Patterns written by hand and by schema libraries (zod 4's hostname and emoji formats, an
// older zod's email), each with texts on both sides of every part.
const REAL: readonly (readonly [string, string, readonly string[]])[] = [
  [
    "a password rule",
    "^(?=.*\\d)(?=.*[A-Z])(?!.*\\s).{8,}$",
    ["Abcdefg1", "abcdefg1", "Abcdefgh", "Abc defg1", "Ab1", ""],
  ],
  [
    "zod's hostname",
    "^(?=.{1,253}\\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\\.?$",
    ["example.com", "example.com.", `${"a.".repeat(130)}io`, "-x", ""],
  ],
  [
    "zod's emoji",
    "^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$",
    ["😀", "😀1", "1", "a😀", "🇫🇷"],
  ],
  [
    "an email with negative lookaheads",
    "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
    ["a.b@x.io", ".a@x.io", "a..b@x.io", "a@x"],
  ],
  ["parentheses in a class", "^(?=[)(\\]]x)", [")x", "(x", "]x", "ax"]],
  ["an escaped parenthesis", "^(?=\\()\\(\\)$", ["()", ")(", "("]],
  ["an alternative inside a lookahead", "^(?=a|bc)[a-c]+$", ["abc", "bcc", "cab", "b"]],
  ["a lookahead and nothing after it", "^(?=a)", ["a", "ba", ""]],
  ["empty lookaheads", "^(?=)(?!)", ["", "a"]],
  ["a named group in a lookahead", "^(?=(?<digit>\\d))\\d+$", ["12", "a1", ""]],
];

describe("leading lookaheads answer as the platform's engine does", () => {
  test("the table is not empty", () => expect(REAL.length).toBeGreaterThan(0));
  test.each(REAL)("%s", (_what, pattern, texts) => {
    expect(splitLeadingLookaheads(pattern)).not.toBeUndefined();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts)
      expect([text, linear(pattern, text)]).toEqual([text, native(pattern, text)]);
  });
});

test("zod 4's string formats all run on the linear-time engine, but duration", () => {
  const formats = {
    email: z.email(),
    uuid: z.uuid(),
    guid: z.guid(),
    datetime: z.iso.datetime({ offset: true, local: true }),
    date: z.iso.date(),
    time: z.iso.time(),
    duration: z.iso.duration(),
    e164: z.e164(),
    ipv4: z.ipv4(),
    ipv6: z.ipv6(),
    cidrv4: z.cidrv4(),
    cidrv6: z.cidrv6(),
    cuid: z.cuid(),
    cuid2: z.cuid2(),
    ulid: z.ulid(),
    base64: z.base64(),
    base64url: z.base64url(),
    emoji: z.emoji(),
    nanoid: z.nanoid(),
    hostname: z.hostname(),
    hex: z.hex(),
    lowercase: z.string().lowercase(),
  };
  const { properties } = z.toJSONSchema(z.object(formats)) as {
    properties: Record<string, { pattern?: string }>;
  };
  const refused: string[] = [];
  let patterns = 0;
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.pattern === undefined) continue;
    patterns += 1;
    try {
      engine(schema.pattern, "u");
    } catch {
      refused.push(name);
    }
  }
  expect(patterns).toBeGreaterThan(15);
  // Its lookaheads sit inside a group, after `^P`: not the leading form.
  expect(refused).toEqual(["duration"]);
});

test("the split names each part, anchored and grouped", () => {
  expect(splitLeadingLookaheads("^(?=.*\\d)(?!.*\\s).{8,}$")).toEqual({
    required: ["^(?:.*\\d)"],
    forbidden: ["^(?:.*\\s)"],
    rest: "^(?:.{8,}$)",
  });
});

// Generated: one to three leading lookaheads of either kind, then a rest, over a small
// alphabet; texts short enough for the platform's engine to answer quickly.
const ATOMS = ["a", "b", ".", "\\d", "[ab]", "[^a]", "(?:a|b)", "$", "\\b"] as const;
const sequence = fc
  .array(
    fc
      .tuple(fc.constantFrom(...ATOMS), fc.constantFrom("", "*", "+", "?", "{1,2}"))
      .map(([atom, quantifier]) => (atom === "$" || atom === "\\b" ? atom : atom + quantifier)),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(""));
const lookahead = fc
  .tuple(fc.constantFrom("(?=", "(?!"), sequence, fc.boolean(), sequence)
  .map(([open, body, alternative, other]) => `${open}${body}${alternative ? `|${other}` : ""})`);
const generated = fc
  .tuple(fc.array(lookahead, { minLength: 1, maxLength: 3 }), sequence)
  .map(([lookaheads, rest]) => `^${lookaheads.join("")}${rest}`);
const text = fc
  .array(fc.constantFrom("a", "b", "1", " ", "\n"), { maxLength: 6 })
  .map((chars) => chars.join(""));

test("generated patterns with leading lookaheads answer as the platform's engine does", () => {
  fc.assert(
    fc.property(generated, text, (source, input) => {
      expect(splitLeadingLookaheads(source)).not.toBeUndefined();
      expect(linear(source, input)).toBe(native(source, input));
    }),
    { numRuns: 2_000 },
  );
  // Thousands of runs: seconds on a loaded machine, where the default 5 s would cut them.
}, 60_000);

describe("any other lookaround is still refused, saying why", () => {
  test.each([
    ["a lookahead after the start", "^a(?=b)"],
    ["a lookahead without ^", "(?=a)b"],
    ["a lookbehind after ^", "^(?<=a)b"],
    ["a lookahead inside a leading lookahead", "^(?=(?=a)a)"],
    ["a lookahead inside a group", "^(?:(?=a)a)"],
  ])("%s", (_what, pattern) => {
    expect(() => engine(pattern, "u")).toThrow(/lookaround cannot run in linear time/);
  });

  test("an alternative beside the lookaheads, saying so", () => {
    expect(() => engine("^(?=a)b|c", "u")).toThrow(
      'pattern "^(?=a)b|c": lookaheads right after a leading ^ are checked only in a pattern without an alternative (|) at its top level',
    );
  });

  test("a backreference into a lookahead's group", () => {
    expect(() => engine("^(?=(a))\\1", "u")).toThrow(/backreference \(\\1\)/);
  });

  test(`more than ${MAX_LEADING_LOOKAHEADS} lookaheads`, () => {
    expect(() => engine(`^${"(?=a)".repeat(MAX_LEADING_LOOKAHEADS)}a`, "u")).not.toThrow();
    expect(() => engine(`^${"(?=a)".repeat(MAX_LEADING_LOOKAHEADS + 1)}a`, "u")).toThrow(
      `more than ${MAX_LEADING_LOOKAHEADS} leading lookaheads, each checked as a pattern of its own`,
    );
  });
});

describe("every part is paid for", () => {
  test("attack: parts each within the instruction bound are refused together past it", () => {
    // `^(?:.{1,1000})` alone is about 2,000 instructions: under the bound; three are over it.
    expect(() => engine("^(?=.{1,1000}).{1,1000}", "u")).not.toThrow();
    expect(() => engine("^(?=.{1,1000})(?=.{1,1000}).{1,1000}", "u")).toThrow(
      new RegExp(
        `compiles to \\d+ instructions \\(its 3 parts together\\), over ${MAX_PATTERN_INSTRUCTIONS}`,
      ),
    );
  });

  test("attack: a match pays for every part's program before the first runs", () => {
    // One part of about 1,000 instructions against 2,000 characters is within the match's
    // work bound; four such parts are not, though each alone would be.
    const text = "a".repeat(2_000);
    expect(linear("^.{0,500}", text)).toBe(true);
    expect(() => linear("^(?=.{0,500})(?=.{0,500})(?=.{0,500}).{0,500}", text)).toThrow(
      PatternWorkExceeded,
    );
  });

  test("attack: the parts' text for RE2 is bounded together", () => {
    // Four properties RE2 has no name for are written out as about 40,000 characters: one
    // part of them is accepted, two parts pass the 65,536 characters allowed in all.
    const four = "\\p{ID_Continue}".repeat(4);
    expect(() => engine(`^${four}`, "u")).not.toThrow();
    expect(() => engine(`^(?=${four})${four}`, "u")).toThrow(
      "its 2 parts together pass 65536 characters",
    );
  });

  test("attack: a lookahead that backtracks for ages on the platform's engine answers at once", () => {
    // Counted, not timed: the platform's engine is never asked to match this pattern.
    const hostile = "^(?=(a+)+$)a";
    const nativeMatches = countNativeMatches(hostile);
    expect(linear(hostile, `${"a".repeat(10_000)}!`)).toBe(false);
    expect(linear(hostile, "a".repeat(10_000))).toBe(true);
    vi.restoreAllMocks();
    expect(nativeMatches.count()).toBe(0);
  });

  test("every part keeps at most 512 bytes of DFA states per instruction between checks", () => {
    // [ab]*a[ab]{12} in both parts: up to 2^13 DFA states each, about 2 MB, over a text that
    // reaches many of them.
    const compile = RE2JS.compile;
    const programs: RE2JS[] = [];
    vi.spyOn(RE2JS, "compile").mockImplementation((source) => {
      const program = compile(source);
      programs.push(program);
      return program;
    });
    const pattern = engine("^(?![ab]*a[ab]{12}$)[ab]*b[ab]{12}$", "u");
    vi.restoreAllMocks();
    let seed = 11;
    let text = "";
    for (let index = 0; index < 30_000; index += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      text += seed % 3 === 0 ? "a" : "b";
    }
    // Counts the cuts of any RE2JS DFA cache (the class is not exported: `dfa` makes one).
    const warm = RE2JS.compile("a") as unknown as { re2Input: { dfa: object } };
    const dfaPrototype = Object.getPrototypeOf(warm.re2Input.dfa) as { clearCache: () => void };
    const clear = dfaPrototype.clearCache;
    let cuts = 0;
    dfaPrototype.clearCache = function counted(this: unknown) {
      cuts += 1;
      return clear.call(this);
    };
    try {
      metered(() => pattern.test(text));
    } catch (thrown) {
      // On a loaded machine the check's 50 ms may run out first: the states made until then
      // are bounded all the same, and they are what is measured (the cut below shows the first
      // part made more than it may keep).
      if (!(thrown instanceof PatternWorkExceeded)) throw thrown;
    } finally {
      dfaPrototype.clearCache = clear;
    }
    expect(cuts).toBeGreaterThan(0);
    expect(programs).toHaveLength(2);
    for (const program of programs) {
      const dfa = (
        program as unknown as { re2Input: { lazyDFA: { maxMem: number; memBudget: number } } }
      ).re2Input.lazyDFA;
      expect(dfa.maxMem - dfa.memBudget).toBeLessThanOrEqual(
        Math.max(4_096, program.programSize() * 512),
      );
    }
  });
});
