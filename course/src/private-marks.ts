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
 */

/**
 * A base class whose constructor returns the object it is given: a subclass
 * constructed on top of it installs its private field on that very object.
 */
class Adopter {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: returning the given object is the point, so that a subclass's private field lands on it.
    return target;
  }
}

/** One kind of mark: its field is private to the class `createPrivateMark` makes. */
export interface PrivateMark<Value> {
  /** Marks a fresh, not yet frozen object of ours with `value`; once per object. */
  add(target: object, value: Value): void;
  /** Whether `value` carries this mark (false for primitives and Proxies). */
  has(value: unknown): boolean;
  /** The mark's value on `value`, or undefined when it carries none. */
  get(value: unknown): Value | undefined;
  /** Replaces the value of a mark `target` carries (frozen or not). */
  replace(target: object, value: Value): void;
}

/**
 * Creates a kind of mark (each kind has a private field of its own).
 *
 * @example
 * const snapshots = createPrivateMark<true>();
 * const copy = { id: "call-1" };
 * snapshots.add(copy, true);
 * snapshots.has(Object.freeze(copy)); // true
 */
export function createPrivateMark<Value>(): PrivateMark<Value> {
  class Mark extends Adopter {
    #value: Value;

    constructor(target: object, value: Value) {
      super(target);
      this.#value = value;
    }

    static has(value: unknown): boolean {
      return (typeof value === "object" || typeof value === "function") && value !== null
        ? #value in value
        : false;
    }

    static get(value: unknown): Value | undefined {
      return Mark.has(value) ? (value as Mark).#value : undefined;
    }

    static replace(target: object, value: Value): void {
      (target as Mark).#value = value;
    }
  }
  return {
    add: (target, value) => {
      new Mark(target, value);
    },
    has: Mark.has,
    get: Mark.get,
    replace: Mark.replace,
  };
}
