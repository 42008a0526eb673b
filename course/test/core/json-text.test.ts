/**
 * JSON string text one code point at a time: escapes, measured starts and
 * ends of a text, resumed measures, and code-point counts.
 */
import { describe, expect, test } from "vitest";
import {
  codePointCount,
  escapeRange,
  firstCodePoints,
  measureHead,
  measureTail,
} from "../../src/json-text.ts";

/** The boundary's escape of a whole string, spelled out independently. */
function reference(text: string): string {
  let out = "";
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += text.slice(index, index + 2);
      index += 1;
    } else if (unit === 0x22) out += '\\"';
    else if (unit === 0x5c) out += "\\\\";
    else if (unit < 0x20 || (unit >= 0xd800 && unit <= 0xdfff)) {
      out += `\\u${unit.toString(16).padStart(4, "0")}`;
    } else out += text[index];
  }
  return out;
}

const samples: ReadonlyArray<readonly [string, string]> = [
  ["empty", ""],
  ["plain", "plain text"],
  ["quotes and backslashes", 'say "hi" \\ bye'],
  ["controls", "a\nb\tc\u0000d\u001f"],
  ["a pair", "x😀y"],
  ["lone surrogates", "\ud800a\udc00b\udbff"],
  ["a low surrogate first", "\udc00😀"],
  ["a high surrogate last", "😀\ud83d"],
  ["reversed pair", "\ude00\ud83d"],
];

describe("escapeRange", () => {
  test.each(samples)("%s: the whole text as the boundary escapes it", (_label, text) => {
    expect(samples.length).toBeGreaterThan(0);
    expect(escapeRange(text, 0, text.length)).toBe(reference(text));
  });

  test("a range in the middle escapes only that range", () => {
    const text = 'ab"cd\nef';
    expect(escapeRange(text, 2, 6)).toBe('\\"cd\\u000a');
  });
});

describe("measureHead and measureTail", () => {
  test.each(samples)(
    "%s: measured whole, they span it all and write its JSON length",
    (_label, text) => {
      const escaped = reference(text);
      const head = measureHead(text, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      const tail = measureTail(text, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 0);
      expect(head).toEqual({
        units: text.length,
        written: [...escaped].length,
        taken: [...text].length,
      });
      expect(tail).toEqual(head);
    },
  );

  test("a head never splits a pair or an escape, and stops at the room", () => {
    expect(measureHead("😀😀", 1, 10)).toEqual({ units: 2, written: 1, taken: 1 });
    expect(measureHead('"x', 1, 10)).toEqual({ units: 0, written: 0, taken: 0 });
    expect(measureHead("\n", 5, 10)).toEqual({ units: 0, written: 0, taken: 0 });
    expect(measureHead("\n", 6, 10)).toEqual({ units: 1, written: 6, taken: 1 });
    expect(measureHead("abc", 10, 2)).toEqual({ units: 2, written: 2, taken: 2 });
  });

  test("a tail never splits a pair, and never reaches below its floor", () => {
    expect(measureTail("a😀", 1, 10, 0)).toEqual({ units: 2, written: 1, taken: 1 });
    // With the floor between the halves of a pair, the low half alone is a lone surrogate.
    expect(measureTail("😀", 10, 10, 1)).toEqual({ units: 1, written: 6, taken: 1 });
    expect(measureTail("abcdef", 10, 10, 4)).toEqual({ units: 2, written: 2, taken: 2 });
    expect(measureTail("abc", 10, 2, 0)).toEqual({ units: 2, written: 2, taken: 2 });
    expect(measureTail("x\\", 1, 10, 0)).toEqual({ units: 0, written: 0, taken: 0 });
  });

  test.each([10, 50, 101])(
    "a measure resumed into more room equals one measured there at once (%i)",
    (room) => {
      const text = 'a"😀\n'.repeat(60);
      const narrow = measureHead(text, room, 1_000);
      expect(measureHead(text, room + 37, 1_000, narrow)).toEqual(
        measureHead(text, room + 37, 1_000),
      );
      const narrowTail = measureTail(text, room, 1_000, 0);
      expect(measureTail(text, room + 37, 1_000, 0, narrowTail)).toEqual(
        measureTail(text, room + 37, 1_000, 0),
      );
    },
  );
});

describe("code points", () => {
  test.each([
    ["", 0],
    ["abc", 3],
    ["😀😀", 2],
    ["\ud800\ud800", 2],
    ["\udc00\ud800", 2],
    ["a😀\ud83d", 3],
  ])("codePointCount(%j) is %i", (text, count) => {
    expect(codePointCount(text)).toBe(count);
    expect([...text].length).toBe(count);
  });

  test.each([
    ["abcdef", 3, "abc"],
    ["😀😀😀", 2, "😀😀"],
    ["ab", 5, "ab"],
    ["a😀b", 0, ""],
  ])("firstCodePoints(%j, %i) is %j", (text, points, prefix) => {
    expect(firstCodePoints(text, points)).toBe(prefix);
  });
});
