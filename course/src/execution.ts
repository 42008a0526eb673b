/**
 * The effect phase of one Tool call: the optional approval gate, then
 * `execute` in a race with the run's signal and the optional deadline, then
 * the bounded serialization of the output. Settles exactly once.
 */

import { type CallRecord, endRejected, endResolved, executeObserved } from "./call-observer.js";
import { type ContentSettings, type RenderedContent, renderToolContent } from "./content-render.js";
import type { RegisteredCourseTool } from "./definitions.js";
import { describeThrown, isRegisteredNonRecoverable } from "./errors.js";
import {
  apply,
  controllerAbort,
  controllerSignal,
  freeze,
  NativeAbortController,
  NativeDOMException,
  startTimer,
  stopTimer,
} from "./intrinsics.js";
import { serializeObserved } from "./observed-output.js";
import { followOutcome } from "./outcomes.js";
import { PART_BUDGET_DEFAULTS } from "./output-budget.js";
import type { OutputSettings } from "./output-settings.js";
import { serializeConfigured } from "./output-spill.js";
import type { CourseToolCall, CourseToolResultMessage } from "./protocol.js";
import { COURSE_LIMITS, type SerializedOutput, serializeToolOutput } from "./serializer.js";
import { abortReason, isAborted, watchAbort } from "./signals.js";
import { type BuiltPart, builtToolContent } from "./tool-content.js";
import { contentResultMessage, errorResultWithin, toolResultMessage } from "./tool-results.js";

/** Everything the effect phase needs, fixed when the call was prepared. */
export interface ReadyCall {
  readonly call: CourseToolCall;
  readonly tool: RegisteredCourseTool;
  readonly value: unknown;
  readonly signal: AbortSignal;
  readonly timeoutMs: number | undefined;
  readonly approve:
    | ((call: CourseToolCall, tool: RegisteredCourseTool) => boolean | PromiseLike<boolean>)
    | undefined;
  /** Configured output settings; undefined for the course's budgets and marker. */
  readonly output: OutputSettings | undefined;
  /** The call's observation, when its registry has an observer that took it. */
  readonly record: CallRecord | undefined;
}

const noop = (): void => {};

/** A `toolContent` value's settings when nothing is configured: the course's cap, the part defaults. */
const COURSE_CONTENT_SETTINGS: ContentSettings = freeze({
  limits: COURSE_LIMITS,
  parts: PART_BUDGET_DEFAULTS,
  spill: undefined,
});

/** Runs a validated call; calls `resolve` or `reject` exactly once. */
export function runReadyCall(
  ready: ReadyCall,
  deliver: (message: CourseToolResultMessage) => void,
  refuse: (reason: unknown) => void,
): void {
  const { call, signal, record } = ready;
  let resolve = deliver;
  let reject = refuse;
  if (record !== undefined) {
    // The observer learns the outcome first, the caller right after, from the same place.
    resolve = (message) => {
      endResolved(record, message);
      deliver(message);
    };
    reject = (reason) => {
      endRejected(record, reason, "cancelled");
      refuse(reason);
    };
    record.phase = ready.approve === undefined ? "execute" : "approval";
  }
  let settled = false;
  let unwatch = noop;
  let timer: unknown;
  let controller: AbortController | undefined;

  const settle = (): boolean => {
    if (settled) return false;
    settled = true;
    unwatch();
    stopTimer(timer); // clearTimeout ignores undefined: no deadline, nothing to stop
    return true;
  };
  const cancel = (reason: unknown): void => {
    if (settle()) reject(reason);
  };
  // A registered NonRecoverableToolError: settles like a cancellation, observed as what it is.
  const fatal = (thrown: unknown): void => {
    if (record !== undefined && !settled) record.rejection = "non-recoverable";
    cancel(thrown);
  };
  const fail = (code: string, message: string): void => {
    if (record !== undefined && !settled) record.code = code;
    if (settle()) {
      resolve(
        errorResultWithin(call, code, message, ready.output?.errorLimits, ready.output?.format),
      );
    }
  };

  const onFulfilled = (output: unknown): void => {
    if (settled) return;
    // After resolution: an abort no listener has seen yet wins before the output is
    // inspected, so no Proxy prototype's trap and no spill hook runs for a cancelled call.
    if (isAborted(signal)) return cancel(abortReason(signal));
    if (record !== undefined) record.phase = "serialization";
    // A toolContent value, known by its brand (a WeakMap lookup that runs nothing of it).
    const parts = builtToolContent(output);
    if (parts !== undefined) return finishContent(parts);
    let serialized: SerializedOutput;
    try {
      const settings = ready.output;
      serialized =
        record !== undefined
          ? serializeObserved(output, settings, call, record)
          : settings === undefined
            ? serializeToolOutput(output)
            : serializeConfigured(output, settings, call);
    } catch (thrown) {
      // Only a Proxy prototype's one trap (or a patched Object.hasOwn) can throw here, or a
      // defect: a registered fatal error stays fatal, anything else fails the output.
      if (isRegisteredNonRecoverable(thrown)) return fatal(thrown);
      serialized = { ok: false, message: "Tool output could not be serialized" };
    }
    // After output inspection and the spill hook: an abort raised by a Proxy
    // prototype's trap or by the hook wins.
    if (isAborted(signal)) return cancel(abortReason(signal));
    if (!serialized.ok) return fail("TOOL_OUTPUT_SERIALIZATION_FAILED", serialized.message);
    if (settle()) resolve(toolResultMessage(call, serialized.content, false));
  };
  const finishContent = (parts: readonly BuiltPart[]): void => {
    let rendered: RenderedContent;
    try {
      rendered = renderToolContent(parts, ready.output ?? COURSE_CONTENT_SETTINGS, call);
    } catch (thrown) {
      // Only a defect can throw here (the spill hook's throws are reported, not thrown),
      // or a registered fatal error a spill hook's serialization met.
      if (isRegisteredNonRecoverable(thrown)) return fatal(thrown);
      return fail("TOOL_OUTPUT_SERIALIZATION_FAILED", "Tool content could not be written");
    }
    // After the spill hook: an abort it raised wins.
    if (isAborted(signal)) return cancel(abortReason(signal));
    if (settle()) resolve(contentResultMessage(call, rendered.content, rendered.parts));
  };
  const onRejected = (thrown: unknown): void => {
    if (settled) return;
    if (isAborted(signal)) return cancel(abortReason(signal));
    if (isRegisteredNonRecoverable(thrown)) return fatal(thrown);
    fail("TOOL_EXECUTION_FAILED", describeThrown(thrown, "Tool execution failed"));
  };

  const onTimeout = (toolController: AbortController): void => {
    if (!settle()) return;
    if (record !== undefined) record.code = "TOOL_TIMEOUT";
    const reason = new NativeDOMException(
      `Tool "${call.name}" did not finish within ${ready.timeoutMs} ms`,
      "TimeoutError",
    );
    controllerAbort(toolController, reason);
    resolve(
      errorResultWithin(
        call,
        "TOOL_TIMEOUT",
        `Tool "${call.name}" did not finish within ${ready.timeoutMs} ms and was asked to stop; ` +
          "it may still be running, and its effects are unknown",
        ready.output?.errorLimits,
        ready.output?.format,
      ),
    );
  };

  const execute = (): void => {
    if (record !== undefined) record.phase = "execute";
    let toolSignal = signal;
    if (ready.timeoutMs !== undefined) {
      // The Tool gets its own signal: the deadline aborts it without aborting the run.
      const own = new NativeAbortController();
      controller = own;
      toolSignal = controllerSignal(own);
      timer = startTimer(() => onTimeout(own), ready.timeoutMs);
    }
    let outcome: unknown;
    try {
      outcome =
        record === undefined
          ? ready.tool.execute(
              ready.value as never,
              freeze({ signal: toolSignal, toolCallId: call.id }),
            )
          : executeObserved(record, call, ready.tool, () =>
              ready.tool.execute(
                ready.value as never,
                freeze({ signal: toolSignal, toolCallId: call.id }),
              ),
            );
    } catch (thrown) {
      return onRejected(thrown);
    }
    // Followed even when already settled, so a late rejection is always observed.
    followOutcome(outcome, onFulfilled, onRejected);
  };

  let answered = false;
  const onAnswer = (answer: unknown): void => {
    if (answered || settled) return;
    answered = true;
    if (isAborted(signal)) return cancel(abortReason(signal));
    if (answer === true) return execute();
    if (answer === false) {
      return fail(
        "TOOL_APPROVAL_DENIED",
        "The host did not approve this Tool call; it did not run",
      );
    }
    fail("TOOL_APPROVAL_FAILED", "Approval must answer true or false; the Tool did not run");
  };
  const onApprovalError = (thrown: unknown): void => {
    // Every path below settles the call, which ends the wait for an answer too.
    if (answered || settled) return;
    if (isAborted(signal)) return cancel(abortReason(signal));
    if (isRegisteredNonRecoverable(thrown)) return fatal(thrown);
    const why = describeThrown(thrown, "the approval gate threw");
    fail("TOOL_APPROVAL_FAILED", `Approval failed (${why}); the Tool did not run`);
  };

  if (isAborted(signal)) return cancel(abortReason(signal));
  // One watch for the whole effect phase: approval wait and execution alike.
  unwatch = watchAbort(signal, {
    onAbort: (reason) => {
      if (!settle()) return;
      // Every running Tool sees the run's abort, with the run's reason.
      if (controller !== undefined) controllerAbort(controller, reason);
      reject(reason);
    },
  });
  const approve = ready.approve;
  if (approve === undefined) return execute();
  let answer: unknown;
  try {
    answer = apply(approve, undefined, [call, ready.tool]);
  } catch (thrown) {
    return onApprovalError(thrown);
  }
  followOutcome(answer, onAnswer, onApprovalError);
}
