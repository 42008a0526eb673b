/**
 * The few built-ins the round needs that the core's intrinsics do not export,
 * captured once when the module loads.
 *
 * Why: validators, Tools, approval gates and event listeners all run inside a
 * round and may patch globals (`process.emitWarning`,
 * `EventTarget.prototype.removeEventListener`, an index setter on
 * `Array.prototype`). The round's own bookkeeping calls these copies, never the
 * live globals. Every other built-in the round uses (`apply`, `freeze`,
 * `isProxy`, `promiseThen`, `mapGet`, `signalAborted`, …) comes from the core's
 * intrinsics, captured there for the same reason.
 */

import { apply, defineProperty } from "../../course/src/internal.ts";

const nativeRemoveEventListener = EventTarget.prototype.removeEventListener;
/** `EventTarget.prototype.removeEventListener` as it was at load (an own override is ignored). */
export const removeEventListener = (
  target: EventTarget,
  ...args: Parameters<EventTarget["removeEventListener"]>
): void => {
  apply(nativeRemoveEventListener, target, args);
};

const processObject = process;
const nativeEmitWarning = process.emitWarning;
/** `process.emitWarning` as it was at load. */
export const emitWarning = (warning: Error): void => {
  apply(nativeEmitWarning, processObject, [warning]);
};

/**
 * Writes `array[index]` as an own data property: a plain assignment would run
 * a setter someone defined on `Array.prototype` for that index.
 */
export function store<T>(array: T[], index: number, value: T): void {
  defineProperty(array, index, { value, writable: true, enumerable: true, configurable: true });
}
