/**
 * One-read access to own fields of untrusted objects: a getter runs at most
 * once, an inherited field counts as absent and its getter never runs.
 */

import {
  apply,
  freeze,
  getOwnPropertyDescriptor,
  hasOwn,
  ObjectPrototype,
  stringCharCodeAt,
  stringTrim,
} from "./intrinsics.js";

/** The outcome of reading one own field: absent, or its value (a getter runs once). */
export type OwnField =
  | { readonly found: false }
  | { readonly found: true; readonly value: unknown };

const ABSENT: OwnField = freeze({ found: false });

/** What {@link readOwnValue} answers for an absent or inherited field. */
export const MISSING: unique symbol = Symbol("missing");

/**
 * Whether a descriptor that `getOwnPropertyDescriptor` made is a data
 * descriptor (an own `value`), not an accessor's (own `get` and `set`).
 * `"value" in descriptor` asks the descriptor, then Object.prototype, whose
 * prototype is always null and which is never a Proxy: nothing runs, and the
 * engine answers it from the descriptor's shape instead of calling the own-key
 * check. It speaks for the descriptor alone unless someone planted a `value`
 * on Object.prototype; then the own-key check decides.
 *
 * @example
 * isDataDescriptor(getOwnPropertyDescriptor({ a: 1 }, "a")); // true
 * isDataDescriptor(getOwnPropertyDescriptor({ get a() { return 1; } }, "a")); // false
 */
export function isDataDescriptor(descriptor: PropertyDescriptor): boolean {
  return "value" in descriptor && (!("value" in ObjectPrototype) || hasOwn(descriptor, "value"));
}

/**
 * Reads an own field exactly once, like {@link readOwnField}, without
 * allocating: the value, or {@link MISSING}.
 */
export function readOwnValue(target: object, key: string | number): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) return MISSING;
  if (isDataDescriptor(descriptor)) return descriptor.value;
  const get = descriptor.get;
  return get === undefined ? undefined : apply(get, target, []);
}

/**
 * {@link readOwnValue} for a target the caller has already refused as a
 * Proxy: one own-key check and one ordinary read, with no descriptor object
 * made per field (array slots of arguments, the fields of a call given to
 * toolCallWithInvalidArguments). For a non-Proxy the two steps run no code
 * of the target but an own getter, once:
 * the own-key check asks the object itself, and a read of an own key never
 * reaches the prototype chain. A Proxy would see two traps here, so it must
 * not get this far.
 */
export function readOwnPlainValue(target: object, key: string | number): unknown {
  if (!hasOwn(target, key)) return MISSING;
  return (target as { readonly [key: string | number]: unknown })[key];
}

/**
 * Reads an own field exactly once: an own getter runs once, an inherited field
 * counts as absent and its getter never runs. Throws whatever the getter throws.
 */
export function readOwnField(target: object, key: string): OwnField {
  const descriptor = getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) return ABSENT;
  if (isDataDescriptor(descriptor)) return { found: true, value: descriptor.value };
  const get = descriptor.get;
  return { found: true, value: get === undefined ? undefined : apply(get, target, []) };
}

/**
 * An own data property's value; undefined for an accessor (whose getter never
 * runs) or an absent or inherited key.
 */
export function ownDataValue(target: object, key: PropertyKey): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && isDataDescriptor(descriptor) ? descriptor.value : undefined;
}

/** True for a string with something besides white space in it. */
export function isNonBlankString(value: unknown): value is string {
  if (typeof value !== "string") return false;
  // A first character that is printable ASCII other than a space is not white space: the
  // common case (a call id, a Tool name) is answered without making a trimmed copy.
  // (The empty string's first "character" is NaN, which fails both comparisons.)
  const first = stringCharCodeAt(value, 0);
  if (first > 0x20 && first < 0x7f) return true;
  return stringTrim(value).length > 0;
}
