/**
 * The built-ins the durable calls use, captured once when the core loads.
 *
 * Why: validators, Tools, approval gates and event listeners all run inside a
 * durable call and may patch globals (`Reflect.apply`, `WeakMap.prototype.get`,
 * `process.emitWarning`, an index setter on `Array.prototype`). The durable
 * bookkeeping calls these copies, never the live globals. Most come from the
 * core's declared internal surface; the few the core has no use for are
 * captured here.
 */

import {
  apply,
  promiseThen as corePromiseThen,
  defineProperty,
} from "../../course/src/internal.ts";

export {
  addEventListener,
  apply,
  controllerAbort,
  controllerSignal,
  freeze,
  getOwnPropertyDescriptor,
  hasOwn,
  isArray,
  isProxy,
  isSafeInteger,
  ownDataValue,
  setAdd,
  setHas,
  signalReason,
  stringCharCodeAt,
  weakMapGet,
  weakMapSet,
} from "../../course/src/internal.ts";

/** `promise.then(onFulfilled, onRejected)` through the captured method; `onFulfilled` may be left out. */
export const promiseThen = <T>(
  promise: Promise<T>,
  onFulfilled: ((value: T) => unknown) | undefined,
  onRejected: (reason: unknown) => unknown,
): void => {
  corePromiseThen(
    promise,
    onFulfilled as (value: T) => void,
    onRejected as (reason: unknown) => void,
  );
};

const nativeRemoveEventListener = EventTarget.prototype.removeEventListener;
/** `target.removeEventListener(...)` through the captured method. */
export const removeEventListener = (
  target: EventTarget,
  ...args: Parameters<EventTarget["removeEventListener"]>
): void => {
  apply(nativeRemoveEventListener, target, args);
};

/**
 * Writes `array[index]` as an own data property: a plain assignment would run
 * a setter someone defined on `Array.prototype` for that index.
 */
export function store<T>(array: T[], index: number, value: T): void {
  defineProperty(array, index, { value, writable: true, enumerable: true, configurable: true });
}

/** Defines `object[key]` as an own enumerable data property (an inherited setter never runs). */
export function defineData(object: object, key: PropertyKey, value: unknown): void {
  defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}
