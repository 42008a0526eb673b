/**
 * Sorting an object's keys by plain string comparison (so `"10"` before
 * `"2"`) without calling anything a Tool could have patched: no
 * `Array.prototype.sort`, no comparator, no allocation for short lists.
 */

import { addSlot, mathMin } from "./intrinsics.js";

/** Up to this many keys, insertion sort: no allocation, and `for…in` often yields keys nearly sorted. */
const INSERTION_LIMIT = 32;

function insertionSort(keys: string[], count: number): void {
  for (let index = 1; index < count; index += 1) {
    const key = keys[index] as string;
    let slot = index - 1;
    while (slot >= 0 && (keys[slot] as string) > key) {
      keys[slot + 1] = keys[slot] as string;
      slot -= 1;
    }
    keys[slot + 1] = key;
  }
}

/**
 * Bottom-up merge sort: O(n log n) for the wide objects a large configured
 * `maxEntries` lets through, where insertion sort would be O(n²). Keys are
 * unique, so stability does not matter, but it is stable anyway.
 */
function mergeSort(keys: string[], count: number): void {
  let from = keys;
  // The scratch list gets its own slots first (defined, not assigned): written or read as
  // holes, each access would reach Array.prototype, where a Tool's planted index setter could
  // swallow a key and a planted getter could answer one.
  let to: string[] = [];
  for (let index = 0; index < count; index += 1) addSlot(to, index, keys[index] as string);
  for (let width = 1; width < count; width *= 2) {
    for (let low = 0; low < count; low += 2 * width) {
      const middle = mathMin(low + width, count);
      const high = mathMin(low + 2 * width, count);
      let left = low;
      let right = middle;
      for (let slot = low; slot < high; slot += 1) {
        const takeRight =
          left >= middle || (right < high && (from[right] as string) < (from[left] as string));
        if (takeRight) {
          to[slot] = from[right] as string;
          right += 1;
        } else {
          to[slot] = from[left] as string;
          left += 1;
        }
      }
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== keys) {
    for (let index = 0; index < count; index += 1) keys[index] = from[index] as string;
  }
}

/**
 * Sorts the first `count` keys (default: all of them) in place by plain
 * string comparison; the slots after them are left as they are.
 *
 * @example
 * const keys = ["b", "10", "2"];
 * sortKeys(keys); // keys is ["10", "2", "b"]
 */
export function sortKeys(keys: string[], count: number = keys.length): void {
  if (count <= INSERTION_LIMIT) insertionSort(keys, count);
  else mergeSort(keys, count);
}
