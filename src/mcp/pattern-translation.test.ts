/**
 * ECMAScript patterns on RE2: the rewrite keeps ECMAScript's meaning (a
 * table of the places where the dialects differ, then generated patterns
 * and texts against the platform's own engine), and refuses what RE2
 * cannot run.
 */
import fc from "fast-check";
import { describe, expect, test, vi } from "vitest";
import { countNativeMatches } from "../../test/support/native-matches.ts";
import { WHITE_SPACE_CODE_POINTS } from "./code-point-ranges.ts";
import { linearTimePatterns, MAX_PATTERN_INSTRUCTIONS } from "./linear-patterns.ts";
import { toRe2Syntax } from "./pattern-translation.ts";
import { propertyRanges } from "./unicode-properties.ts";

const engine = await linearTimePatterns();
// Each comparison a check of its own: thousands of them run in one synchronous property run.
const metered = engine.metered as NonNullable<typeof engine.metered>;
const linear = (pattern: string, text: string) => metered(() => engine(pattern, "u").test(text));
const native = (pattern: string, text: string) => new RegExp(pattern, "u").test(text);

test("the white space listed is exactly what ECMAScript's \\s matches", () => {
  const matched: number[] = [];
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    if (/^\s$/u.test(String.fromCodePoint(codePoint))) matched.push(codePoint);
  }
  expect(matched.length).toBeGreaterThan(0);
  expect([...WHITE_SPACE_CODE_POINTS]).toEqual(matched);
});

// Each row is a place where RE2 reads the same text another way, or an escape it spells otherwise.
const DIFFERENCES: readonly (readonly [string, string])[] = [
  ["^.$", "\r"],
  ["^.$", "\u2028"],
  ["^.$", "😀"],
  ["^\\s$", "\u00a0"],
  ["^\\s$", "\ufeff"],
  ["^\\S+$", "a\u3000b"],
  ["^[\\s]$", "\u2003"],
  ["^[a\\S]$", "\u00a0"],
  ["^[a\\S]$", "b"],
  ["^[\\S]$", " "],
  ["^[^\\S]$", "\u1680"],
  ["^[^\\S\\t]$", "\t"],
  ["^[^\\S\\t]$", " "],
  ["^[^a\\S]$", "\v"],
  ["^[]$", "]"],
  ["^[^]$", "\n"],
  ["^[\\b]$", "\b"],
  ["\\bword\\b", "a word."],
  ["^\\0$", "\0"],
  ["^\\cJ$", "\n"],
  ["^\\u0041\\u{1F600}$", "A😀"],
  ["^\\uD83D\\uDE00$", "😀"],
  ["^[\\u0041-\\u005A]+$", "AZ"],
  ["^\\x41$", "A"],
  ["^[[:]+$", "[:"],
  ["^(?<year>\\d{4})-\\d{2}$", "2026-12"],
  ["^(?<año>\\d{4})(?<$id>-)$", "2026-"],
  ["^[\\S^a]$", " "],
  ["^[\\S^a]+$", "two words"],
  ["^[\\S^\\D\\b~]$", " "],
  ["^[\\S^](x[y])$", "axy"],
  ["^[\\S^]$", "^"],
  ["^[^^a]$", "^"],
  ["^\\p{Lu}\\p{Script=Greek}$", "Aα"],
  ["^\\P{L}$", "1"],
  // Properties RE2 has no name for, run as the code points the platform's engine matches.
  ["^\\p{Letter}+\\p{digit}$", "Ωa1"],
  ["^\\p{sc=Latn}+$", "Latin"],
  ["^\\p{Script_Extensions=Greek}$", "\u0342"],
  ["^\\p{ID_Start}\\p{ID_Continue}*$", "a\u0300"],
  ["^\\P{Letter}$", "\ud800"],
  ["^[\\P{Letter}a]+$", "a1!"],
  ["^[^\\p{General_Category=Decimal_Number}x]$", "5"],
  ["^\\p{Lowercase_Letter}$", "é"],
  ["^a{2,3}?$", "aaa"],
  ["^(?:ab|cd)+$", "abcdab"],
  ["^\\/\\.\\*[\\-]$", "/.*-"],
];

describe("the dialects' differences keep ECMAScript's meaning", () => {
  test("the table is not empty", () => expect(DIFFERENCES.length).toBeGreaterThan(0));
  test.each(DIFFERENCES)("%j against %j", (pattern, text) => {
    expect(linear(pattern, text)).toBe(native(pattern, text));
    // The same pattern against a longer text too, so a row is checked on two texts.
    expect(linear(pattern, `${text}\u0000~`)).toBe(native(pattern, `${text}\u0000~`));
  });
});

describe("what a linear-time engine cannot run is refused, saying why", () => {
  test.each([
    ["lookahead", "a(?=a)", /lookaround cannot run in linear time/],
    ["negative lookbehind", "(?<!a)b", /lookaround cannot run in linear time/],
    ["a backreference", "(a)\\1", /backreference \(\\1\) cannot run in linear time/],
    ["a named backreference", "(?<x>a)\\k<x>", /backreference \(\\k<name>\)/],
    ["a repeat count over 1,000", "a{1001}", /has no linear-time form: .*invalid repeat count/],
    [
      "a program over the instruction budget",
      ".{1,1000}.{1,1000}.{1,1000}",
      new RegExp(`compiles to \\d+ instructions, over ${MAX_PATTERN_INSTRUCTIONS}`),
    ],
    ["not ECMAScript", "[[:alpha:]]", /Invalid regular expression/],
    [
      "Unicode properties written out past 65,536 characters",
      `[${"\\p{ID_Continue}".repeat(100)}]`,
      /written out for RE2 \(.*\), it passes 65536 characters$/,
    ],
  ])("%s", (_what, pattern, reason) => {
    expect(() => engine(pattern, "u")).toThrow(reason);
  });

  // Node.js 20 refuses modifiers as syntax before any rewrite; newer engines accept them, so
  // the rewrite refuses them itself: RE2 would read `(?s:.)` or `(?m:$)` with other terminators.
  test.each(["(?i:a)", "(?m:^a$)", "(?s:.)", "(?-i:a)", "(?ims-:a)"])(
    "inline modifiers %j are refused by the rewrite itself",
    (pattern) => {
      const platform = { inClass: () => false, re2Knows: () => true, propertyRanges: () => [] };
      expect(() => toRe2Syntax(pattern, platform)).toThrow(
        "inline modifiers (?…) are not supported",
      );
    },
  );

  // A class of 200 properties RE2 has no name for, each 2,000 ranges (about 40,000 characters):
  // written out whole it is 8,000,000 characters; the rewrite stops once the text passes the cap.
  test.each([
    ["in one class", `[${"\\p{L}".repeat(200)}]`],
    ["one after another", "\\p{L}".repeat(200)],
  ])("attack: properties %s stop being written out past the limit", (_where, pattern) => {
    let lookUps = 0;
    const ranges = Array.from({ length: 2_000 }, (_, index): [number, number] => [
      0x10000 + index * 4,
      0x10001 + index * 4,
    ]);
    const platform = {
      inClass: () => false,
      re2Knows: () => false,
      propertyRanges: () => {
        lookUps += 1;
        return ranges;
      },
    };
    expect(toRe2Syntax("\\p{L}", platform).length).toBeGreaterThan(30_000);
    lookUps = 0;
    expect(() => toRe2Syntax(pattern, platform, 65_536)).toThrow(
      "written out for RE2 (its Unicode properties and classes as ranges), it passes 65536 characters",
    );
    expect(lookUps).toBeLessThanOrEqual(3);
  });

  test("the pattern in a refusal is quoted and cut", () => {
    expect(() => engine(`(?=${"a".repeat(4_000)})`, "u")).toThrow(/^pattern "\(\?=a{60}…": /);
  });

  test("another flag than u is refused", () => {
    expect(() => engine("a", "")).toThrow('patterns are read with the u flag only, not ""');
  });
});

test.each([
  "\\p{Letter}",
  "\\p{sc=Latn}",
  "\\p{Script_Extensions=Greek}",
  "\\p{ID_Start}",
  "\\p{Any}",
  "\\p{Surrogate}",
])("%s: the code points listed are exactly those the platform's engine matches", (property) => {
  // Asked one code point at a time (lone surrogates included), gathered as ranges.
  const single = new RegExp(`^${property}$`, "u");
  const expected: [number, number][] = [];
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
    if (!single.test(String.fromCodePoint(codePoint))) continue;
    const last = expected[expected.length - 1];
    if (last !== undefined && last[1] === codePoint - 1) last[1] = codePoint;
    else expected.push([codePoint, codePoint]);
  }
  expect(expected.length).toBeGreaterThan(0);
  expect(propertyRanges(property)).toEqual(expected);
});

test("two patterns compiled by one engine keep two keys (Ajv caches by toString)", () => {
  expect(String(engine("^a$", "u"))).not.toBe(String(engine("^b$", "u")));
});

test("a pattern that backtracks for ages on the platform's engine answers at once", () => {
  // 10,000 characters: the platform's engine would try 2^10,000 ways. Counted, not timed: the
  // platform's engine is never asked to match these patterns.
  const native = countNativeMatches("^(a+)+$", "^(a|a)*$");
  const hostile = `${"a".repeat(10_000)}!`;
  expect(linear("^(a+)+$", hostile)).toBe(false);
  expect(linear("^(a|a)*$", hostile)).toBe(false);
  expect(linear("^(a+)+$", "a".repeat(10_000))).toBe(true);
  vi.restoreAllMocks();
  expect(native.count()).toBe(0);
});

// Generated patterns over a small alphabet that reaches every rewrite: the platform's engine
// answers first, on texts short enough for any pattern here to stay quick on it.
const ATOMS = [
  "a",
  "b",
  ".",
  "\\s",
  "\\S",
  "\\d",
  "\\w",
  "\\W",
  "\\b",
  "[ab]",
  "[^a]",
  "[\\s]",
  "[a\\S]",
  "[\\S^a]",
  "\\p{Letter}",
  "[^\\p{digit}a]",
  "[^\\S]",
  "[^b\\S]",
  "[]",
  "[^]",
  "\\u00a0",
  "\\x20",
  "^",
  "$",
] as const;
const atom = fc.constantFrom(...ATOMS);
const quantified = fc
  .tuple(atom, fc.constantFrom("", "*", "+", "?", "{1,2}", "*?"))
  .map(([part, quantifier]) =>
    part === "^" || part === "$" || part === "\\b" ? part : part + quantifier,
  );
const sequence = fc
  .array(quantified, { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(""));
const pattern = fc
  .array(sequence, { minLength: 1, maxLength: 3 })
  .chain((branches) =>
    fc.constantFrom(branches.join("|"), `(?:${branches.join("|")})+`, `^(${branches.join("|")})$`),
  );
const text = fc
  .array(
    fc.constantFrom(
      "a",
      "b",
      " ",
      "\u00a0",
      "\n",
      "\r",
      "\u2028",
      "\t",
      "1",
      "_",
      "😀",
      "-",
      "^",
      "Ω",
    ),
    {
      maxLength: 8,
    },
  )
  .map((chars) => chars.join(""));

test("generated patterns answer as the platform's engine does", () => {
  fc.assert(
    fc.property(pattern, text, (source, input) => {
      expect(linear(source, input)).toBe(native(source, input));
    }),
    { numRuns: 3_000 },
  );
  // Thousands of runs: seconds on a loaded machine, where the default 5 s would cut them.
}, 60_000);

describe("a getter a Tool planted at Array.prototype[-1]", () => {
  test("is never asked while a class is rewritten, and the class keeps every code point", () => {
    let reads = 0;
    Object.defineProperty(Array.prototype, "-1", {
      configurable: true,
      get() {
        reads += 1;
        // A range that would swallow the next one (the tab, 9, after 0-8).
        return [0, 8];
      },
    });
    let matches: boolean[];
    try {
      const source = `^[^\\S\\n]+$`;
      matches = ["\t", " ", "\u00a0"].map((text) => linear(source, text));
    } finally {
      delete (Array.prototype as unknown as Record<string, unknown>)["-1"];
    }
    expect(reads).toBe(0);
    expect(matches).toEqual([true, true, true]);
  });
});
