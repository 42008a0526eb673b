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
import { COURSE_LIMITS, courseContent, type SerializedOutput } from "./serializer.js";
import {
  type AbortWaiter,
  type AbortWatch,
  abortReason,
  isAborted,
  unwatchAbort,
  watchAbort,
} from "./signals.js";
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

/** A `toolContent` value's settings when nothing is configured: the course's cap, the part defaults. */
const COURSE_CONTENT_SETTINGS: ContentSettings = freeze({
  limits: COURSE_LIMITS,
  parts: PART_BUDGET_DEFAULTS,
  spill: undefined,
});

/**
 * Runs a validated call; calls `deliver` or `refuse` exactly once.
 *
 * The call's state and steps live on one object (the abort watch's waiter
 * too): a call used to allocate a dozen closures and their context before its
 * Tool ran, whatever path it took. Only the two callbacks that follow the
 * Tool's outcome, and those of an approval gate or a deadline when there is
 * one, are made as closures.
 */
export function runReadyCall(
  ready: ReadyCall,
  deliver: (message: CourseToolResultMessage) => void,
  refuse: (reason: unknown) => void,
): void {
  new RunningCall(ready, deliver, refuse).start();
}

/** One call's effect phase; settles exactly once. */
class RunningCall implements AbortWaiter {
  settled = false;
  /** The abort watch, once started (and so to be ended when the call settles). */
  watch: AbortWatch | undefined;
  timer: unknown;
  controller: AbortController | undefined;
  /** Whether the approval gate answered (or failed); later answers are ignored. */
  answered = false;

  constructor(
    readonly ready: ReadyCall,
    readonly deliver: (message: CourseToolResultMessage) => void,
    readonly refuse: (reason: unknown) => void,
  ) {
    const record = ready.record;
    if (record !== undefined) record.phase = ready.approve === undefined ? "execute" : "approval";
  }

  /** Hands a result on; the observer learns the outcome first, the caller right after. */
  resolve(message: CourseToolResultMessage): void {
    const record = this.ready.record;
    if (record !== undefined) endResolved(record, message);
    this.deliver(message);
  }

  reject(reason: unknown): void {
    const record = this.ready.record;
    if (record !== undefined) endRejected(record, reason, "cancelled");
    this.refuse(reason);
  }

  settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.watch !== undefined) unwatchAbort(this.watch, this);
    // Only a call with a deadline has a timer: the others skip the call into the timer module.
    if (this.timer !== undefined) stopTimer(this.timer);
    return true;
  }

  cancel(reason: unknown): void {
    if (this.settle()) this.reject(reason);
  }

  /** A registered NonRecoverableToolError: settles like a cancellation, observed as what it is. */
  fatal(thrown: unknown): void {
    const record = this.ready.record;
    if (record !== undefined && !this.settled) record.rejection = "non-recoverable";
    this.cancel(thrown);
  }

  fail(code: string, message: string): void {
    const { call, output, record } = this.ready;
    if (record !== undefined && !this.settled) record.code = code;
    if (this.settle()) {
      this.resolve(errorResultWithin(call, code, message, output?.errorLimits, output?.format));
    }
  }

  /** The run's signal aborted while the call waited (the watch's waiter). */
  onAbort(reason: unknown): void {
    if (!this.settle()) return;
    // Every running Tool sees the run's abort, with the run's reason.
    if (this.controller !== undefined) controllerAbort(this.controller, reason);
    this.reject(reason);
  }

  onFulfilled(output: unknown): void {
    if (this.settled) return;
    const { call, signal, record } = this.ready;
    // After resolution: an abort no listener has seen yet wins before the output is
    // inspected, so no Proxy prototype's trap and no spill hook runs for a cancelled call.
    if (isAborted(signal)) return this.cancel(abortReason(signal));
    if (record !== undefined) record.phase = "serialization";
    // A toolContent value, known by its brand (a WeakMap lookup that runs nothing of it).
    const parts = builtToolContent(output);
    if (parts !== undefined) return this.finishContent(parts);
    // The course's content as a plain string (no result object on the common path), or a
    // serializer's verdict.
    let serialized: string | SerializedOutput;
    try {
      const settings = this.ready.output;
      serialized =
        record !== undefined
          ? serializeObserved(output, settings, call, record)
          : settings === undefined
            ? courseContent(output)
            : serializeConfigured(output, settings, call);
    } catch (thrown) {
      // Only a Proxy prototype's one trap (or a patched Object.hasOwn) can throw here, or a
      // defect: a registered fatal error stays fatal, anything else fails the output.
      if (isRegisteredNonRecoverable(thrown)) return this.fatal(thrown);
      serialized = { ok: false, message: "Tool output could not be serialized" };
    }
    // After output inspection and the spill hook: an abort raised by a Proxy
    // prototype's trap or by the hook wins.
    if (isAborted(signal)) return this.cancel(abortReason(signal));
    if (typeof serialized !== "string") {
      if (!serialized.ok) {
        return this.fail("TOOL_OUTPUT_SERIALIZATION_FAILED", serialized.message);
      }
      serialized = serialized.content;
    }
    if (this.settle()) this.resolve(toolResultMessage(call, serialized, false));
  }

  finishContent(parts: readonly BuiltPart[]): void {
    const { call, signal, record } = this.ready;
    const settings = this.ready.output ?? COURSE_CONTENT_SETTINGS;
    let rendered: RenderedContent;
    try {
      rendered = renderToolContent(parts, settings, call, record);
    } catch (thrown) {
      // Nothing here throws for any output: the spill hook's throws are reported, and so is
      // text too long to be joined for it. A throw is a defect; the call still settles once.
      if (isRegisteredNonRecoverable(thrown)) return this.fatal(thrown);
      return this.fail("TOOL_OUTPUT_SERIALIZATION_FAILED", "Tool content could not be written");
    }
    if (record !== undefined) {
      // An observed call's facts: the budgets it ran under and whether its text was cut.
      record.limits = settings.limits;
      record.truncated = rendered.truncated;
    }
    // After the spill hook: an abort it raised wins.
    if (isAborted(signal)) return this.cancel(abortReason(signal));
    if (this.settle()) this.resolve(contentResultMessage(call, rendered.content, rendered.parts));
  }

  onRejected(thrown: unknown): void {
    if (this.settled) return;
    const signal = this.ready.signal;
    if (isAborted(signal)) return this.cancel(abortReason(signal));
    if (isRegisteredNonRecoverable(thrown)) return this.fatal(thrown);
    this.fail("TOOL_EXECUTION_FAILED", describeThrown(thrown, "Tool execution failed"));
  }

  onTimeout(toolController: AbortController): void {
    if (!this.settle()) return;
    const { call, output, record, timeoutMs } = this.ready;
    if (record !== undefined) record.code = "TOOL_TIMEOUT";
    const reason = new NativeDOMException(
      `Tool "${call.name}" did not finish within ${timeoutMs} ms`,
      "TimeoutError",
    );
    controllerAbort(toolController, reason);
    this.resolve(
      errorResultWithin(
        call,
        "TOOL_TIMEOUT",
        `Tool "${call.name}" did not finish within ${timeoutMs} ms and was asked to stop; ` +
          "it may still be running, and its effects are unknown",
        output?.errorLimits,
        output?.format,
      ),
    );
  }

  execute(): void {
    const { call, tool, value, signal, timeoutMs, record } = this.ready;
    if (record !== undefined) record.phase = "execute";
    let toolSignal = signal;
    if (timeoutMs !== undefined) {
      // The Tool gets its own signal: the deadline aborts it without aborting the run.
      const own = new NativeAbortController();
      this.controller = own;
      toolSignal = controllerSignal(own);
      this.timer = startTimer(() => this.onTimeout(own), timeoutMs);
    }
    let outcome: unknown;
    try {
      outcome =
        record === undefined
          ? tool.execute(value as never, freeze({ signal: toolSignal, toolCallId: call.id }))
          : executeObserved(record, call, tool, () =>
              tool.execute(value as never, freeze({ signal: toolSignal, toolCallId: call.id })),
            );
    } catch (thrown) {
      return this.onRejected(thrown);
    }
    // Followed even when already settled, so a late rejection is always observed.
    followOutcome(
      outcome,
      (output) => this.onFulfilled(output),
      (thrown) => this.onRejected(thrown),
    );
  }

  onAnswer(answer: unknown): void {
    if (this.answered || this.settled) return;
    this.answered = true;
    const signal = this.ready.signal;
    if (isAborted(signal)) return this.cancel(abortReason(signal));
    if (answer === true) return this.execute();
    if (answer === false) {
      return this.fail(
        "TOOL_APPROVAL_DENIED",
        "The host did not approve this Tool call; it did not run",
      );
    }
    this.fail("TOOL_APPROVAL_FAILED", "Approval must answer true or false; the Tool did not run");
  }

  onApprovalError(thrown: unknown): void {
    // Every path below settles the call, which ends the wait for an answer too.
    if (this.answered || this.settled) return;
    const signal = this.ready.signal;
    if (isAborted(signal)) return this.cancel(abortReason(signal));
    if (isRegisteredNonRecoverable(thrown)) return this.fatal(thrown);
    const why = describeThrown(thrown, "the approval gate threw");
    this.fail("TOOL_APPROVAL_FAILED", `Approval failed (${why}); the Tool did not run`);
  }

  start(): void {
    const { call, signal, tool, approve } = this.ready;
    if (isAborted(signal)) return this.cancel(abortReason(signal));
    // One watch for the whole effect phase: approval wait and execution alike.
    this.watch = watchAbort(signal, this);
    if (approve === undefined) return this.execute();
    let answer: unknown;
    try {
      answer = apply(approve, undefined, [call, tool]);
    } catch (thrown) {
      return this.onApprovalError(thrown);
    }
    followOutcome(
      answer,
      (value) => this.onAnswer(value),
      (thrown) => this.onApprovalError(thrown),
    );
  }
}
