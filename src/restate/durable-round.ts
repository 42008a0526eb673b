/**
 * One durable round in motion. Every call is prepared (validated) in call
 * order, with no effect and no journal entry; then calls start in call order,
 * at most `concurrency` at once, each through its journaled approval and its
 * own durable step raced with its durable deadline; results are reported and
 * budgeted in call order, and the round settles once.
 *
 * Why one loop that awaits one `RestatePromise.race` at a time: every journal
 * command (a step, a timer) must be issued in the same order on a replay as on
 * the first run. Restate resolves its own combinators from the journal's order
 * of completions, so the call that "finished first" is the same on every
 * replay, and so is every command the loop issues after it.
 */

import {
  type CourseToolCall,
  type CourseToolResultMessage,
  type PreparedToolCall,
  prepareToolCall,
  type RegisteredCourseTool,
  runPreparedToolCall,
  type ToolCallOptions,
  ToolContractError,
  type ToolRegistry,
} from "../../course/src/index.ts";
import { lookupTool } from "../../course/src/internal.ts";
import { RoundBudget } from "../rounds/index.ts";
import { finishedEvent, RoundEvents, startedEvent } from "../rounds/round-events.ts";
import { askGate, type JournaledApproval, readApproval, replayGate } from "./approval-step.ts";
import { deadlineReason, deadlineResult, resolveDeadline } from "./durable-deadline.ts";
import type { DurableSettings } from "./durable-options.ts";
import { terminalFromFatal } from "./fatal-errors.ts";
import { durableIdempotencyKey, registerIdempotencyKey } from "./idempotency-key.ts";
import { fitJournal, journalCallOptions, journalRoomRefusal } from "./journal-budget.ts";
import { fromJournal, type JournaledResult, toJournal } from "./journal-entry.ts";
import {
  addEventListener,
  controllerAbort,
  controllerSignal,
  freeze,
  ownDataValue,
  promiseThen,
  removeEventListener,
  signalReason,
  store,
  weakMapGet,
  weakMapSet,
} from "./restate-intrinsics.ts";
import { type DurableContext, RestatePromise, TerminalError } from "./restate-sdk.ts";

/** The journal name of a call's durable step (Restate's UI shows it). */
export const stepName = (call: CourseToolCall): string => `toolCall:${call.id}`;
/** The journal name of a call's approval step. */
export const approvalStepName = (call: CourseToolCall): string => `toolApproval:${call.id}`;
/** The journal name of a call's deadline timer. */
export const deadlineName = (call: CourseToolCall): string => `toolDeadline:${call.id}`;

/** What a call's current step brought. */
type Progress =
  | { readonly kind: "approval"; readonly decision: JournaledApproval }
  | { readonly kind: "result"; readonly result: CourseToolResultMessage }
  | { readonly kind: "deadline" };

/** Why the round stopped a call's Tool itself: its step's own outcome no longer decides. */
type Abandonment =
  | { readonly kind: "deadline"; readonly result: CourseToolResultMessage }
  | { readonly kind: "stopped"; readonly reason: unknown };

interface CallState {
  readonly index: number;
  readonly call: CourseToolCall;
  readonly tool: RegisteredCourseTool | undefined;
  readonly prepared: PreparedToolCall;
  readonly controller: AbortController;
  readonly timeoutMs: number | undefined;
  decision: JournaledApproval | undefined;
  current: RestatePromise<Progress> | undefined;
  abandoned: Abandonment | undefined;
}

/** What a round needs, checked and snapshotted by the public functions. */
export interface DurableRoundInput {
  readonly ctx: DurableContext;
  readonly registry: ToolRegistry;
  readonly calls: readonly CourseToolCall[];
  readonly settings: DurableSettings;
  readonly resolve: (results: readonly CourseToolResultMessage[]) => void;
  readonly reject: (reason: unknown) => void;
}

/** Drives one round; `start()` once, then `resolve` or `reject` exactly once. */
export class DurableRound {
  readonly #input: DurableRoundInput;
  readonly #delivery: RoundEvents;
  readonly #budget: RoundBudget;
  readonly #states: CallState[] = [];
  readonly #inFlight: CallState[] = [];
  readonly #settled: (CourseToolResultMessage | undefined)[] = [];
  readonly #final: CourseToolResultMessage[] = [];
  #reported = 0;
  #next = 0;
  #done = false;
  #attempt: AbortSignal | undefined;
  readonly #byCall = new WeakMap<CourseToolCall, CallState>();

  constructor(input: DurableRoundInput) {
    this.#input = input;
    this.#delivery = new RoundEvents(input.settings.onEvent, input.settings.onEventError);
    this.#budget = new RoundBudget(input.settings.maxRoundCharacters);
  }

  /** Prepares every call (throwing what rejects the round), then drives the round. */
  start(): void {
    this.#prepareAll();
    this.#watchAttempt();
    // A cancellation (Restate's CancelledError) or a defect in the loop rejects the round.
    promiseThen(this.#drive(), undefined, (reason) => this.#fail(reason));
  }

  /** Phase one, no effects and no journal entry: every validator runs, in call order. */
  #prepareAll(): void {
    const { ctx, registry, calls, settings } = this.#input;
    const invocationId = String(ctx.request().id);
    const options = this.#coreOptions();
    for (let index = 0; index < calls.length; index += 1) {
      const call = calls[index] as CourseToolCall;
      const controller = new AbortController();
      const signal = controllerSignal(controller);
      registerIdempotencyKey(signal, durableIdempotencyKey(invocationId, call.id));
      // A call no result of which could be journaled (its id alone too long) ends the round
      // before any Tool runs: journaled, its step would fail and run the Tool at every retry.
      const roomRefusal = journalRoomRefusal(call, settings.maxJournalBytes);
      if (roomRefusal !== undefined) throw new TerminalError(roomRefusal);
      let prepared: PreparedToolCall;
      try {
        // The parts' total budget lowered where the journal's limit leaves less room (journal-budget.ts).
        const fitted = journalCallOptions(
          options,
          settings.callOutput,
          registry,
          call,
          settings.maxJournalBytes,
        );
        prepared = prepareToolCall(registry, call, signal, fitted);
      } catch (thrown) {
        // The host's mistake stays a ToolContractError; anything else the core throws
        // here is a registered NonRecoverableToolError from the validator.
        throw thrown instanceof ToolContractError ? thrown : terminalFromFatal(thrown, call);
      }
      const timeoutMs =
        prepared.result === undefined ? resolveDeadline(settings.timeoutMs, call.name) : undefined;
      const state: CallState = {
        index,
        call: prepared.call,
        tool: lookupTool(registry, prepared.call.name),
        prepared,
        controller,
        timeoutMs,
        decision: undefined,
        current: undefined,
        abandoned: undefined,
      };
      store(this.#states, index, state);
      // Its own slot before any Tool runs: a hole would be read through Array.prototype (see
      // the round runner), where a planted getter could answer a result for this call.
      store(this.#settled, index, undefined);
      weakMapSet(this.#byCall, prepared.call, state);
    }
  }

  /** The core's options, with a gate that answers each call's journaled decision. */
  #coreOptions(): ToolCallOptions {
    const { coreOptions, approve } = this.#input.settings;
    if (approve === undefined) return coreOptions;
    const states = this.#byCall;
    return freeze({
      ...coreOptions,
      // The core hands its gate the very snapshot it prepared, which keys the call's state.
      approve: (call: CourseToolCall) => {
        const decision = weakMapGet(states, call)?.decision;
        // Only a call whose decision is journaled reaches the core's gate.
        if (decision === undefined) throw new Error("no journaled approval for this call");
        return replayGate(decision)();
      },
    });
  }

  /** When the Restate attempt ends (the connection dropped, say), running Tools are stopped. */
  #watchAttempt(): void {
    const attempt = this.#input.ctx.request().attemptCompletedSignal;
    if (!(attempt instanceof AbortSignal)) return;
    this.#attempt = attempt;
    addEventListener(attempt, "abort", this.#onAttemptEnd);
  }

  readonly #onAttemptEnd = (): void => {
    // The engine replays the handler on its next attempt; this one only stops its Tools.
    const reason = this.#attempt === undefined ? undefined : signalReason(this.#attempt);
    this.#stopAll(reason);
  };

  async #drive(): Promise<void> {
    const { concurrency } = this.#input.settings;
    const total = this.#states.length;
    for (;;) {
      while (!this.#done && this.#inFlight.length < concurrency && this.#next < total) {
        const state = this.#states[this.#next] as CallState;
        this.#next += 1;
        this.#launch(state);
      }
      if (this.#done) return;
      if (this.#inFlight.length === 0) return this.#finish();
      let arrival: Arrival;
      if (this.#inFlight.length === 1) {
        // One call in flight: nothing to choose between, no combinator to build.
        arrival = await arrivalOf(this.#inFlight[0] as CallState);
      } else {
        const waiting: RestatePromise<Arrival>[] = [];
        for (let index = 0; index < this.#inFlight.length; index += 1) {
          store(waiting, index, arrivalOf(this.#inFlight[index] as CallState));
        }
        arrival = await RestatePromise.race(waiting);
      }
      if (this.#done) return;
      await this.#advance(arrival);
    }
  }

  #launch(state: CallState): void {
    store(this.#inFlight, this.#inFlight.length, state);
    this.#delivery.emit(startedEvent(state.index, state.call));
    const decided = state.prepared.result;
    // Decided by validation: deterministic, so nothing is journaled.
    if (decided !== undefined) return this.#settle(state, decided);
    const gate = this.#input.settings.approve;
    if (gate === undefined) return this.#startStep(state);
    const { ctx } = this.#input;
    const { call, tool } = state;
    state.current = ctx
      .run(approvalStepName(call), () => askGate(gate, call, tool as RegisteredCourseTool))
      .map((value, failure): Progress => {
        if (failure !== undefined) throw failure;
        return { kind: "approval", decision: readApproval(value, call) };
      });
  }

  #startStep(state: CallState): void {
    const { ctx } = this.#input;
    const { call, timeoutMs } = state;
    const step = ctx
      .run(stepName(call), () => this.#execute(state))
      .map((value, failure): Progress => {
        if (failure !== undefined) throw failure;
        return { kind: "result", result: fromJournal(value, call) };
      });
    if (timeoutMs === undefined) {
      state.current = step;
      return;
    }
    const deadline = ctx.sleep(timeoutMs, deadlineName(call)).map((_, failure): Progress => {
      if (failure !== undefined) throw failure;
      return { kind: "deadline" };
    });
    state.current = RestatePromise.race([step, deadline]);
  }

  /** The durable step: the core's effect phase and serialization, journaled as the bounded result. */
  async #execute(state: CallState): Promise<JournaledResult> {
    try {
      const entry = toJournal(await runPreparedToolCall(state.prepared));
      // Restate refuses an entry over its message limit and retries the step, running the
      // Tool again each time: an entry that does not fit is journaled as a failure instead.
      return fitJournal(entry, state.call, this.#input.settings.maxJournalBytes);
    } catch (reason) {
      const abandoned = state.abandoned;
      // The deadline decided the call: the step records the same result.
      if (abandoned?.kind === "deadline") return toJournal(abandoned.result);
      if (abandoned !== undefined) throw abandoned.reason;
      // The core rejects a run only with its signal's reason (set by the round, above)
      // or with a registered NonRecoverableToolError: Restate must not retry it.
      throw terminalFromFatal(reason, state.call);
    }
  }

  async #advance({ state, progress, failure }: Arrival): Promise<void> {
    if (progress === undefined) return this.#fail(failure);
    if (progress.kind === "result") return this.#settle(state, progress.result);
    if (progress.kind === "deadline") {
      const result = deadlineResult(state.call, state.timeoutMs as number);
      const reason = deadlineReason(state.call.name, state.timeoutMs as number);
      this.#abandon(state, { kind: "deadline", result }, reason);
      return this.#settle(state, result);
    }
    state.decision = progress.decision;
    // An own field only: a gate that threw journals `{ threw }`, and a getter a Tool planted on
    // Object.prototype must not turn that into a step (the journal would differ on replay).
    const answer = ownDataValue(progress.decision, "answer");
    if (answer === true) return this.#startStep(state);
    // Refused or failed: the core writes the result from the journaled decision; the Tool never runs.
    const result = await runPreparedToolCall(state.prepared);
    if (this.#done) return;
    this.#settle(state, result);
  }

  #abandon(state: CallState, why: Abandonment, reason: unknown): void {
    state.abandoned = why;
    controllerAbort(state.controller, reason);
  }

  #settle(state: CallState, result: CourseToolResultMessage): void {
    if (this.#done) return;
    this.#removeInFlight(state);
    store(this.#settled, state.index, result);
    this.#reportInOrder();
  }

  #removeInFlight(state: CallState): void {
    const kept: CallState[] = [];
    for (let index = 0; index < this.#inFlight.length; index += 1) {
      const other = this.#inFlight[index] as CallState;
      if (other !== state) store(kept, kept.length, other);
    }
    this.#inFlight.length = 0;
    for (let index = 0; index < kept.length; index += 1) {
      store(this.#inFlight, index, kept[index] as CallState);
    }
  }

  /** Budgets and reports every settled result whose predecessors are all reported. */
  #reportInOrder(): void {
    const total = this.#states.length;
    while (!this.#done && this.#reported < total) {
      const index = this.#reported;
      const result = this.#settled[index];
      if (result === undefined) return;
      this.#reported = index + 1;
      this.#report(index, result);
    }
  }

  #report(index: number, result: CourseToolResultMessage): void {
    store(this.#settled, index, undefined);
    const final = this.#budget.take(result);
    store(this.#final, index, final);
    this.#delivery.emit(finishedEvent(index, (this.#states[index] as CallState).call, final));
  }

  #finish(): void {
    this.#done = true;
    this.#unwatch();
    this.#input.resolve(freeze(this.#final));
  }

  /** Every running Tool sees `reason`; their steps' own outcomes no longer decide anything. */
  #stopAll(reason: unknown): void {
    for (let index = 0; index < this.#inFlight.length; index += 1) {
      const state = this.#inFlight[index] as CallState;
      if (state.abandoned === undefined) this.#abandon(state, { kind: "stopped", reason }, reason);
    }
  }

  /**
   * Settles the round with a rejection: running Tools see `reason`, the
   * results that did finish are reported in call order, then the round
   * rejects. Calls that never started never start.
   */
  #fail(reason: unknown): void {
    if (this.#done) return;
    try {
      this.#stopAll(reason);
    } finally {
      this.#unwatch();
      const total = this.#states.length;
      for (let index = this.#reported; index < total; index += 1) {
        const result = this.#settled[index];
        if (result !== undefined) this.#report(index, result);
      }
      this.#reported = total;
      this.#done = true;
      this.#input.reject(reason);
    }
  }

  #unwatch(): void {
    const attempt = this.#attempt;
    if (attempt === undefined) return;
    this.#attempt = undefined;
    removeEventListener(attempt, "abort", this.#onAttemptEnd);
  }
}

/** Which call's current step completed, and how. */
interface Arrival {
  readonly state: CallState;
  readonly progress: Progress | undefined;
  readonly failure: unknown;
}

/** A call's current step, mapped so that a journaled failure arrives like a success. */
function arrivalOf(state: CallState): RestatePromise<Arrival> {
  return (state.current as RestatePromise<Progress>).map(
    (progress, failure): Arrival => ({ state, progress, failure }),
  );
}
