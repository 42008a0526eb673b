/**
 * The provenance registry of NonRecoverableToolError: one per realm, kept on
 * `globalThis` so that every copy of the module (reloads included) shares it.
 * Only a genuine, frozen, branded native error is ever registered; the brand
 * and registry support reloads and subclasses and are not a security boundary.
 */

import {
  apply,
  defineProperty,
  freeze,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isFrozen,
  isNativeError,
  isProxy,
  NativeWeakSet,
  ObjectPrototype,
  weakSetAdd,
  weakSetHas,
} from "./intrinsics.js";
import { ownDataValue } from "./own-fields.js";

/** The own, non-enumerable brand every NonRecoverableToolError carries. */
export const BRAND = Symbol.for("pify.course.NonRecoverableToolError.brand.v1");
/** Where the shared registry lives on `globalThis`. */
export const PROVENANCE = Symbol.for("pify.course.NonRecoverableToolError.provenance.v1");
/** The fields a genuine instance holds. */
export const FATAL_NAME = "NonRecoverableToolError";
export const FATAL_CODE = "NON_RECOVERABLE_TOOL_ERROR";

/** The shape kept on `globalThis` so that every copy of this module shares one registry. */
export interface NonRecoverableProvenance {
  readonly version: 1;
  register(value: unknown): boolean;
  isRegistered(value: unknown): boolean;
}

/**
 * Creates a registry: a private WeakSet, filled only with genuine errors.
 * Exported for tests; the module installs one on `globalThis`.
 */
export function createProvenance(): NonRecoverableProvenance {
  const registered = new NativeWeakSet<object>();
  // A forged error must be a genuine native error (not a Proxy, not a plain
  // object), already frozen, branded, and carry the fields the class sets.
  const isGenuine = (value: unknown): value is object => {
    if (typeof value !== "object" || value === null || isProxy(value)) return false;
    if (!isNativeError(value) || !isFrozen(value)) return false;
    const brand = getOwnPropertyDescriptor(value, BRAND);
    if (brand === undefined || brand.value !== true || brand.enumerable === true) return false;
    return (
      ownDataValue(value, "name") === FATAL_NAME &&
      ownDataValue(value, "code") === FATAL_CODE &&
      ownDataValue(value, "nonRecoverable") === true &&
      typeof ownDataValue(value, "message") === "string"
    );
  };
  return freeze({
    version: 1 as const,
    register(value: unknown): boolean {
      if (!isGenuine(value)) return false;
      weakSetAdd(registered, value);
      return true;
    },
    isRegistered(value: unknown): boolean {
      return weakSetHas(registered, value);
    },
  });
}

/**
 * Finds the registry another copy of this module installed on `host`
 * (`globalThis`), or installs one. A property of the wrong shape makes the
 * module refuse to load: trusting it would let whoever planted it decide which
 * errors stop a run. `host` is a parameter so that tests can plant shapes on
 * an object of their own (the real `globalThis` keeps its registry for good).
 */
export function installProvenance(host: object): NonRecoverableProvenance {
  const existing = getOwnPropertyDescriptor(host, PROVENANCE);
  if (existing === undefined) {
    const created = createProvenance();
    const installed = defineProperty(host, PROVENANCE, {
      value: created,
      enumerable: false,
      writable: false,
      configurable: false,
    });
    if (!installed) {
      throw new TypeError("NonRecoverableToolError: cannot install the shared provenance registry");
    }
    return created;
  }
  const value = existing.value as unknown;
  const refuse = (why: string): never => {
    throw new TypeError(`NonRecoverableToolError: refusing the shared provenance registry: ${why}`);
  };
  if (!hasOwn(existing, "value") || existing.writable || existing.configurable) {
    refuse("it must be a non-writable, non-configurable data property");
  }
  if (typeof value !== "object" || value === null || isProxy(value) || !isFrozen(value)) {
    refuse("it must be a frozen, non-Proxy object");
  }
  const target = value as object;
  if (getPrototypeOf(target) !== ObjectPrototype) refuse("it must be a plain object");
  let keyCount = 0;
  for (const key in target) {
    if (!hasOwn(target, key)) continue;
    keyCount += 1;
    if (key !== "version" && key !== "register" && key !== "isRegistered") {
      refuse(`unexpected field "${key}"`);
    }
  }
  const version = ownDataValue(target, "version");
  const register = ownDataValue(target, "register");
  const isRegistered = ownDataValue(target, "isRegistered");
  if (keyCount !== 3 || version !== 1) refuse("it must hold version 1 and two functions");
  if (typeof register !== "function" || typeof isRegistered !== "function") {
    refuse("register and isRegistered must be functions");
  }
  if (isProxy(register) || isProxy(isRegistered)) refuse("its functions must not be Proxies");
  const registerFn = register as (value: unknown) => unknown;
  const isRegisteredFn = isRegistered as (value: unknown) => unknown;
  return freeze({
    version: 1 as const,
    register: (candidate: unknown) => apply(registerFn, target, [candidate]) === true,
    isRegistered: (candidate: unknown) => apply(isRegisteredFn, target, [candidate]) === true,
  });
}
