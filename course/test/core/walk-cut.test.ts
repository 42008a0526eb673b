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
