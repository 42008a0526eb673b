/**
 * Sorting an object's entries by key: plain string comparison, values kept
 * beside their keys, at every size around the switch from insertion sort to
 * merge sort.
 */
import { describe, expect, test } from "vitest";
import { sortPairs } from "../../course/src/key-sort.ts";

/** Distinct keys in a scrambled order (a fixed stride through the indexes). */
function scrambled(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `key-${(index * 7_919) % Math.max(count, 1)}`);
}

describe("sortPairs", () => {
  const sizes = [0, 1, 2, 3, 31, 32, 33, 34, 63, 64, 65, 100, 1_000];

  test.each(sizes)("%i entries come out sorted by key, each value beside its key", (count) => {
    expect(sizes.length).toBeGreaterThan(0);
    const keys = scrambled(count);
    const pairs = keys.flatMap((key) => [key, `value of ${key}`]);
    sortPairs(pairs);
    const sortedKeys = [...keys].sort();
    expect(pairs).toEqual(sortedKeys.flatMap((key) => [key, `value of ${key}`]));
  });

  test("plain string comparison: 10 before 2, upper case before lower case, astral by code unit", () => {
    const keys = ["2", "10", "b", "B", "a", "😀", "\uffff", ...scrambled(40)];
    const pairs = keys.flatMap((key, index) => [key, index]);
    sortPairs(pairs);
    const expected = [...keys].sort();
    expect(pairs.filter((_, index) => index % 2 === 0)).toEqual(expected);
    expect(expected.indexOf("10")).toBeLessThan(expected.indexOf("2"));
    expect(expected.indexOf("😀")).toBeLessThan(expected.indexOf("\uffff"));
  });

  test("already sorted and reversed inputs of merge-sort size", () => {
    const keys = scrambled(200).sort();
    const forward = keys.flatMap((key) => [key, key]);
    const backward = [...keys].reverse().flatMap((key) => [key, key]);
    sortPairs(forward);
    sortPairs(backward);
    expect(forward).toEqual(backward);
    expect(forward.filter((_, index) => index % 2 === 0)).toEqual(keys);
  });
});
