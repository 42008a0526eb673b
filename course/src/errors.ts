/**
 * The two error classes of the Tool boundary and the shared provenance registry
 * that lets a NonRecoverableToolError cross it.
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
  NativeTypeError,
  NativeWeakSet,
  ObjectPrototype,
  weakSetAdd,
  weakSetHas,
} from "./intrinsics.ts";
import { ownDataValue } from "./own-fields.ts";

/**
 * Codes of {@link ToolContractError}; every one is the host's mistake:
 * `INVALID_TOOL_DEFINITION` (a bad Tool definition), `INVALID_TOOL_BATCH` (a bad
 * array given to `registerMany`), `DUPLICATE_TOOL_NAME` (a name registered twice),
 * `INVALID_TOOL_CALL` (a malformed call, registry or signal given to `executeToolCall`).
 */
export type ToolContractErrorCode =
  | "INVALID_TOOL_DEFINITION"
  | "INVALID_TOOL_BATCH"
  | "DUPLICATE_TOOL_NAME"
  | "INVALID_TOOL_CALL";

function isContractErrorCode(code: unknown): code is ToolContractErrorCode {
  return (
    code === "INVALID_TOOL_DEFINITION" ||
    code === "INVALID_TOOL_BATCH" ||
    code === "DUPLICATE_TOOL_NAME" ||
    code === "INVALID_TOOL_CALL"
  );
}

/** Instances this module threw itself; a user's `new ToolContractError()` is not among them. */
const ownedContractErrors = new NativeWeakSet<object>();

/**
 * A programmer error at the boundary: a bad definition, batch or call. The
 * instance is frozen.
 *
 * @example
 * try { defineTool({}) } catch (error) {
 *   if (error instanceof ToolContractError) console.log(error.code); // "INVALID_TOOL_DEFINITION"
 * }
 */
export class ToolContractError extends Error {
  /** Which contract was broken. */
  readonly code: ToolContractErrorCode;

  constructor(code: ToolContractErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    if (!isContractErrorCode(code)) {
      throw new NativeTypeError(`Unknown ToolContractError code "${String(code)}"`);
    }
    defineProperty(this, "name", { value: "ToolContractError", enumerable: false });
    this.code = code;
    freeze(this);
  }
}

/** Creates a ToolContractError and records that this module threw it. */
export function contractError(
  code: ToolContractErrorCode,
  message: string,
  options?: { readonly cause: unknown },
): ToolContractError {
  const error =
    options === undefined
      ? new ToolContractError(code, message)
      : new ToolContractError(code, message, { cause: options.cause });
  weakSetAdd(ownedContractErrors, error);
  return error;
}

/** True only for a ToolContractError that this module created (never a user's copy). */
export function isOwnedContractError(value: unknown): boolean {
  return weakSetHas(ownedContractErrors, value);
}

const BRAND = Symbol.for("pify.course.NonRecoverableToolError.brand.v1");
const PROVENANCE = Symbol.for("pify.course.NonRecoverableToolError.provenance.v1");
const FATAL_NAME = "NonRecoverableToolError";
const FATAL_CODE = "NON_RECOVERABLE_TOOL_ERROR";

/** The shape kept on `globalThis` so that every copy of this module shares one registry. */
export interface NonRecoverableProvenance {
  readonly version: 1;
  register(value: unknown): boolean;
  isRegistered(value: unknown): boolean;
}

function createProvenance(): NonRecoverableProvenance {
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
 * Finds the registry another copy of this module installed, or installs one.
 * A property of the wrong shape makes the module refuse to load: trusting it
 * would let whoever planted it decide which errors stop a run.
 */
function installProvenance(): NonRecoverableProvenance {
  const existing = getOwnPropertyDescriptor(globalThis, PROVENANCE);
  if (existing === undefined) {
    const created = createProvenance();
    const installed = defineProperty(globalThis, PROVENANCE, {
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

const provenance = installProvenance();

/**
 * Thrown by a Tool (or its validator) to stop the whole Agent run instead of
 * reporting a recoverable error to the model. Reserved for broken invariants
 * and programmer failures. The instance, a subclass's too, is frozen, branded
 * and registered in a registry shared across module reloads; a look-alike
 * built from fields or from `Object.create(prototype)` stays recoverable.
 * The brand is discoverable by any code in the realm: it is not a security
 * boundary.
 *
 * @example
 * execute: async () => { throw new NonRecoverableToolError("ledger checksum mismatch") }
 */
export class NonRecoverableToolError extends Error {
  /** Always `"NON_RECOVERABLE_TOOL_ERROR"`. */
  readonly code = FATAL_CODE;
  /** Always `true`. */
  readonly nonRecoverable = true;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    defineProperty(this, "name", { value: FATAL_NAME, enumerable: false });
    defineProperty(this, BRAND, { value: true, enumerable: false });
    freeze(this);
    provenance.register(this);
  }
}

/** True when `value` is a registered NonRecoverableToolError from any copy of this module. */
export function isRegisteredNonRecoverable(value: unknown): boolean {
  return provenance.isRegistered(value);
}

/**
 * The text a model may read about a thrown value: its own data `message` when
 * that is a non-empty string, a non-empty thrown string as-is, else `fallback`.
 * Getters never run and Proxies are never touched.
 */
export function describeThrown(value: unknown, fallback: string): string {
  if (typeof value === "string") return value.length > 0 ? value : fallback;
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return fallback;
  if (isProxy(value)) return fallback;
  const message = ownDataValue(value, "message");
  return typeof message === "string" && message.length > 0 ? message : fallback;
}
