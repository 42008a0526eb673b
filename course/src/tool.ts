/**
 * The Tool module of checkpoint 06: `executeToolCall` turns an untrusted Tool
 * call into exactly one frozen, linked result message, a rejection with the
 * cancellation reason, or a rejection with a registered NonRecoverableToolError.
 * Definitions, the registry, the errors and the serializer live beside it and
 * are re-exported here, so this module is the whole public Tool surface.
 */

import {
  type CallRecord,
  endRejected,
  endResolved,
  resumeObservation,
  startObservation,
} from "./call-observer.js";
import {
  type CallOptions,
  jsonTextExceeds,
  readCallOptions,
  resolveTimeout,
  type ToolCallOptions,
} from "./call-options.js";
import { invalidArgumentsReason, takeToolCall } from "./call-snapshot.js";
import { toolOutputFields } from "./definitions.js";
import {
  contractError,
  describeThrown,
  isOwnedContractError,
  isRegisteredNonRecoverable,
} from "./errors.js";
import { type ReadyCall, runReadyCall } from "./execution.js";
import { freeze, NativePromise } from "./intrinsics.js";
import { type OutputSettings, resolveOutputSettings } from "./output-settings.js";
import { isMarkable, MarkHost } from "./private-marks.js";
import type { CourseToolCall, CourseToolResultMessage } from "./protocol.js";
import {
  isToolRegistry,
  lookupTool,
  registryObserver,
  registryOutput,
  type ToolRegistry,
} from "./registry.js";
import { abortReason, isAborted, isAbortSignal } from "./signals.js";
import { errorResultWithin } from "./tool-results.js";
import { type Decision, inspectDecision, type ToolResultErrorCode } from "./validator-decision.js";

export type { ToolCallOptions } from "./call-options.js";
export type { AnyCourseTool, RegisteredCourseTool, ToolDefinition } from "./definitions.js";
export { defineTool } from "./definitions.js";
export type { ToolContractErrorCode } from "./errors.js";
export { NonRecoverableToolError, ToolContractError } from "./errors.js";
export type { OutputBudget, TruncateStrategy } from "./output-budget.js";
export type {
  OutputOptions,
  OutputSpill,
  OutputSpillErrorHandler,
  OutputSpillInfo,
} from "./output-settings.js";
export type { ToolRegistryOptions } from "./registry.js";
export { ToolRegistry } from "./registry.js";
export {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS,
  COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  COURSE_TOOL_SERIALIZATION_MAX_DEPTH,
  COURSE_TOOL_SERIALIZATION_MAX_NODES,
  COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
} from "./serializer.js";
export type { ToolResultErrorCode } from "./validator-decision.js";

/**
 * A Tool call after the no-effect phase (snapshot, lookup, argument budget,
 * validation): `call` is the frozen snapshot; `result` is the linked error
 * result when that phase already decided the outcome, else undefined. Pass
 * it to {@link runPreparedToolCall} once.
 */
export interface PreparedToolCall {
  readonly call: CourseToolCall;
  readonly result: CourseToolResultMessage | undefined;
}

/** The no-effect phase's outcome: ready to run, or already decided (`result`). */
type Preparation =
  | (ReadyCall & { readonly result: undefined })
  | { readonly call: CourseToolCall; readonly result: CourseToolResultMessage };

/**
 * What a public handle leaves for the effect phase, kept with the handle (see
 * private-marks.ts); taken once, so a handle runs at most once.
 */
class PendingMark extends MarkHost {
  #next: Preparation | undefined;

  constructor(handle: object, next: Preparation) {
    super(handle);
    this.#next = next;
  }

  /** The preparation `value` holds, left empty; undefined for anything else or a handle already run. */
  static take(value: unknown): Preparation | undefined {
    if (!isMarkable(value) || !(#next in value)) return undefined;
    const next = value.#next;
    value.#next = undefined;
    return next;
  }
}

function rejectIfAborted(signal: AbortSignal, record: CallRecord | undefined): void {
  if (!isAborted(signal)) return;
  if (record !== undefined) record.rejection = "cancelled";
  throw abortReason(signal);
}

/** The call's observation when `registry` has an observer (one private-field check otherwise). */
function observe(registry: unknown): CallRecord | undefined {
  const slot = registryObserver(registry);
  return slot === undefined ? undefined : startObservation(slot);
}

/**
 * Runs the no-effect phase of a Tool call synchronously: checks the signal,
 * snapshots the call, finds the Tool, applies the argument budget and runs the
 * validator. Nothing the Tool does as an effect has happened when it returns.
 * Throws the signal's reason when cancelled, a registered
 * NonRecoverableToolError from the validator, or ToolContractError
 * INVALID_TOOL_CALL for a malformed call, registry, signal or options.
 *
 * @example
 * const prepared = prepareToolCall(registry, call, signal);
 * if (prepared.result === undefined) console.log(`${prepared.call.name} is about to run`);
 * const result = await runPreparedToolCall(prepared);
 */
export function prepareToolCall(
  registry: ToolRegistry,
  toolCall: CourseToolCall,
  signal: AbortSignal,
  options?: ToolCallOptions,
): PreparedToolCall {
  const record = observe(registry);
  let preparation: Preparation;
  try {
    preparation = prepareCall(registry, toolCall, signal, options, record, true);
  } catch (thrown) {
    if (record !== undefined) endRejected(record, thrown, "contract-error");
    throw thrown;
  }
  // An outcome decided without effects ends its observation now, run or not.
  if (record !== undefined && preparation.result !== undefined) {
    endResolved(record, preparation.result);
  }
  const handle: PreparedToolCall = { call: preparation.call, result: preparation.result };
  // Marked before it is frozen: the handle itself holds what its run needs, privately.
  new PendingMark(handle, preparation);
  return freeze(handle);
}

function decided(call: CourseToolCall, result: CourseToolResultMessage): Preparation {
  return { call, result };
}

/**
 * The linked error result of a call decided without effects, under the
 * call's output settings (an unknown Tool has no level of its own); an
 * observed call's record learns the code.
 */
function answered(
  call: CourseToolCall,
  output: OutputSettings | undefined,
  record: CallRecord | undefined,
  code: ToolResultErrorCode,
  message: string,
): CourseToolResultMessage {
  if (record !== undefined) record.code = code;
  return errorResultWithin(call, code, message, output?.errorLimits, output?.format);
}

/**
 * The no-effect phase itself; throws what `executeToolCall` rejects with.
 * An observed call's `record` learns the phase reached, the call, the Tool,
 * an error result's code and a cancellation or fatal error as they happen.
 * `shown`: whether the caller hands the call on (a prepared handle does).
 */
function prepareCall(
  registry: unknown,
  toolCall: unknown,
  signal: unknown,
  options: unknown,
  record: CallRecord | undefined,
  shown: boolean,
): Preparation {
  if (!isAbortSignal(signal)) {
    throw contractError("INVALID_TOOL_CALL", "executeToolCall needs an AbortSignal");
  }
  rejectIfAborted(signal, record);
  if (!isToolRegistry(registry)) {
    throw contractError("INVALID_TOOL_CALL", "executeToolCall needs a ToolRegistry");
  }
  let settings: CallOptions;
  let call: CourseToolCall;
  try {
    settings = readCallOptions(options);
    // The copy is frozen where code outside will see it: an observer's record, the approval
    // gate, a prepared handle. Otherwise it stays ours alone (see takeToolCall).
    call = takeToolCall(toolCall, shown || record !== undefined || settings.approve !== undefined);
  } catch (thrown) {
    // A hostile getter may abort and throw: the cancellation wins.
    rejectIfAborted(signal, record);
    // Only our checks' own errors pass: both readers wrap whatever a getter throws (a contract
    // error of ours it rethrows included), so a value thrown by user code is never passed on.
    throw isOwnedContractError(thrown)
      ? thrown
      : contractError("INVALID_TOOL_CALL", "Tool call could not be read", { cause: thrown });
  }
  rejectIfAborted(signal, record);
  if (record !== undefined) {
    record.call = call;
    record.phase = "lookup";
  }
  const tool = lookupTool(registry, call.name);
  // Error results obey the call's output budget too; an unknown Tool has no level of its own.
  const output = resolveOutputSettings(
    settings.output,
    toolOutputFields(tool),
    registryOutput(registry),
  );
  if (tool === undefined) {
    const result = answered(call, output, record, "TOOL_NOT_FOUND", `Unknown Tool "${call.name}"`);
    return decided(call, result);
  }
  if (record !== undefined) {
    record.tool = tool;
    record.phase = "validation";
  }
  // A provider's argument text that could not be read: answered, never validated or run. Only
  // one of our snapshots, passed in as it is, can carry one (a missed private-field check is slow).
  const refusal = call === toolCall ? invalidArgumentsReason(call) : undefined;
  if (refusal !== undefined) {
    return decided(call, answered(call, output, record, "TOOL_ARGUMENTS_INVALID", refusal));
  }
  if (jsonTextExceeds(call.arguments, settings.maxArgumentCharacters)) {
    const result = answered(
      call,
      output,
      record,
      "TOOL_ARGUMENTS_INVALID",
      `Tool arguments are longer than ${settings.maxArgumentCharacters} characters of JSON`,
    );
    return decided(call, result);
  }
  let decision: Decision;
  try {
    decision = inspectDecision(tool.validate(call.arguments));
  } catch (thrown) {
    decision = { kind: "threw", thrown };
  }
  // After validation, including any getters on a rejected decision.
  rejectIfAborted(signal, record);
  if (decision.kind === "threw") {
    if (isRegisteredNonRecoverable(decision.thrown)) {
      if (record !== undefined) record.rejection = "non-recoverable";
      throw decision.thrown;
    }
    const message = describeThrown(decision.thrown, "Tool validation failed");
    const result = answered(call, output, record, "TOOL_VALIDATION_FAILED", message);
    return decided(call, result);
  }
  if (decision.kind === "refused") {
    const result = answered(call, output, record, decision.code, decision.message);
    return decided(call, result);
  }
  let timeoutMs: number | undefined;
  try {
    timeoutMs = resolveTimeout(settings, tool.name);
  } catch (thrown) {
    // resolveTimeout wraps a throw of the timeoutMs function itself: what is ours here is ours.
    throw isOwnedContractError(thrown)
      ? thrown
      : contractError("INVALID_TOOL_CALL", "timeoutMs could not be resolved", { cause: thrown });
  }
  if (record !== undefined) record.timeoutMs = timeoutMs;
  return {
    call,
    tool,
    value: decision.value,
    signal,
    timeoutMs,
    approve: settings.approve,
    output,
    record,
    result: undefined,
  };
}

/**
 * Runs the effect phase of a prepared call (approval, `execute`, bounded
 * serialization) and settles like {@link executeToolCall}. A handle runs once;
 * a second run, or a handle not made by `prepareToolCall`, rejects with
 * ToolContractError INVALID_TOOL_CALL. Never throws synchronously.
 */
export function runPreparedToolCall(prepared: PreparedToolCall): Promise<CourseToolResultMessage> {
  return new NativePromise<CourseToolResultMessage>((resolve, reject) => {
    // The mark answers undefined for a primitive, a Proxy or any object we did not make.
    const next = PendingMark.take(prepared);
    if (next === undefined) {
      return reject(
        contractError("INVALID_TOOL_CALL", "not a prepared Tool call, or it already ran"),
      );
    }
    if (next.result !== undefined) return resolve(next.result);
    if (next.record !== undefined) resumeObservation(next.record);
    runReadyCall(next, resolve, reject);
  });
}

/**
 * Executes one untrusted Tool call behind the boundary. Resolves with exactly
 * one frozen result message linked to the call (`isError: true` for unknown
 * Tools, rejected arguments, failing validators or Tools, and unsafe output),
 * or rejects with the signal's reason when cancelled, with a registered
 * NonRecoverableToolError, or with ToolContractError INVALID_TOOL_CALL for a
 * malformed call, registry or signal. Never throws synchronously. The optional
 * `options` add a deadline, an approval gate and an argument budget; without
 * them the behaviour is exactly the course's.
 *
 * @example
 * const result = await executeToolCall(registry, { type: "toolCall", id: "call-1", name: "echo", arguments: { text: "hi" } }, controller.signal);
 * // { id: "tool-result-call-1", role: "toolResult", toolCallId: "call-1", toolName: "echo", content: '{"text":"hi"}', isError: false }
 */
export function executeToolCall(
  registry: ToolRegistry,
  toolCall: CourseToolCall,
  signal: AbortSignal,
  options?: ToolCallOptions,
): Promise<CourseToolResultMessage> {
  return new NativePromise<CourseToolResultMessage>((resolve, reject) => {
    const record = observe(registry);
    let preparation: Preparation;
    try {
      preparation = prepareCall(registry, toolCall, signal, options, record, false);
    } catch (thrown) {
      if (record !== undefined) endRejected(record, thrown, "contract-error");
      return reject(thrown);
    }
    if (preparation.result !== undefined) {
      if (record !== undefined) endResolved(record, preparation.result);
      return resolve(preparation.result);
    }
    runReadyCall(preparation, resolve, reject);
  });
}
