/**
 * Test support for attacks that replace built-ins, as a Tool running in the
 * host's process can: `replace` swaps (or plants) a property until
 * `restoreAll`, which a test file runs after each test; `underAttack` and
 * `underAttackNow` run a path with the replacements in place and restore
 * them before any other code runs, so the test runner's own code never meets
 * them (a replaced `exec` would hang its stack parser).
 */
import { syncBuiltinESMExports } from "node:module";

// The built-ins as they were when this module loaded: an attack may replace the live ones.
const define = Object.defineProperty;
const describeOwn = Object.getOwnPropertyDescriptor;
const deleteProperty = Reflect.deleteProperty;

interface Replaced {
  readonly target: object;
  readonly key: PropertyKey;
  readonly descriptor: PropertyDescriptor | undefined;
}

const replaced: Replaced[] = [];

/**
 * Replaces (or plants) `target[key]`: `value`, or with `getter`, an accessor
 * answering `value()`; until {@link restoreAll}.
 *
 * @example
 * replace(Array.prototype, "map", () => ["forged"]);
 */
export function replace(target: object, key: PropertyKey, value: unknown, getter = false): void {
  define(replaced, replaced.length, {
    value: { target, key, descriptor: describeOwn(target, key) },
    writable: true,
    enumerable: true,
    configurable: true,
  });
  define(
    target,
    key,
    getter
      ? { get: value as () => unknown, configurable: true }
      : { value, writable: true, configurable: true },
  );
}

/**
 * Puts back every replaced property, last first, and lets the ESM named
 * exports of built-in modules (node:crypto, node:net) follow their objects.
 *
 * @example
 * afterEach(restoreAll);
 */
export function restoreAll(): void {
  for (let index = replaced.length - 1; index >= 0; index -= 1) {
    const entry = replaced[index] as Replaced;
    if (entry.descriptor === undefined) deleteProperty(entry.target, entry.key);
    else define(entry.target, entry.key, entry.descriptor);
  }
  replaced.length = 0;
  syncBuiltinESMExports();
}

/**
 * Runs `attacked` with the replacements in place, then restores them, even
 * when it throws.
 *
 * @example
 * const result = await underAttack(() => executeToolCall(registry, call, signal));
 */
export async function underAttack<T>(attacked: () => Promise<T>): Promise<T> {
  try {
    return await attacked();
  } finally {
    restoreAll();
  }
}

/**
 * {@link underAttack} for a synchronous path.
 *
 * @example
 * const text = underAttackNow(() => cutText(long, 64));
 */
export function underAttackNow<T>(attacked: () => T): T {
  try {
    return attacked();
  } finally {
    restoreAll();
  }
}

/** An attack on a built-in: its name for a test title, and how it replaces it (calling `count`). */
export type BuiltinAttack = readonly [string, (count: () => void) => void];

/**
 * The replacements a Tool set builder must not be steered by: each makes the
 * built-in do nothing useful (yield no names, keep nothing, define or freeze
 * nothing, open the schema) and counts its runs.
 *
 * @example
 * test.each([BUILDER_ATTACKS.iterator, BUILDER_ATTACKS.freeze])("%s", (_name, attack) => { … });
 */
export const BUILDER_ATTACKS = {
  iterator: [
    "the array iterator (yielding no names)",
    (count) =>
      replace(Array.prototype, Symbol.iterator, () => {
        count();
        return { next: () => ({ done: true, value: undefined }) };
      }),
  ],
  push: [
    "Array.prototype.push (keeping nothing)",
    (count) =>
      replace(Array.prototype, "push", function push(this: unknown[]) {
        count();
        return this.length;
      }),
  ],
  defineProperty: [
    "Object.defineProperty (defining nothing)",
    (count) =>
      replace(Object, "defineProperty", (target: object) => {
        count();
        return target;
      }),
  ],
  freeze: [
    "Object.freeze (freezing nothing)",
    (count) =>
      replace(Object, "freeze", (value: unknown) => {
        count();
        return value;
      }),
  ],
  structuredClone: [
    "structuredClone (opening the schema)",
    (count) =>
      replace(globalThis, "structuredClone", () => {
        count();
        return { type: "object", additionalProperties: true };
      }),
  ],
} as const satisfies Record<string, BuiltinAttack>;
