/**
 * A validator's decision, read once from its own fields: valid with a value,
 * refused with the model's error text, or malformed. The codes of the error
 * results a call can be answered with live here too.
 */

import { hasOwn, isProxy } from "./intrinsics.js";
import { refuseIfAsync } from "./outcomes.js";
import { isNonBlankString } from "./own-fields.js";

/**
 * Codes of recoverable, model-visible error results, with who caused them:
 * `TOOL_NOT_FOUND` (the model named an unknown Tool), `TOOL_ARGUMENTS_INVALID`
 * (the model's arguments were rejected by the validator), `TOOL_VALIDATION_FAILED`
 * (the Tool's validator threw, answered asynchronously or malformed),
 * `TOOL_EXECUTION_FAILED` (the Tool threw or rejected), and
 * `TOOL_OUTPUT_SERIALIZATION_FAILED` (the Tool returned output that cannot be
 * written safely). With per-call options also `TOOL_TIMEOUT` (the Tool missed
 * its deadline), `TOOL_APPROVAL_DENIED` (the host's approval gate said no) and
 * `TOOL_APPROVAL_FAILED` (the approval gate threw or answered neither yes nor no).
 */
export type ToolResultErrorCode =
  | "TOOL_NOT_FOUND"
  | "TOOL_ARGUMENTS_INVALID"
  | "TOOL_VALIDATION_FAILED"
  | "TOOL_EXECUTION_FAILED"
  | "TOOL_OUTPUT_SERIALIZATION_FAILED"
  | "TOOL_TIMEOUT"
  | "TOOL_APPROVAL_DENIED"
  | "TOOL_APPROVAL_FAILED";

/** What the no-effect phase learned from a validator. */
export type Decision =
  | { readonly kind: "valid"; readonly value: unknown }
  | { readonly kind: "refused"; readonly code: ToolResultErrorCode; readonly message: string }
  | { readonly kind: "threw"; readonly thrown: unknown };

function refused(code: ToolResultErrorCode, message: string): Decision {
  return { kind: "refused", code, message };
}

function malformedDecision(): Decision {
  return refused(
    "TOOL_VALIDATION_FAILED",
    "Tool validator must return { ok: true, value } or { ok: false, error: non-blank string }",
  );
}

/** The fields of a validator's decision, as {@link inspectDecision} reads them. */
interface DecisionFields {
  readonly ok?: unknown;
  readonly value?: unknown;
  readonly error?: unknown;
}

/**
 * Reads a validator's decision from own fields; a Promise or thenable is
 * refused, its rejection observed. A throw while reading (an own getter) is
 * answered as `threw`, never thrown.
 *
 * @example
 * inspectDecision({ ok: false, error: "text must be a string" });
 * // { kind: "refused", code: "TOOL_ARGUMENTS_INVALID", message: "text must be a string" }
 */
export function inspectDecision(decision: unknown): Decision {
  if ((typeof decision !== "object" && typeof decision !== "function") || decision === null) {
    return malformedDecision();
  }
  if (isProxy(decision)) return malformedDecision();
  try {
    if (refuseIfAsync(decision)) {
      return refused(
        "TOOL_VALIDATION_FAILED",
        "Tool validator returned a Promise or thenable; validators must decide synchronously",
      );
    }
    // Each field read once, own fields only (no Proxy gets here): an own-key check, then a
    // read by name at a site of its own, which the engine specializes for the decision's
    // shape (a shared helper's one read site sees every shape and key).
    const fields = decision as DecisionFields;
    const ok = hasOwn(decision, "ok") ? fields.ok : undefined;
    if (ok === true) {
      if (hasOwn(decision, "value")) return { kind: "valid", value: fields.value };
    } else if (ok === false) {
      const error = hasOwn(decision, "error") ? fields.error : undefined;
      if (isNonBlankString(error)) return refused("TOOL_ARGUMENTS_INVALID", error);
    }
  } catch (thrown) {
    return { kind: "threw", thrown };
  }
  return malformedDecision();
}
