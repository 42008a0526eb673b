/**
 * Counts every piece of user code a hostile value runs: getters, `toJSON`,
 * Proxy traps and `then`. The boundary promises that serializing output runs
 * none of it, so the properties assert these counts stay at zero, with one
 * exception counted apart: the `getPrototypeOf` trap of a Proxy used as a
 * *prototype*, which the course's plain-object check reads (at most once per
 * container) before the Proxy prototype is refused.
 */

/** Mutable tallies of user code that ran, by kind. */
export interface Touches {
  getters: number;
  toJSON: number;
  traps: number;
  /** `getPrototypeOf` traps of Proxy prototypes: allowed, at most once per serialization. */
  prototypeTraps: number;
}

/** Starts a fresh tally at zero. */
export function newTouches(): Touches {
  return { getters: 0, toJSON: 0, traps: 0, prototypeTraps: 0 };
}

/** The sum of all kinds in a tally that must stay at zero (prototype traps are apart). */
export function totalTouches(touches: Touches): number {
  return touches.getters + touches.toJSON + touches.traps;
}

const TRAP_NAMES = [
  "apply",
  "construct",
  "defineProperty",
  "deleteProperty",
  "get",
  "getOwnPropertyDescriptor",
  "getPrototypeOf",
  "has",
  "isExtensible",
  "ownKeys",
  "preventExtensions",
  "set",
  "setPrototypeOf",
] as const;

/**
 * A Proxy handler whose every trap counts the call and then throws, so a
 * trap that runs is both counted and loud.
 */
export function countingHandler(touches: Touches): ProxyHandler<object> {
  const handler: Record<string, () => never> = {};
  for (const name of TRAP_NAMES) {
    handler[name] = () => {
      touches.traps += 1;
      throw new Error(`Proxy trap "${name}" ran`);
    };
  }
  return handler as ProxyHandler<object>;
}

/** What a Proxy prototype's `getPrototypeOf` trap throws when its recipe says so. */
export const PROTOTYPE_TRAP_ERROR_MESSAGE = "a Proxy prototype's getPrototypeOf trap threw";

/**
 * A Proxy of `Object.prototype` for use as a prototype: its `getPrototypeOf`
 * trap is counted apart (and throws when `throws`); every other trap counts
 * and throws as in `countingHandler`.
 */
export function proxyPrototype(touches: Touches, throws: boolean): object {
  const handler = countingHandler(touches);
  handler.getPrototypeOf = (target) => {
    touches.prototypeTraps += 1;
    if (throws) throw new Error(PROTOTYPE_TRAP_ERROR_MESSAGE);
    return Reflect.getPrototypeOf(target);
  };
  return new Proxy(Object.prototype, handler);
}
