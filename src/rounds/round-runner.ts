/**
 * One round in motion: every call prepared (validated) in call order, then run
 * with at most `concurrency` in flight on a round signal linked to the run's,
 * results reported and budgeted in call order, and the round settled once.
 */

import {
  type CourseToolCall,
  type CourseToolResultMessage,
  type PreparedToolCall,
  prepareToolCall,
  runPreparedToolCall,
  type ToolRegistry,
} from "../../course/src/index.ts";
import {
  abortReason,
  addEventListener,
  controllerAbort,
  controllerSignal,
  freeze,
  NativeAbortController,
  promiseThen,
  signalAborted,
} from "../../course/src/internal.ts";
import { RoundBudget } from "./round-budget.ts";
import { finishedEvent, RoundEvents, startedEvent } from "./round-events.ts";
import { removeEventListener, store } from "./round-intrinsics.ts";
import type { RoundRecord } from "./round-observer.ts";
import type { RoundSettings } from "./round-options.ts";

/** Everything a round needs, checked and snapshotted by `executeToolCalls`. */
export interface RoundInput {
  readonly registry: ToolRegistry;
  readonly calls: readonly CourseToolCall[];
  readonly runSignal: AbortSignal;
  readonly settings: RoundSettings;
  readonly resolve: (results: readonly CourseToolResultMessage[]) => void;
  readonly reject: (reason: unknown) => void;
  /** The round's observation, when its registry's observer took it. */
  readonly record: RoundRecord | undefined;
}

/**
 * Drives one round. `start()` is called once; afterwards `resolve` or `reject`
 * is called exactly once, and the one abort listener added to the run signal
 * is removed before either.
 */
export class ToolRound {
  readonly #input: RoundInput;
  readonly #controller = new NativeAbortController();
  readonly #events: RoundEvents;
  readonly #budget: RoundBudget;
  readonly #prepared: (PreparedToolCall | undefined)[] = [];
  /** Settled results not yet reported (and budgeted), by call index. */
  readonly #settled: (CourseToolResultMessage | undefined)[] = [];
  /** Reported results: what the round resolves with. */
  readonly #final: CourseToolResultMessage[] = [];
  #reported = 0;
  #next = 0;
  #inFlight = 0;
  #done = false;
  #linked = false;

  constructor(input: RoundInput) {
    this.#input = input;
    this.#events = new RoundEvents(input.settings.onEvent, input.settings.onEventError);
    this.#budget = new RoundBudget(input.settings.maxRoundCharacters);
    // A slot of its own for every call, before any Tool runs: a call's slot is read before it
    // settles, and a hole would be read through Array.prototype, where a Tool's planted getter
    // could answer a result of its making for a call that never ran.
    for (let index = 0; index < input.calls.length; index += 1) {
      store(this.#settled, index, undefined);
    }
  }

  // An arrow property: the same function object is added and removed.
  readonly #onRunAbort = (): void => {
    // Anyone can dispatch an "abort" event; only a real abort counts.
    const run = this.#input.runSignal;
    if (signalAborted(run)) this.#fail(abortReason(run));
  };

  /** Links the run signal, prepares every call in call order, then starts the first ones. */
  start(): void {
    this.#guard(() => this.#begin());
  }

  #begin(): void {
    const { registry, calls, runSignal, settings } = this.#input;
    if (signalAborted(runSignal)) return this.#fail(abortReason(runSignal));
    addEventListener(runSignal, "abort", this.#onRunAbort);
    this.#linked = true;
    const roundSignal = controllerSignal(this.#controller);
    // Phase one, no effects: every validator runs before any approval or execution.
    for (let index = 0; index < calls.length; index += 1) {
      let prepared: PreparedToolCall;
      try {
        prepared = prepareToolCall(
          registry,
          calls[index] as CourseToolCall,
          roundSignal,
          settings.callOptions,
        );
      } catch (thrown) {
        // The run's abort (already handled), a registered fatal error, or a bad timeoutMs answer.
        return this.#fail(thrown);
      }
      if (this.#done) return;
      store(this.#prepared, index, prepared);
    }
    this.#pump();
  }

  /** Starts calls in call order while a slot is free. */
  #pump(): void {
    const total = this.#input.calls.length;
    while (!this.#done && this.#inFlight < this.#input.settings.concurrency && this.#next < total) {
      const index = this.#next;
      this.#next = index + 1;
      this.#inFlight += 1;
      this.#launch(index);
    }
  }

  #launch(index: number): void {
    const prepared = this.#prepared[index] as PreparedToolCall;
    // Released as soon as it runs: a long round keeps only what is still pending.
    store(this.#prepared, index, undefined);
    this.#events.emit(startedEvent(index, prepared.call));
    // The listener may have aborted the run.
    if (this.#done) return;
    promiseThen(
      runPreparedToolCall(prepared),
      (result) => this.#guard(() => this.#onResult(index, result)),
      (reason) => this.#guard(() => this.#fail(reason)),
    );
  }

  /** A defect in the round's own code must reject the round, not escape as unhandled. */
  #guard(step: () => void): void {
    try {
      step();
    } catch (thrown) {
      this.#fail(thrown);
    }
  }

  #onResult(index: number, result: CourseToolResultMessage): void {
    if (this.#done) return;
    this.#inFlight -= 1;
    store(this.#settled, index, result);
    this.#reportInOrder();
    if (this.#done) return;
    if (this.#reported === this.#input.calls.length) return this.#finish();
    this.#pump();
  }

  /** Budgets and reports every settled result whose predecessors are all reported. */
  #reportInOrder(): void {
    const total = this.#input.calls.length;
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
    if (final !== result && this.#input.record !== undefined) this.#input.record.cutResults += 1;
    store(this.#final, index, final);
    this.#events.emit(finishedEvent(index, this.#input.calls[index] as CourseToolCall, final));
  }

  #finish(): void {
    const run = this.#input.runSignal;
    // Cancellation wins even at the last moment: no result of an aborted run is returned.
    if (signalAborted(run)) return this.#fail(abortReason(run));
    this.#done = true;
    this.#unlink();
    this.#input.resolve(freeze(this.#final));
  }

  /**
   * Settles the round with a rejection: aborts the round signal (every running
   * Tool sees `reason`), reports the results that did finish, in call order,
   * then rejects. Later settlements of the calls are ignored.
   */
  #fail(reason: unknown): void {
    if (this.#done) return;
    this.#done = true;
    try {
      controllerAbort(this.#controller, reason);
    } finally {
      this.#unlink();
      try {
        this.#reportFinishedAfterFailure();
      } finally {
        this.#input.reject(reason);
      }
    }
  }

  /** Reports finished-but-unreported results; an unfinished call before them spends no budget. */
  #reportFinishedAfterFailure(): void {
    const total = this.#input.calls.length;
    for (let index = this.#reported; index < total; index += 1) {
      const result = this.#settled[index];
      if (result !== undefined) this.#report(index, result);
    }
    this.#reported = total;
  }

  #unlink(): void {
    if (!this.#linked) return;
    this.#linked = false;
    removeEventListener(this.#input.runSignal, "abort", this.#onRunAbort);
  }
}
