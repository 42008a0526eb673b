/**
 * The two error classes of the Tool boundary and the shared provenance registry
 * that lets a NonRecoverableToolError cross it.
 */

import {
  defineProperty,
  freeze,
  isProxy,
  NativeTypeError,
  NativeWeakSet,
  weakSetAdd,
  weakSetHas,
} from "./intrinsics.js";
import { ownDataValue } from "./own-fields.js";
import { BRAND, FATAL_CODE, FATAL_NAME, installProvenance } from "./provenance.js";

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

const provenance = installProvenance(globalThis);

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
