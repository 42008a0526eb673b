/**
 * The built-ins the provider tool list uses, captured once when the schema
 * adapter loads, and the few list operations it needs written over them.
 *
 * Why: a host writes its tool list (`toProviderTools`) on every turn, after
 * Tools ran in its process, and a Tool can replace `Array.prototype.map`,
 * `Object.entries`, `Set.prototype.has`, `RegExp.prototype.test` or
 * `Object.freeze`. The conversions call these copies, never the live
 * globals, so such a Tool cannot open a schema, drop a `required`, pass a
 * bad name or leave the list unfrozen. Most come from the core's declared
 * internal surface; the few the core has no use for are captured here.
 *
 * `schemaTool`'s validator uses them too: it runs on every call (the null
 * drop, the schema's answer, the issues written for the model), after Tools
 * ran in the same process.
 */

import { addSlot, getPrototypeOf, hasOwn, ObjectPrototype } from "../../course/src/internal.ts";

export {
  addSlot,
  apply,
  defineProperty,
  freeze,
  hasOwn,
  isArray,
  isNativePromise,
  MISSING,
  mapGet,
  mathMax,
  mathMin,
  NativeError,
  NativeTypeError,
  ownDataValue,
  promiseThen,
  readOwnValue,
  regExpTest,
  sealedRegExp,
  setHas,
  stringCharCodeAt,
  stringSlice,
  stringTrim,
} from "../../course/src/internal.ts";

/** `Object.entries`, `Object.keys` and `Object.values` as they were at load. */
export const objectEntries = Object.entries;
export const objectKeys = Object.keys;
export const objectValues = Object.values;
/** `JSON.stringify` as it was at load: quotes a name or key in a refusal. */
export const jsonStringify = JSON.stringify;
const numberIsNaN = Number.isNaN;

// The list operations below stand in for the Array.prototype methods of the same name: they
// read by index, skip holes as those do (a hole is read through Array.prototype, where a Tool
// may have planted a getter), and define each new slot (a planted setter never sees a value).

/** `list.includes(value)`: SameValueZero, a hole counting as undefined. */
export function arrayIncludes(list: readonly unknown[], value: unknown): boolean {
  for (let index = 0; index < list.length; index += 1) {
    const item = hasOwn(list, index) ? list[index] : undefined;
    if (item === value || (numberIsNaN(item) && numberIsNaN(value))) return true;
  }
  return false;
}

/**
 * `holder[key]` when the field is the holder's own or its class's (a library's issue may be a
 * class instance with getters, as arktype's are); undefined when the only one is on
 * Object.prototype, where a Tool may have planted it.
 *
 * @example
 * fieldOf({ message: "Required" }, "message"); // "Required"
 */
export function fieldOf(holder: object, key: string): unknown {
  for (
    let at: object | null = holder;
    at !== null && at !== ObjectPrototype;
    at = getPrototypeOf(at)
  ) {
    if (hasOwn(at, key)) return (holder as { readonly [key: string]: unknown })[key];
  }
  return undefined;
}

/** `list.some(test)`. */
export function arraySome<T>(list: readonly T[], test: (item: T) => boolean): boolean {
  for (let index = 0; index < list.length; index += 1) {
    if (hasOwn(list, index) && test(list[index] as T)) return true;
  }
  return false;
}

/** `list.every(test)`. */
export function arrayEvery<T>(list: readonly T[], test: (item: T) => boolean): boolean {
  for (let index = 0; index < list.length; index += 1) {
    if (hasOwn(list, index) && !test(list[index] as T)) return false;
  }
  return true;
}

/** `list.filter(keep)`, into a new array. */
export function arrayFilter<T>(list: readonly T[], keep: (item: T) => boolean): T[] {
  const kept: T[] = [];
  for (let index = 0; index < list.length; index += 1) {
    if (!hasOwn(list, index)) continue;
    const item = list[index] as T;
    if (keep(item)) addSlot(kept, kept.length, item);
  }
  return kept;
}

/** `list.map(change)`, into a new array of the same length. */
export function arrayMap<T, U>(list: readonly T[], change: (item: T, index: number) => U): U[] {
  const changed: U[] = [];
  for (let index = 0; index < list.length; index += 1) {
    if (hasOwn(list, index)) addSlot(changed, index, change(list[index] as T, index));
  }
  // A hole stays a hole, as with map: the length is the source's.
  changed.length = list.length;
  return changed;
}

/** `[...list, last]`: a copy with one more value (a hole read as undefined, as spread does). */
export function arrayAppend<T>(list: readonly T[], last: T): T[] {
  const copy: T[] = [];
  for (let index = 0; index < list.length; index += 1) {
    addSlot(copy, index, (hasOwn(list, index) ? list[index] : undefined) as T);
  }
  addSlot(copy, copy.length, last);
  return copy;
}
