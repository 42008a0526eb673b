/**
 * Built-ins the round relies on, captured once when the module loads.
 *
 * Why: validators, Tools, approval gates and event listeners all run inside a
 * round and may patch globals (`Promise.prototype.then`, `Map.prototype.set`,
 * `signal.addEventListener`). The round's own bookkeeping calls these copies,
 * never the live globals.
 */

import { types } from "node:util";

const ReflectApply = Reflect.apply;

/** Turns `proto.method` into `method(receiver, ...args)` bound to the captured original. */
function uncurryThis<This, Args extends unknown[], Result>(
  method: (this: This, ...args: Args) => Result,
): (receiver: This, ...args: Args) => Result {
  return (receiver, ...args) => ReflectApply(method, receiver, args) as Result;
}

/** The original getter of `proto[key]`, callable on any receiver. */
export function getterOf<This, Value>(proto: object, key: PropertyKey): (receiver: This) => Value {
  const get = Reflect.getOwnPropertyDescriptor(proto, key)?.get;
  if (typeof get !== "function") {
    throw new TypeError(`toolbound rounds: the runtime lacks the ${String(key)} getter`);
  }
  return (receiver) => ReflectApply(get, receiver, []) as Value;
}

/** `Reflect.apply` as it was at load. */
export const apply = ReflectApply;
/** `Reflect.get` as it was at load. */
export const reflectGet = Reflect.get;
/** `Reflect.getOwnPropertyDescriptor` as it was at load. */
export const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
/** `Reflect.defineProperty` as it was at load. */
export const defineProperty = Reflect.defineProperty;
/** `Object.freeze` as it was at load. */
export const freeze = Object.freeze;
/** `Array.isArray` as it was at load. */
export const isArray = Array.isArray;
/** `Number.isSafeInteger` as it was at load. */
export const isSafeInteger = Number.isSafeInteger;
/** `Object.prototype.hasOwnProperty`, uncurried. */
export const hasOwn: (target: object, key: PropertyKey) => boolean = uncurryThis(
  Object.prototype.hasOwnProperty as (this: object, key: PropertyKey) => boolean,
);

/** `Error` as it was at load. */
export const NativeError = Error;
/** `DOMException` as it was at load. */
export const NativeDOMException = DOMException;
/** `Promise` as it was at load. */
export const NativePromise = Promise;
/** `Promise.prototype.then`, uncurried. */
export const promiseThen = uncurryThis(Promise.prototype.then) as <T>(
  promise: Promise<T>,
  onFulfilled: (value: T) => void,
  onRejected: (reason: unknown) => void,
) => Promise<void>;

/** `Map` as it was at load. */
export const NativeMap = Map;
/** `Map.prototype.get`, uncurried. */
export const mapGet = uncurryThis(Map.prototype.get) as <K, V>(
  map: Map<K, V>,
  key: K,
) => V | undefined;
/** `Map.prototype.set`, uncurried. */
export const mapSet = uncurryThis(Map.prototype.set) as <K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
) => Map<K, V>;

/** `String.prototype.charCodeAt`, uncurried. */
export const stringCharCodeAt = uncurryThis(String.prototype.charCodeAt);
/** `String.prototype.slice`, uncurried. */
export const stringSlice = uncurryThis(String.prototype.slice);

/** `AbortController` as it was at load. */
export const NativeAbortController = AbortController;
/** `AbortController.prototype.abort`, uncurried. */
export const controllerAbort = uncurryThis(AbortController.prototype.abort);
/** The `AbortController.prototype.signal` getter, uncurried. */
export const controllerSignal = getterOf<AbortController, AbortSignal>(
  AbortController.prototype,
  "signal",
);
/** The `AbortSignal.prototype.aborted` getter (an impostor signal throws). */
export const signalAborted = getterOf<AbortSignal, boolean>(AbortSignal.prototype, "aborted");
/** The `AbortSignal.prototype.reason` getter. */
export const signalReason = getterOf<AbortSignal, unknown>(AbortSignal.prototype, "reason");
/** `EventTarget.prototype.addEventListener`, uncurried (an own override is ignored). */
export const addEventListener = uncurryThis(EventTarget.prototype.addEventListener);
/** `EventTarget.prototype.removeEventListener`, uncurried. */
export const removeEventListener = uncurryThis(EventTarget.prototype.removeEventListener);

const isProxyCheck = types.isProxy;
const isPromiseCheck = types.isPromise;
/** True for any Proxy (live, revoked, callable); never runs a trap. */
export const isProxy = (value: unknown): boolean => ReflectApply(isProxyCheck, types, [value]);
/** True for a native promise (what an `async` function returns). */
export const isNativePromise = (value: unknown): value is Promise<unknown> =>
  ReflectApply(isPromiseCheck, types, [value]);

const processObject = process;
const nativeEmitWarning = process.emitWarning;
/** `process.emitWarning` as it was at load. */
export const emitWarning = (warning: Error): void => {
  ReflectApply(nativeEmitWarning, processObject, [warning]);
};

/**
 * Writes `array[index]` as an own data property: a plain assignment would run
 * a setter someone defined on `Array.prototype` for that index.
 */
export function store<T>(array: T[], index: number, value: T): void {
  defineProperty(array, index, { value, writable: true, enumerable: true, configurable: true });
}
