/**
 * Counts every piece of user code a hostile value runs: getters, `toJSON`,
 * Proxy traps and `then`. The boundary promises that serializing output runs
 * none of it, so the properties assert these counts stay at zero.
 */

/** Mutable tallies of user code that ran, by kind. */
export interface Touches {
  getters: number;
  toJSON: number;
  traps: number;
}

/** Starts a fresh tally at zero. */
export function newTouches(): Touches {
  return { getters: 0, toJSON: 0, traps: 0 };
}

/** The sum of all kinds in a tally. */
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
