/**
 * Marks kept in private fields: an object this module made remembers
 * something (that it is a call snapshot, what a prepared handle stands for)
 * without an entry in a WeakSet or WeakMap. Adding an entry to a weak
 * collection costs more than the rest of making a small snapshot, and every
 * entry is work for the garbage collector later; a private field is part of
 * the object, set with it and gone with it.
 *
 * A mark is only ever set on a fresh object of our own, before it is frozen
 * (a private field is no property: freezing leaves it writable, and no code
 * outside can see, read or forge it). Asking whether a value carries a mark
 * runs none of its code, a Proxy's included: a Proxy never carries one.
 *
 * Each kind of mark is a class of its own, written where it is used (a
 * subclass of {@link MarkHost}): the engine keeps what it learns about an
 * `#field in value` check per place in the code, and one shared class body
 * that asked for every kind of mark on every kind of object stopped being
 * specialized at all (a prepared call cost a tenth more for it).
 */

/**
 * The base of every kind of mark: its constructor returns the object it is
 * given, so a subclass constructed on top of it installs its private field on
 * that very object.
 *
 * @example
 * class Seen extends MarkHost {
 *   readonly #seen = true;
 *   static has(value: unknown): boolean {
 *     return isMarkable(value) && #seen in value;
 *   }
 * }
 * const copy = { id: "call-1" };
 * new Seen(copy);
 * Seen.has(Object.freeze(copy)); // true
 */
export class MarkHost {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: returning the given object is the point, so that a subclass's private field lands on it.
    return target;
  }
}

/**
 * Whether `value` could carry a private field at all (an object or a
 * function); asking runs none of its code.
 *
 * @example
 * isMarkable("text"); // false
 * isMarkable({}); // true
 */
export function isMarkable(value: unknown): value is object {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}
