/**
 * The built-ins the durable calls use, captured once when the module loads.
 *
 * Why: validators, Tools, approval gates and event listeners all run inside a
 * durable call and may patch globals (`Reflect.apply`, `WeakMap.prototype.get`,
 * `process.emitWarning`, an index setter on `Array.prototype`). The durable
 * bookkeeping calls these copies, never the live globals.
 */

import { types } from "node:util";

/** `Reflect.apply` as it was at load. */
export const apply = Reflect.apply;
/** `Object.freeze` as it was at load. */
export const freeze = Object.freeze;
/** `Object.getOwnPropertyDescriptor` as it was at load. */
export const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
/** `Array.isArray` as it was at load. */
export const isArray = Array.isArray;
/** `Object.hasOwn` as it was at load. */
export const hasOwn = Object.hasOwn;
/** `Number.isSafeInteger` as it was at load. */
export const isSafeInteger = Number.isSafeInteger;
/** `util.types.isProxy` as it was at load: answers without running any trap. */
export const isProxy = types.isProxy;
/** `util.types.isPromise` as it was at load: true for native promises only. */
export const isNativePromise = types.isPromise;

const nativeThen = Promise.prototype.then;
/** `promise.then(onFulfilled, onRejected)` through the captured method. */
export const promiseThen = <T>(
  promise: Promise<T>,
  onFulfilled: ((value: T) => unknown) | undefined,
  onRejected: (reason: unknown) => unknown,
): void => {
  apply(nativeThen, promise, [onFulfilled, onRejected]);
};

const nativeWeakMapGet = WeakMap.prototype.get;
const nativeWeakMapSet = WeakMap.prototype.set;
/** `weakMap.get(key)` through the captured method. */
export const weakMapGet = <K extends object, V>(map: WeakMap<K, V>, key: K): V | undefined =>
  apply(nativeWeakMapGet, map, [key]) as V | undefined;
/** `weakMap.set(key, value)` through the captured method. */
export const weakMapSet = <K extends object, V>(map: WeakMap<K, V>, key: K, value: V): void => {
  apply(nativeWeakMapSet, map, [key, value]);
};

const nativeSetHas = Set.prototype.has;
const nativeSetAdd = Set.prototype.add;
/** `set.has(value)` through the captured method. */
export const setHas = <T>(set: Set<T>, value: T): boolean =>
  apply(nativeSetHas, set, [value]) as boolean;
/** `set.add(value)` through the captured method. */
export const setAdd = <T>(set: Set<T>, value: T): void => {
  apply(nativeSetAdd, set, [value]);
};

const nativeAbort = AbortController.prototype.abort;
const nativeSignal = getOwnPropertyDescriptor(AbortController.prototype, "signal")
  ?.get as () => AbortSignal;
const nativeAborted = getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")
  ?.get as () => boolean;
const nativeReason = getOwnPropertyDescriptor(AbortSignal.prototype, "reason")
  ?.get as () => unknown;
/** `controller.abort(reason)` through the captured method. */
export const controllerAbort = (controller: AbortController, reason: unknown): void => {
  apply(nativeAbort, controller, [reason]);
};
/** `controller.signal` through the intrinsic getter. */
export const controllerSignal = (controller: AbortController): AbortSignal =>
  apply(nativeSignal, controller, []) as AbortSignal;
/** `signal.aborted` through the intrinsic getter (an own override is ignored). */
export const signalAborted = (signal: AbortSignal): boolean =>
  apply(nativeAborted, signal, []) as boolean;
/** `signal.reason` through the intrinsic getter. */
export const signalReason = (signal: AbortSignal): unknown => apply(nativeReason, signal, []);

const nativeAddEventListener = EventTarget.prototype.addEventListener;
const nativeRemoveEventListener = EventTarget.prototype.removeEventListener;
/** `target.addEventListener(...)` through the captured method. */
export const addEventListener = (
  target: EventTarget,
  ...args: Parameters<EventTarget["addEventListener"]>
): void => {
  apply(nativeAddEventListener, target, args);
};
/** `target.removeEventListener(...)` through the captured method. */
export const removeEventListener = (
  target: EventTarget,
  ...args: Parameters<EventTarget["removeEventListener"]>
): void => {
  apply(nativeRemoveEventListener, target, args);
};

const processObject = process;
const nativeEmitWarning = process.emitWarning;
/** `process.emitWarning(warning)` as it was at load. */
export const emitWarning = (warning: Error): void => {
  apply(nativeEmitWarning, processObject, [warning]);
};

/** `Object.defineProperty` as it was at load. */
export const defineProperty = Object.defineProperty;
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

/**
 * An own data property's value, or `undefined` when `key` is missing or an
 * accessor: no getter ever runs. The value is `unknown`; the caller checks it.
 */
export function ownDataValue(value: object, key: PropertyKey): unknown {
  const descriptor = getOwnPropertyDescriptor(value, key);
  // hasOwn, not `in`: a `value` planted on Object.prototype would make a getter look like data.
  if (descriptor === undefined || !hasOwn(descriptor, "value")) return undefined;
  return descriptor.value;
}
