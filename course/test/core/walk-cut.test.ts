/**
 * A budget's cut ends the walk where it happens: the walk returns through its
 * frames instead of unwinding by exception, so every step that can run a
 * budget out must stop the walk at once. Each attack puts more output after
 * the cut (later keys, later slots, closing brackets) and checks that none of
 * it was written, nor anything of it read.
 */
import { describe, expect, test, vi } from "vitest";
import { COURSE_TOOL_TRUNCATION_MARKER, serializeToolOutput } from "../../src/index.ts";

const chain = (depth: number): object => {
  let value: object = { end: true };
  for (let level = 1; level < depth; level += 1) value = { next: value };
  return value;
};

/** How many times the walk calls the live `Object.hasOwn` (once per key it enumerates). */
function ownKeyChecks(run: () => unknown): number {
  const spy = vi.spyOn(Object, "hasOwn");
  try {
    run();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe("nothing is written after a cut", () => {
  test.each([
    ["depth", { a: chain(40), b: "after" }, `{"a":${'{"next":'.repeat(31)}`],
    ["depth inside an array", [chain(40), "after", 2], `[${'{"next":'.repeat(31)}`],
    ["values", { a: Array.from({ length: 200 }, (_, index) => index), b: "after" }, '{"a":[0,1,'],
    ["entries", [Array.from({ length: 300 }, () => 0), "after"], "[[0,0,"],
  ])("a %s cut keeps the text up to the cut, then only the marker", (_label, value, start) => {
    const result = serializeToolOutput(value);
    expect(result.ok && result.truncated).toBe(true);
    if (!result.ok) return;
    expect(result.content.startsWith(start)).toBe(true);
    expect(result.content.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
    const kept = result.content.slice(0, -COURSE_TOOL_TRUNCATION_MARKER.length);
    // No closing bracket, no later key or slot: the text stops where the budget ran out.
    expect(kept).not.toContain("after");
    expect(kept.endsWith("}") || kept.endsWith("]")).toBe(false);
  });

  test("a string cut by the string budget is not closed, and the keys after it are not walked", () => {
    const value = { a: "x".repeat(5000), b: { y: 1, z: 2 } };
    const options = { outputBudget: { maxCharacters: 50_000, maxStringCharacters: 100 } };
    const cut = serializeToolOutput(value, options);
    expect(cut.ok && cut.truncated).toBe(true);
    if (!cut.ok) return;
    // The key "a" takes one unit of the string budget, the string the other 99.
    expect(cut.content).toBe(
      `{"a":"${"x".repeat(99)}\n[Tool output truncated: string characters limit 100 reached]`,
    );
    // The root's two keys are checked; b's own two would be too if the walk went on.
    expect(ownKeyChecks(() => serializeToolOutput(value, options))).toBe(2);
  });

  const stringCut = "\n[Tool output truncated: string characters limit 4096 reached]";
  test.each([
    [
      // "a" and its 3,000 code points, then "b": 4,096 - 3,002 = 1,094 are left for b's string.
      "plain keys and strings written whole still spend it, so a later string is cut",
      { a: "x".repeat(3000), b: "y".repeat(2000) },
      `{"a":"${"x".repeat(3000)}","b":"${"y".repeat(1094)}${stringCut}`,
    ],
    [
      // The slow path: the string's 3,000 code points are spent, not its 10,500 written characters.
      "strings that need escapes spend it too, so a later string is cut",
      { a: "x\n".repeat(1500), b: "y".repeat(2000) },
      `{"a":"${"x\\u000a".repeat(1500)}","b":"${"y".repeat(1094)}${stringCut}`,
    ],
    [
      // "a" and its string spend 4,091 code points: 5 are left for the ten-character key.
      "a key longer than what is left of it is cut inside it, not written whole",
      { a: "x".repeat(4090), bbbbbbbbbb: 1 },
      `{"a":"${"x".repeat(4090)}","bbbbb${stringCut}`,
    ],
  ])("the string budget (4,096): %s", (_label, value, content) => {
    const options = { outputBudget: { maxCharacters: 50_000, maxStringCharacters: 4096 } };
    expect(serializeToolOutput(value, options)).toEqual({ ok: true, content, truncated: true });
  });

  test("a cut by depth in an object's first key leaves the later keys' objects unwalked", () => {
    const withObject = { a: chain(40), b: { y: 1, z: 2 } };
    const withNumber = { a: chain(40), b: 0 };
    expect(serializeToolOutput(withObject)).toEqual(serializeToolOutput(withNumber));
    expect(ownKeyChecks(() => serializeToolOutput(withObject))).toBe(
      ownKeyChecks(() => serializeToolOutput(withNumber)),
    );
  });

  test.each([1, 2, 5, 31, 32, 33])(
    "a chain %i deep under the course's depth budget of 32: whole up to 32, cut beyond",
    (depth) => {
      const result = serializeToolOutput(chain(depth));
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.truncated).toBe(depth > 32);
      const opened = Math.min(depth, 32);
      expect(result.content.startsWith('{"next":'.repeat(opened - (depth > 32 ? 0 : 1)))).toBe(
        true,
      );
      if (depth > 32) {
        expect(result.content).toBe(`${'{"next":'.repeat(32)}${COURSE_TOOL_TRUNCATION_MARKER}`);
      }
    },
  );
});

describe("a plain key or string is written in one piece, and the cap still cuts at its code point", () => {
  /** Keys and strings of the sizes that straddle the course's cap, for every offset of the cap. */
  const shifts = Array.from({ length: 24 }, (_, index) => index);
  const KEPT = 4096 - COURSE_TOOL_TRUNCATION_MARKER.length;

  test.each(shifts)(
    "padding %i: the cut text is the whole text's first 4072 code points, then the marker",
    (shift) => {
      expect(shifts.length).toBeGreaterThan(0);
      // The cap falls inside a later key, its colon, a comma or a string, depending on the shift.
      const value = {
        a: "p".repeat(4040 + shift),
        bbbbbbbb: "qqqqqqqqqq",
        c: "rrrrrrrrrr",
        dddddddddd: 1,
      };
      const whole = JSON.stringify(value);
      expect(whole.length).toBeGreaterThan(KEPT + 24);
      const result = serializeToolOutput(value);
      expect(result).toEqual({
        ok: true,
        content: whole.slice(0, KEPT) + COURSE_TOOL_TRUNCATION_MARKER,
        truncated: true,
      });
    },
  );

  test.each(shifts)(
    "a configured cap of 1024 + %i keeps the whole text's head before its marker",
    (shift) => {
      const cap = 1024 + shift;
      const value = {
        a: "p".repeat(990),
        bbbbbbbb: "qqqqqqqqqq",
        c: ["x", "yyyyyyyy"],
        d: { e: 1 },
      };
      const whole = JSON.stringify(value);
      const result = serializeToolOutput(value, { outputBudget: { maxCharacters: cap } });
      expect(result.ok && result.truncated).toBe(true);
      if (!result.ok) return;
      const markerAt = result.content.indexOf("\n[Tool output truncated: characters limit");
      expect(markerAt).toBeGreaterThan(0);
      const marker = result.content.slice(markerAt);
      expect(result.content.length).toBe(cap);
      expect(result.content.slice(0, markerAt)).toBe(whole.slice(0, cap - marker.length));
    },
  );

  /** Builds an output whose whole JSON text is `length` code units long, its last piece of the given kind. */
  const shapes: ReadonlyArray<readonly [string, (length: number) => object]> = [
    ["a string value", (length) => ({ a: "p".repeat(length - 8) })],
    ["a key after a comma", (length) => ({ a: "p".repeat(length - 14), b: 1 })],
    ["a first key", (length) => ({ ["k".repeat(length - 6)]: 1 })],
  ];
  const cases = shapes.flatMap(([label, build]) =>
    [4095, 4096, 4097].map((length) => [label, length, build] as const),
  );

  test.each(cases)(
    "%s: whole text of %i code units is cut only past 4096",
    (_label, length, build) => {
      expect(cases.length).toBeGreaterThan(0);
      const value = build(length);
      const whole = JSON.stringify(value);
      expect(whole.length).toBe(length);
      const result = serializeToolOutput(value);
      expect(result).toEqual(
        length <= 4096
          ? { ok: true, content: whole, truncated: false }
          : {
              ok: true,
              content: whole.slice(0, KEPT) + COURSE_TOOL_TRUNCATION_MARKER,
              truncated: true,
            },
      );
    },
  );
});
