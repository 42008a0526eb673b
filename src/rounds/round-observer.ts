/**
 * The round-level hooks of a registry's call observer: when the registry's
 * observer (see `withCallObserver` in the core's internal surface) has a
 * `round` member, `executeToolCalls` tells it when a round starts, lets it
 * wrap the round's work (so a round span can parent its calls), and hands it
 * the round's outcome. Like the call hooks, nothing they do changes the
 * round: a throw is reported as a `ToolCallObserverWarning` process warning.
 */

import {
  type CourseToolCall,
  type CourseToolResultMessage,
  ToolContractError,
} from "../../course/src/index.ts";
import {
  abortReason,
  apply,
  CALL_OBSERVER_WARNING,
  type CallRejectionKind,
  callObserverOf,
  defineProperty,
  isAbortSignal,
  isProxy,
  NativeError,
  reflectGet,
  signalAborted,
} from "../../course/src/internal.ts";
import { emitWarning } from "./round-intrinsics.ts";

/**
 * What a round runs: its snapshotted calls in call order, and the settings
 * that shape it (`concurrency` and `maxRoundCharacters` may be `Infinity`).
 *
 * @example
 * { calls: [call1, call2], concurrency: 4, maxRoundCharacters: Infinity }
 */
export interface RoundPlan {
  readonly calls: readonly CourseToolCall[];
  readonly concurrency: number;
  readonly maxRoundCharacters: number;
}

/**
 * How a round ended: its results (in call order) or why it rejected, and how
 * many results `maxRoundCharacters` cut or emptied.
 *
 * @example
 * { results: [result1, result2], rejection: undefined, reason: undefined, cutResults: 0 }
 */
export interface RoundFacts {
  readonly results: readonly CourseToolResultMessage[] | undefined;
  readonly rejection: CallRejectionKind | undefined;
  readonly reason: unknown;
  readonly cutResults: number;
}

/**
 * The round hooks, as the `round` member of a registry's call observer.
 *
 * - `start()`: a round begins (before anything is read); answers its state,
 *   or undefined to leave it unobserved.
 * - `run(state, plan, begin)`: the round's calls are about to be prepared and
 *   started: call `begin()` once, synchronously (inside the round span's
 *   context, say). If it is not called, the round calls it afterwards.
 * - `end(state, facts)`: the round settled; called once, before the caller
 *   sees the outcome.
 *
 * @example
 * const round: RoundObserver<number> = {
 *   start: () => performance.now(),
 *   run: (_started, plan, begin) => { console.log(plan.calls.length); begin(); },
 *   end: (started, facts) => console.log(facts.cutResults, performance.now() - started),
 * };
 */
export interface RoundObserver<State = unknown> {
  start(): State | undefined;
  run(state: State, plan: RoundPlan, begin: () => void): void;
  end(state: State, facts: RoundFacts): void;
}

function warn(hook: string, thrown: unknown): void {
  const warning = new NativeError(
    `the round observer's ${hook} hook threw; the round went on unchanged`,
    { cause: thrown },
  );
  defineProperty(warning, "name", { value: CALL_OBSERVER_WARNING, enumerable: false });
  try {
    emitWarning(warning);
  } catch {
    // A broken process.emitWarning leaves nowhere else to report to; the round goes on.
  }
}

/**
 * One observed round: the hooks, the observer's state, and what the round counted.
 *
 * @example
 * const record = observeRound(registry); // undefined unless the registry's observer has round hooks
 */
export class RoundRecord {
  cutResults = 0;
  #ended = false;

  constructor(
    readonly observer: RoundObserver,
    readonly state: unknown,
  ) {}

  /** Runs `begin` exactly once, inside the observer's `run` hook when it calls it. */
  run(plan: RoundPlan, begin: () => void): void {
    let ran = false;
    let threw = false;
    let thrownByRound: unknown;
    const once = (): void => {
      if (ran) return;
      ran = true;
      try {
        begin();
      } catch (thrown) {
        threw = true;
        thrownByRound = thrown;
      }
    };
    try {
      apply(this.observer.run, this.observer, [this.state, plan, once]);
    } catch (thrown) {
      warn("run", thrown);
    }
    once();
    if (threw) throw thrownByRound;
  }

  /** The round resolved with `results`. */
  resolved(results: readonly CourseToolResultMessage[]): void {
    this.#end({ results, rejection: undefined, reason: undefined, cutResults: this.cutResults });
  }

  /** The round rejected with `reason`; `runSignal` tells a cancellation apart. */
  rejected(reason: unknown, runSignal: unknown): void {
    const cancelled =
      isAbortSignal(runSignal) && signalAborted(runSignal) && abortReason(runSignal) === reason;
    const rejection: CallRejectionKind = cancelled
      ? "cancelled"
      : reason instanceof ToolContractError
        ? "contract-error"
        : "non-recoverable";
    this.#end({ results: undefined, rejection, reason, cutResults: this.cutResults });
  }

  #end(facts: RoundFacts): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      apply(this.observer.end, this.observer, [this.state, Object.freeze(facts)]);
    } catch (thrown) {
      warn("end", thrown);
    }
  }
}

/** Reads the `round` member of `registry`'s call observer, when it has round hooks. */
function roundObserverOf(registry: unknown): RoundObserver | undefined {
  const observer = callObserverOf(registry);
  if (observer === undefined || isProxy(observer)) return undefined;
  const round = reflectGet(observer, "round") as unknown;
  if (typeof round !== "object" || round === null || isProxy(round)) return undefined;
  const hooks = round as Partial<Record<keyof RoundObserver, unknown>>;
  if (typeof hooks.start !== "function" || typeof hooks.run !== "function") return undefined;
  if (typeof hooks.end !== "function") return undefined;
  return round as RoundObserver;
}

/**
 * Starts observing a round of `registry`, or answers undefined (no observer,
 * no round hooks, the observer declined it, or its `start` threw).
 *
 * @example
 * const record = observeRound(registry);
 * record?.run(plan, () => round.start());
 */
export function observeRound(registry: unknown): RoundRecord | undefined {
  const observer = roundObserverOf(registry);
  if (observer === undefined) return undefined;
  let state: unknown;
  try {
    state = apply(observer.start, observer, []);
  } catch (thrown) {
    warn("start", thrown);
    return undefined;
  }
  return state === undefined ? undefined : new RoundRecord(observer, state);
}
