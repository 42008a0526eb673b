/**
 * Which spill references a marker names: the refused classes of characters,
 * one table per class (controls Cc, separators Zl and Zp, format characters
 * Cf with every Bidi_Control character, opening and closing punctuation Ps and
 * Pe), and what "blank" means (nothing but white space and default-ignorable
 * characters). A refused reference is reported once and the marker names no
 * reference; the result stays the same linked success.
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  type OutputSpillInfo,
  ToolRegistry,
} from "../../src/index.ts";

const call: CourseToolCall = { type: "toolCall", id: "call-7", name: "emit", arguments: {} };
const LONG = "x".repeat(30_000);

/** Runs one cut call whose hook answers `reference`; what the marker named and what was reported. */
async function named(reference: string) {
  const errors: Array<[unknown, OutputSpillInfo]> = [];
  const registry = new ToolRegistry([
    defineTool({
      name: "emit",
      description: "Returns a long text.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => LONG,
    }),
  ]);
  const result = await executeToolCall(registry, call, new AbortController().signal, {
    outputBudget: { maxCharacters: 2_000 },
    spill: () => reference,
    onSpillError: (error, info) => {
      errors.push([error, info]);
    },
  });
  expect(result).toMatchObject({ toolCallId: "call-7", isError: false });
  const named = result.content.endsWith(`; full output: ${reference}]`);
  const messages = errors.map(([error]) => (error as Error).message);
  return { named, messages };
}

const hex = (point: number) => `U+${point.toString(16).toUpperCase().padStart(4, "0")}`;

/** Every code point of a class, each alone between letters, refused with `message`. */
function refusedTable(points: readonly number[], message: string) {
  return points.map((point) => [hex(point), `a${String.fromCodePoint(point)}b`, message] as const);
}

const CONTROL = "the spill reference contains a control character";
const SEPARATOR = "the spill reference contains a line or paragraph separator";
const FORMAT =
  "the spill reference contains a format character (a direction mark or control, a zero-width or other invisible character)";
const BRACKET = "the spill reference contains a bracket";
const BLANK = "the spill reference is blank";

describe("controls (Cc: U+0000-001F, U+007F-009F)", () => {
  test.each(refusedTable([0x00, 0x09, 0x0a, 0x0d, 0x1f, 0x7f, 0x85, 0x9f], CONTROL))(
    "%s is refused",
    async (_point, reference, message) => {
      expect(await named(reference)).toEqual({ named: false, messages: [message] });
    },
  );
});

describe("line and paragraph separators (Zl, Zp)", () => {
  test.each(refusedTable([0x2028, 0x2029], SEPARATOR))(
    "%s is refused",
    async (_p, ref, message) => {
      expect(await named(ref)).toEqual({ named: false, messages: [message] });
    },
  );
});

describe("every Bidi_Control character, all format characters (Cf)", () => {
  // The twelve Bidi_Control characters, all of them Cf.
  const bidiControl = [
    0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
  ];
  test.each(refusedTable(bidiControl, FORMAT))(
    "Bidi_Control %s is refused",
    async (_p, ref, message) => {
      expect(await named(ref)).toEqual({ named: false, messages: [message] });
    },
  );

  // Other format characters: a soft hyphen, the zero-width ones, the word joiner and the
  // invisible operators, a deprecated format control, the byte-order mark, a tag.
  const otherFormat = [0x00ad, 0x200b, 0x200c, 0x200d, 0x2060, 0x2064, 0x206a, 0xfeff, 0xe0001];
  test.each(refusedTable(otherFormat, FORMAT))("%s is refused", async (_p, ref, message) => {
    expect(await named(ref)).toEqual({ named: false, messages: [message] });
  });

  test("a reference made only of zero-width spaces is refused as holding format characters", async () => {
    expect(await named("\u200b\u200b")).toEqual({ named: false, messages: [FORMAT] });
  });
});

describe("opening and closing punctuation (Ps, Pe): every bracket the marker could be confused by", () => {
  // ASCII, full-width, small and CJK brackets, parentheses and braces, and a low quotation mark (Ps).
  const brackets = [
    0x5b, 0x5d, 0x28, 0x29, 0x7b, 0x7d, 0xff3b, 0xff3d, 0xff08, 0xff09, 0xfe5d, 0xfe5e, 0x3010,
    0x3011, 0x301a, 0x301b, 0x2045, 0x2046, 0x27e6, 0x27e7, 0x201a,
  ];
  test.each(refusedTable(brackets, BRACKET))("%s is refused", async (_p, ref, message) => {
    expect(await named(ref)).toEqual({ named: false, messages: [message] });
  });
});

describe("surrogates: pairs are characters, a half alone is refused", () => {
  test.each([
    ["the first pair (U+10000)", "a\ud800\udc00b", true],
    ["a pair with the last low half (U+103FF)", "a\ud800\udfffb", true],
    ["the last pair (U+10FFFF)", "a\udbff\udfffb", true],
    ["a high half before a character past the low halves", "a\ud800\ue000", false],
    ["a high half before a letter", "a\udbffx", false],
    ["a high half at the end", "ab\ud800", false],
    ["the first low half alone", "a\udc00b", false],
    ["the last low half alone", "a\udfffb", false],
  ])("%s: named %s", async (_label, reference, accepted) => {
    const seen = await named(reference);
    expect(seen.named).toBe(accepted);
    expect(seen.messages).toEqual(accepted ? [] : ["the spill reference has a lone surrogate"]);
  });
});

describe("blank: nothing but white space, default-ignorable characters, combining marks and the braille blank", () => {
  test.each([
    ["spaces", "   "],
    ["no-break spaces (U+00A0)", "\u00a0\u00a0"],
    ["ideographic spaces (U+3000)", "\u3000"],
    ["an ogham space mark (U+1680)", "\u1680"],
    ["the spaces of U+2000-200A", "\u2000\u2005\u200a"],
    ["narrow and medium spaces (U+202F, U+205F)", "\u202f\u205f"],
    ["a Hangul filler (U+3164)", "\u3164"],
    ["a combining grapheme joiner (U+034F)", "\u034f"],
    ["a variation selector (U+FE0F)", "\ufe0f"],
    ["white space and a variation selector", " \ufe0f "],
    ["braille pattern blanks (U+2800)", "\u2800\u2800"],
    ["a lone combining acute accent (U+0301)", "\u0301"],
    ["an enclosing circle (U+20DD) after a space", " \u20dd"],
    ["a spacing combining mark (U+0903)", "\u0903"],
  ])("%s is blank", async (_label, reference) => {
    expect(await named(reference)).toEqual({ named: false, messages: [BLANK] });
  });
});

describe("what is named", () => {
  test.each([
    ["a path", "/var/spill/3f9c.txt"],
    ["a path with spaces inside", "spill files/out put.txt"],
    ["white space around a name", " out.txt "],
    ["a name after default-ignorable characters", "\u3164x"],
    ["letters of other scripts and a pair", "出力-données-😀.txt"],
    ["punctuation that is not a bracket", "a-b_c.d:e,f;g!h?i'j\"k<l>m"],
    ["a superscript next to the format block", "a\u2070b"],
    ["a letter with a combining accent", "e\u0301.txt"],
    ["a braille letter after a braille blank", "\u2800\u2801"],
  ])("%s", async (_label, reference) => {
    expect(await named(reference)).toEqual({ named: true, messages: [] });
  });

  test("the first refused character decides the reason: a bracket before a control", async () => {
    expect(await named("[a\u0000")).toEqual({ named: false, messages: [BRACKET] });
    expect(await named("a\u0000[")).toEqual({ named: false, messages: [CONTROL] });
  });
});
