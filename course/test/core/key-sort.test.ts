/**
 * Sorting an object's keys: plain string comparison, at every size around the
 * switch from insertion sort to merge sort.
 */
import { describe, expect, test } from "vitest";
import { sortKeys } from "../../src/key-sort.ts";

/** Distinct keys in a scrambled order (a fixed stride through the indexes). */
function scrambled(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `key-${(index * 7_919) % Math.max(count, 1)}`);
}

describe("sortKeys", () => {
  const sizes = [0, 1, 2, 3, 31, 32, 33, 34, 63, 64, 65, 100, 1_000];

  test.each(sizes)("%i keys come out sorted", (count) => {
    expect(sizes.length).toBeGreaterThan(0);
    const keys = scrambled(count);
    const expected = [...keys].sort();
    sortKeys(keys);
    expect(keys).toEqual(expected);
  });

  test("plain string comparison: 10 before 2, upper case before lower case, astral by code unit", () => {
    const keys = ["2", "10", "b", "B", "a", "😀", "\uffff", ...scrambled(40)];
    const expected = [...keys].sort();
    sortKeys(keys);
    expect(keys).toEqual(expected);
    expect(expected.indexOf("10")).toBeLessThan(expected.indexOf("2"));
    expect(expected.indexOf("😀")).toBeLessThan(expected.indexOf("\uffff"));
  });

  test("already sorted and reversed inputs of merge-sort size", () => {
    const sorted = scrambled(200).sort();
    const forward = [...sorted];
    const backward = [...sorted].reverse();
    sortKeys(forward);
    sortKeys(backward);
    expect(forward).toEqual(sorted);
    expect(backward).toEqual(sorted);
  });

  // The walk sorts the first `count` slots of a list made longer than it needs.
  test.each([0, 1, 3, 4, 32, 33, 100])(
    "with a count, only the first %i slots are sorted and the rest is left as it was",
    (count) => {
      const head = scrambled(count);
      const tail = ["~z", "!a", "~m"];
      const keys = [...head, ...tail];
      sortKeys(keys, count);
      expect(keys.slice(0, count)).toEqual([...head].sort());
      expect(keys.slice(count)).toEqual(tail);
    },
  );
});
