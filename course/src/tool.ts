/**
 * The Tool module of checkpoint 06: `executeToolCall` turns an untrusted Tool
 * call into exactly one frozen, linked result message, a rejection with the
 * cancellation reason, or a rejection with a registered NonRecoverableToolError.
 * Definitions, the registry, the errors and the serializer live beside it and
 * are re-exported here, so this module is the whole public Tool surface.
 */

import type { RegisteredCourseTool } from "./definitions.ts";
import {
  contractError,
  describeThrown,
  isOwnedContractError,
  isRegisteredNonRecoverable,
} from "./errors.ts";
import {
  apply,
  freeze,
  isNativePromise,
  isProxy,
  NativePromise,
  promiseThen,
  reflectGet,
} from "./intrinsics.ts";
import {
  isNonBlankString,
  readOwnField,
  snapshotToolCall,
  toolErrorResult,
  toolResultMessage,
} from "./messages.ts";
import type { CourseToolCall, CourseToolResultMessage } from "./protocol.ts";
import { isToolRegistry, lookupTool, type ToolRegistry } from "./registry.ts";
import { type SerializedOutput, serializeToolOutput } from "./serializer.ts";
import { abortReason, isAborted, isAbortSignal, watchAbort } from "./signals.ts";

export type { AnyCourseTool, RegisteredCourseTool, ToolDefinition } from "./definitions.ts";
export { defineTool } from "./definitions.ts";
export type { ToolContractErrorCode } from "./errors.ts";
export { NonRecoverableToolError, ToolContractError } from "./errors.ts";
export { ToolRegistry } from "./registry.ts";
export {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS,
  COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  COURSE_TOOL_SERIALIZATION_MAX_DEPTH,
  COURSE_TOOL_SERIALIZATION_MAX_NODES,
  COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
} from "./serializer.ts";

/**
 * Codes of recoverable, model-visible error results, with who caused them:
 * `TOOL_NOT_FOUND` (the model named an unknown Tool), `TOOL_ARGUMENTS_INVALID`
 * (the model's arguments were rejected by the validator), `TOOL_VALIDATION_FAILED`
 * (the Tool's validator threw, answered asynchronously or malformed),
 * `TOOL_EXECUTION_FAILED` (the Tool threw or rejected), and
 * `TOOL_OUTPUT_SERIALIZATION_FAILED` (the Tool returned output that cannot be
 * written safely).
 */
export type ToolResultErrorCode =
  | "TOOL_NOT_FOUND"
  | "TOOL_ARGUMENTS_INVALID"
  | "TOOL_VALIDATION_FAILED"
  | "TOOL_EXECUTION_FAILED"
  | "TOOL_OUTPUT_SERIALIZATION_FAILED";

const ASYNC_VALIDATOR =
  "Tool validator returned a Promise or thenable; validators must decide synchronously";
const MALFORMED_DECISION =
  "Tool validator must return { ok: true, value } or { ok: false, error: non-blank string }";

const noop = (): void => {};

/** Marks a native promise's rejection as handled; a thrown species lookup is swallowed. */
function observe(value: unknown): void {
  if (!isNativePromise(value)) return;
  try {
    promiseThen(value as Promise<unknown>, noop, noop);
  } catch {
    // A hostile `constructor` getter can make `then` throw; nothing else to do.
  }
}

type Decision =
  | { readonly kind: "valid"; readonly value: unknown }
  | { readonly kind: "refused"; readonly code: ToolResultErrorCode; readonly message: string }
  | { readonly kind: "threw"; readonly thrown: unknown };

/**
 * Reads a validator's decision from own fields. A Promise or thenable is
 * refused after its rejection is observed: the `then` getter is read once and
 * a `then` function called once.
 */
function inspectDecision(decision: unknown): Decision {
  if ((typeof decision !== "object" && typeof decision !== "function") || decision === null) {
    return { kind: "refused", code: "TOOL_VALIDATION_FAILED", message: MALFORMED_DECISION };
  }
  if (isProxy(decision)) {
    return { kind: "refused", code: "TOOL_VALIDATION_FAILED", message: MALFORMED_DECISION };
  }
  if (isNativePromise(decision)) {
    observe(decision);
    return { kind: "refused", code: "TOOL_VALIDATION_FAILED", message: ASYNC_VALIDATOR };
  }
  try {
    const then = reflectGet(decision, "then");
    if (typeof then === "function") {
      try {
        observe(apply(then, decision, [noop, noop]));
      } catch {
        // Its throw is the thenable's own business; the decision is refused either way.
      }
      return { kind: "refused", code: "TOOL_VALIDATION_FAILED", message: ASYNC_VALIDATOR };
    }
    const ok = readOwnField(decision, "ok");
    if (ok.found && ok.value === true) {
      const value = readOwnField(decision, "value");
      if (value.found) return { kind: "valid", value: value.value };
    } else if (ok.found && ok.value === false) {
      const error = readOwnField(decision, "error");
      if (error.found && isNonBlankString(error.value)) {
        return { kind: "refused", code: "TOOL_ARGUMENTS_INVALID", message: error.value };
      }
    }
  } catch (thrown) {
    return { kind: "threw", thrown };
  }
  return { kind: "refused", code: "TOOL_VALIDATION_FAILED", message: MALFORMED_DECISION };
}

type Resolve = (message: CourseToolResultMessage) => void;
type Reject = (reason: unknown) => void;

/** Runs `execute` and waits for it in a race with the signal; settles exactly once. */
function runExecution(
  tool: RegisteredCourseTool,
  call: CourseToolCall,
  value: unknown,
  signal: AbortSignal,
  resolve: Resolve,
  reject: Reject,
): void {
  let settled = false;
  let unsubscribe = noop;
  const finish = (): boolean => {
    if (settled) return false;
    settled = true;
    unsubscribe();
    return true;
  };
  const onFulfilled = (output: unknown): void => {
    if (!finish()) return;
    if (isAborted(signal)) return reject(abortReason(signal));
    let serialized: SerializedOutput;
    try {
      serialized = serializeToolOutput(output);
    } catch (thrown) {
      // The serializer runs no user code; this guards against a defect, and keeps fatal errors fatal.
      if (isRegisteredNonRecoverable(thrown)) return reject(thrown);
      serialized = { ok: false, message: "Tool output could not be serialized" };
    }
    // After output inspection.
    if (isAborted(signal)) return reject(abortReason(signal));
    if (!serialized.ok) {
      return resolve(toolErrorResult(call, "TOOL_OUTPUT_SERIALIZATION_FAILED", serialized.message));
    }
    resolve(toolResultMessage(call, serialized.content, false));
  };
  const onRejected = (thrown: unknown): void => {
    if (!finish()) return;
    if (isAborted(signal)) return reject(abortReason(signal));
    if (isRegisteredNonRecoverable(thrown)) return reject(thrown);
    resolve(
      toolErrorResult(
        call,
        "TOOL_EXECUTION_FAILED",
        describeThrown(thrown, "Tool execution failed"),
      ),
    );
  };

  let outcome: unknown;
  try {
    outcome = tool.execute(value as never, freeze({ signal, toolCallId: call.id }));
  } catch (thrown) {
    return onRejected(thrown);
  }
  if ((typeof outcome === "object" || typeof outcome === "function") && outcome !== null) {
    if (isProxy(outcome)) {
      // Never ask a Proxy for `then`: hand it to the serializer, which refuses it trap-free.
      onFulfilled(outcome);
    } else if (isNativePromise(outcome)) {
      try {
        promiseThen(outcome as Promise<unknown>, onFulfilled, onRejected);
      } catch (thrown) {
        onRejected(thrown);
      }
    } else {
      try {
        const then = reflectGet(outcome, "then");
        if (typeof then === "function") observe(apply(then, outcome, [onFulfilled, onRejected]));
        else onFulfilled(outcome);
      } catch (thrown) {
        onRejected(thrown);
      }
    }
  } else {
    onFulfilled(outcome);
  }
  if (settled) return;
  if (isAborted(signal)) {
    // The Tool aborted the signal during its synchronous part; its promise stays observed.
    finish();
    return reject(abortReason(signal));
  }
  unsubscribe = watchAbort(signal, {
    onAbort: (reason) => {
      if (finish()) reject(reason);
    },
  });
}

function run(
  registry: unknown,
  toolCall: unknown,
  signal: unknown,
  resolve: Resolve,
  reject: Reject,
): void {
  if (!isAbortSignal(signal)) {
    return reject(contractError("INVALID_TOOL_CALL", "executeToolCall needs an AbortSignal"));
  }
  if (isAborted(signal)) return reject(abortReason(signal));
  if (!isToolRegistry(registry)) {
    return reject(contractError("INVALID_TOOL_CALL", "executeToolCall needs a ToolRegistry"));
  }
  let call: CourseToolCall;
  try {
    call = snapshotToolCall(toolCall);
  } catch (thrown) {
    // A hostile getter may abort and throw: the cancellation wins.
    if (isAborted(signal)) return reject(abortReason(signal));
    return reject(
      isOwnedContractError(thrown)
        ? thrown
        : contractError("INVALID_TOOL_CALL", "Tool call could not be read", { cause: thrown }),
    );
  }
  if (isAborted(signal)) return reject(abortReason(signal));
  const tool = lookupTool(registry, call.name);
  if (tool === undefined) {
    return resolve(toolErrorResult(call, "TOOL_NOT_FOUND", `Unknown Tool "${call.name}"`));
  }

  let decision: Decision;
  try {
    decision = inspectDecision(tool.validate(call.arguments));
  } catch (thrown) {
    decision = { kind: "threw", thrown };
  }
  // After validation, including any getters on a rejected decision.
  if (isAborted(signal)) return reject(abortReason(signal));
  if (decision.kind === "threw") {
    if (isRegisteredNonRecoverable(decision.thrown)) return reject(decision.thrown);
    const message = describeThrown(decision.thrown, "Tool validation failed");
    return resolve(toolErrorResult(call, "TOOL_VALIDATION_FAILED", message));
  }
  if (decision.kind === "refused") {
    return resolve(toolErrorResult(call, decision.code, decision.message));
  }
  runExecution(tool, call, decision.value, signal, resolve, reject);
}

/**
 * Executes one untrusted Tool call behind the boundary. Resolves with exactly
 * one frozen result message linked to the call (`isError: true` for unknown
 * Tools, rejected arguments, failing validators or Tools, and unsafe output),
 * or rejects with the signal's reason when cancelled, with a registered
 * NonRecoverableToolError, or with ToolContractError INVALID_TOOL_CALL for a
 * malformed call, registry or signal. Never throws synchronously.
 *
 * @example
 * const result = await executeToolCall(registry, { type: "toolCall", id: "call-1", name: "echo", arguments: { text: "hi" } }, controller.signal);
 * // { id: "tool-result-call-1", role: "toolResult", toolCallId: "call-1", toolName: "echo", content: '{"text":"hi"}', isError: false }
 */
export function executeToolCall(
  registry: ToolRegistry,
  toolCall: CourseToolCall,
  signal: AbortSignal,
): Promise<CourseToolResultMessage> {
  return new NativePromise<CourseToolResultMessage>((resolve, reject) => {
    try {
      run(registry, toolCall, signal, resolve, reject);
    } catch (thrown) {
      // Unreachable by design; a defect here must still reject, never throw.
      reject(thrown);
    }
  });
}
