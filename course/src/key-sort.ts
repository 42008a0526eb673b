/**
 * Sorting an object's entries by key (plain string comparison, so `"10"`
 * before `"2"`) without calling anything a Tool could have patched: no
 * `Array.prototype.sort`, no comparator, no allocation for short lists.
 */

import { mathMin } from "./intrinsics.ts";

/** Up to this many entries, insertion sort: no allocation, and `for…in` often yields keys nearly sorted. */
const INSERTION_LIMIT = 32;

function insertionSort(pairs: unknown[]): void {
  for (let index = 2; index < pairs.length; index += 2) {
    const key = pairs[index] as string;
    const value = pairs[index + 1];
    let slot = index - 2;
    while (slot >= 0 && (pairs[slot] as string) > key) {
      pairs[slot + 2] = pairs[slot];
      pairs[slot + 3] = pairs[slot + 1];
      slot -= 2;
    }
    pairs[slot + 2] = key;
    pairs[slot + 3] = value;
  }
}

/**
 * Bottom-up merge sort of the pairs: O(n log n) for the wide objects a large
 * configured `maxEntries` lets through, where insertion sort would be O(n²).
 * Keys are unique, so stability does not matter, but it is stable anyway.
 */
function mergeSort(pairs: unknown[]): void {
  const count = pairs.length / 2;
  let from = pairs;
  let to: unknown[] = [];
  for (let width = 1; width < count; width *= 2) {
    for (let low = 0; low < count; low += 2 * width) {
      const middle = mathMin(low + width, count);
      const high = mathMin(low + 2 * width, count);
      let left = low;
      let right = middle;
      let slot = low;
      while (left < middle || right < high) {
        const takeRight =
          left >= middle ||
          (right < high && (from[2 * right] as string) < (from[2 * left] as string));
        const source = takeRight ? right : left;
        to[2 * slot] = from[2 * source];
        to[2 * slot + 1] = from[2 * source + 1];
        slot += 1;
        if (takeRight) right += 1;
        else left += 1;
      }
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== pairs) {
    for (let index = 0; index < pairs.length; index += 1) pairs[index] = from[index];
  }
}

/**
 * Sorts a flat `[key, value, key, value, …]` list by key in place.
 *
 * @example
 * const pairs = ["b", 1, "a", 2];
 * sortPairs(pairs); // pairs is ["a", 2, "b", 1]
 */
export function sortPairs(pairs: unknown[]): void {
  if (pairs.length <= 2 * INSERTION_LIMIT) insertionSort(pairs);
  else mergeSort(pairs);
}
