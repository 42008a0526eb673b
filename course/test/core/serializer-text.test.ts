/**
 * Pins the exact text the bounded serializer writes: every escape (quotes,
 * backslashes, control characters, lone surrogates at both ends of their
 * ranges), the truncation marker and the exact code-point length of a
 * truncated content for narrow, wide and astral characters, and an object's
 * keys sorted at every size around the walk's key list edges. Also pins two
 * hostile cases: a key planted on Array.prototype never takes part in key
 * sorting, and an unexpected error inside the walk (a stack overflow)
 * propagates instead of passing for a truncation. The module-level constants
 * (marker, cap, hex digits) are checked once more on a freshly loaded copy.
 * `courseContent`, what a call with nothing configured writes its output
 * with, answers exactly what `serializeToolOutput` does, without its wrapper.
 */
import { describe, expect, test, vi } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type SerializedOutput,
  serializeToolOutput,
} from "../../src/index.ts";
import { courseContent } from "../../src/serializer.ts";

const codePoints = (text: string): number => [...text].length;

describe("escaping in the bounded serializer", () => {
  const cases: [string, string, string][] = [
    ["a double quote", 'say "hi"', '"say \\"hi\\""'],
    ["a backslash", "C:\\dir", '"C:\\\\dir"'],
    ["NUL", "\u0000", '"\\u0000"'],
    ["a control character with a hex letter", "\u001f", '"\\u001f"'],
    ["a newline", "a\nb", '"a\\u000ab"'],
    ["a space (the first character written as it is)", " ", '" "'],
    ["a lone high surrogate followed by a letter", "\ud800x", '"\\ud800x"'],
    ["a lone high surrogate at the end", "x\udbff", '"x\\udbff"'],
    ["a high surrogate followed by another high one", "\ud800\ud800", '"\\ud800\\ud800"'],
    [
      "a high surrogate followed by a character above the surrogates",
      "\ud800\ue000",
      '"\\ud800\ue000"',
    ],
    ["a high surrogate followed by the last BMP character", "\udbff\uffff", '"\\udbff\uffff"'],
    ["a lone low surrogate, first of its range", "\udc00", '"\\udc00"'],
    ["a lone low surrogate, last of its range", "\udfff", '"\\udfff"'],
    ["a lone surrogate with hex letters", "\udabc", '"\\udabc"'],
    ["a valid surrogate pair, written as it is", "\ud83d\ude00", '"\ud83d\ude00"'],
    ["the last BMP character, written as it is", "\uffff", '"\uffff"'],
  ];

  test("the escaping table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("writes %s exactly", (_name, input, content) => {
    expect(serializeToolOutput(input)).toEqual({ ok: true, content, truncated: false });
  });

  test.each(cases)("writes %s exactly as an object key too", (_name, input, content) => {
    expect(serializeToolOutput({ [input]: 1 })).toEqual({
      ok: true,
      content: `{${content}:1}`,
      truncated: false,
    });
  });

  test("negative zero is written as 0", () => {
    expect(serializeToolOutput([-0, 0])).toEqual({ ok: true, content: "[0,0]", truncated: false });
  });
});

describe("an object's keys in the bounded serializer", () => {
  // The walk keeps an object's keys in four slots, then grows the list; past 32 keys it
  // sorts them another way. Every size around both edges writes the keys sorted, each once.
  const sizes = [0, 1, 3, 4, 5, 8, 32, 33, 60];

  test("the list of sizes is not empty", () => {
    expect(sizes.length).toBeGreaterThan(0);
  });

  test.each(sizes)("an object with %i keys is written with its keys sorted", (count) => {
    const keys = Array.from({ length: count }, (_, index) => `k${(index * 37) % 101}`);
    const value = Object.fromEntries(keys.map((key, index) => [key, index]));
    const sorted = Object.fromEntries([...keys].sort().map((key) => [key, value[key]]));
    expect(serializeToolOutput(value)).toEqual({
      ok: true,
      content: JSON.stringify(sorted),
      truncated: false,
    });
  });
});

describe("the truncation marker and the exact cap", () => {
  test("the marker is the documented text", () => {
    expect(COURSE_TOOL_TRUNCATION_MARKER).toBe("\n[Tool output truncated]");
    expect(codePoints(COURSE_TOOL_TRUNCATION_MARKER)).toBe(24);
  });

  const kept = COURSE_TOOL_OUTPUT_CAP_CHARACTERS - 24;
  const cases: [string, string][] = [
    ["ASCII letters", "a"],
    ["a BMP character above the surrogates (U+FF01)", "\uff01"],
    ["the last BMP character (U+FFFF)", "\uffff"],
    ["an astral character (a surrogate pair)", "\ud83d\ude00"],
    ["a character that is escaped (a quote)", '"'],
  ];

  test("the truncation table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)(
    "a long string of %s keeps exactly the cap in code points, marker included",
    (_name, character) => {
      const result = serializeToolOutput(character.repeat(COURSE_TOOL_OUTPUT_CAP_CHARACTERS + 10));
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.truncated).toBe(true);
      expect(result.content.endsWith("\n[Tool output truncated]")).toBe(true);
      expect(codePoints(result.content)).toBe(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
      const written = character === '"' ? '\\"' : character;
      const body = `"${written.repeat(kept)}`;
      expect(result.content).toBe(
        `${[...body].slice(0, kept).join("")}${COURSE_TOOL_TRUNCATION_MARKER}`,
      );
    },
  );

  test("a truncation by the node budget keeps the short text whole (up to the cut), then the marker", () => {
    const result = serializeToolOutput(Array.from({ length: 200 }, () => 0));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBe(true);
    // The root and 127 elements are 128 nodes; the separator before the 129th is already out.
    expect(result.content).toBe(`[${"0,".repeat(127)}${COURSE_TOOL_TRUNCATION_MARKER}`);
  });
});

describe("hostile surroundings of the serializer", () => {
  test("a key planted on Array.prototype at -2 is never read while keys are sorted", () => {
    let reads = 0;
    Object.defineProperty(Array.prototype, "-2", {
      configurable: true,
      get() {
        reads += 1;
        return "zz";
      },
    });
    let result: SerializedOutput;
    try {
      result = serializeToolOutput({ c: 3, b: 2, a: 1 });
    } finally {
      delete (Array.prototype as unknown as Record<string, unknown>)["-2"];
    }
    expect(reads).toBe(0);
    expect(result).toEqual({ ok: true, content: '{"a":1,"b":2,"c":3}', truncated: false });
  });

  test("a stack overflow inside the walk propagates and never passes for a truncation", () => {
    let nested: unknown = "leaf";
    for (let level = 0; level < 30; level += 1) nested = [nested];
    const expected = `${"[".repeat(30)}"leaf"${"]".repeat(30)}`;
    let failedAttempts = 0;
    // Recurses until the stack is exhausted, then serializes on the way back up:
    // the deepest frames have too little stack left, so the walk overflows there.
    const descend = (): SerializedOutput => {
      try {
        return descend();
      } catch {
        try {
          return serializeToolOutput(nested);
        } catch (thrown) {
          failedAttempts += 1;
          throw thrown;
        }
      }
    };
    const result = descend();
    expect(failedAttempts).toBeGreaterThan(0);
    expect(result).toEqual({ ok: true, content: expected, truncated: false });
  });
});

describe("a freshly loaded copy of the serializer", () => {
  // The marker, the part kept before it and the hex digits are evaluated when
  // the module loads: a copy loaded inside the test checks them as loaded.
  test("writes the same escapes, marker and cap as the first copy", async () => {
    vi.resetModules();
    const fresh = await import("../../src/serializer.ts");
    expect(fresh.COURSE_TOOL_TRUNCATION_MARKER).toBe("\n[Tool output truncated]");
    expect(fresh.serializeToolOutput("\u001f\udabc")).toEqual({
      ok: true,
      content: '"\\u001f\\udabc"',
      truncated: false,
    });
    expect(fresh.serializeToolOutput("a".repeat(5000))).toEqual({
      ok: true,
      content: `"${"a".repeat(4071)}\n[Tool output truncated]`,
      truncated: true,
    });
  });
});

describe("courseContent, the path of a call with nothing configured", () => {
  // 40 arrays deep: past the course's depth budget of 32, so the walk is cut there.
  let nested: unknown = "deep";
  for (let level = 0; level < 40; level += 1) nested = [nested];
  const cases: [string, unknown][] = [
    ["a small object", { b: [true, null], a: "x" }],
    ["a string", "text"],
    ["a string over the cap", "a".repeat(5000)],
    ["a chain past the depth budget", nested],
    ["a Map", new Map()],
    ["a Map inside an object", { at: [1, new Map()] }],
    ["undefined", undefined],
  ];

  test("the output table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("writes %s exactly as serializeToolOutput does", (_name, value) => {
    const serialized = serializeToolOutput(value);
    const content = courseContent(value);
    if (serialized.ok) expect(content).toBe(serialized.content);
    else expect(content).toEqual(serialized);
  });
});
