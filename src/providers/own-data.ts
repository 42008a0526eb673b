/**
 * Writing into the fresh objects and arrays this folder builds, without
 * running code someone planted on a prototype.
 */

import { defineProperty } from "../../course/src/internal.ts";

/**
 * Adds an own data property to a fresh object or array. Assignment is the fast
 * path, but it would run a setter inherited from `proto` (`__proto__`, or one
 * someone planted on `Object.prototype` or on an index of `Array.prototype`):
 * for a key the prototype has at all, the property is defined instead.
 *
 * @example
 * addData(copy, Object.prototype, "__proto__", value); // an own key, the prototype untouched
 */
export function addData(target: object, proto: object, key: string | number, value: unknown): void {
  if (key in proto) {
    // Null-prototype, so an `Object.prototype.get` planted by someone cannot make it an accessor.
    const descriptor = {
      __proto__: null,
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    };
    defineProperty(target, key, descriptor as PropertyDescriptor);
  } else {
    (target as Record<string | number, unknown>)[key] = value;
  }
}
