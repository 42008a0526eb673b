/**
 * The round's events and their delivery: frozen `tool.started` and
 * `tool.finished` events handed to one listener, one at a time, in the order
 * they were emitted. A listener that throws (or whose promise rejects) never
 * breaks the round: its error is reported once, never swallowed, and never
 * becomes a Tool result.
 */

import type { CourseToolCall, CourseToolResultMessage } from "../../course/src/index.ts";
import {
  apply,
  defineProperty,
  freeze,
  isNativePromise,
  NativeError,
  promiseThen,
} from "../../course/src/internal.ts";
import { emitWarning, store } from "./round-intrinsics.ts";

/**
 * A call's turn has come: it is about to go through approval and `execute`
 * (or, when validation already decided its result, that result is about to be
 * reported). `call` is the frozen snapshot the validator saw; `index` is the
 * call's position in `calls`.
 *
 * @example
 * { type: "tool.started", index: 0, call: { type: "toolCall", id: "call-1", name: "echo", arguments: { text: "hi" } } }
 */
export interface ToolStartedEvent {
  readonly type: "tool.started";
  readonly index: number;
  readonly call: CourseToolCall;
}

/**
 * A call's result is final: `result` is exactly the message the round returns
 * at `index` (after `maxRoundCharacters` was applied).
 *
 * @example
 * { type: "tool.finished", index: 0, call, result: { id: "tool-result-call-1", role: "toolResult", toolCallId: "call-1", toolName: "echo", content: '"hi"', isError: false } }
 */
export interface ToolFinishedEvent {
  readonly type: "tool.finished";
  readonly index: number;
  readonly call: CourseToolCall;
  readonly result: CourseToolResultMessage;
}

/** Every event a round emits. */
export type ToolRoundEvent = ToolStartedEvent | ToolFinishedEvent;

/**
 * Receives the round's events synchronously. Its return value is ignored,
 * except that a returned promise that rejects is reported like a throw.
 *
 * @example
 * const onEvent: ToolRoundEventListener = (event) => console.log(event.type, event.call.id);
 */
export type ToolRoundEventListener = (event: ToolRoundEvent) => unknown;

/**
 * Receives, once, each error thrown by the `onEvent` listener (or the
 * rejection of its promise), with the event it was handling.
 *
 * @example
 * const onEventError: ToolRoundEventErrorHandler = (error, event) => log.warn({ error, event });
 */
export type ToolRoundEventErrorHandler = (error: unknown, event: ToolRoundEvent) => unknown;

/** Name of the process warning emitted when no `onEventError` is given (or it throws). */
export const ROUND_LISTENER_WARNING = "ToolRoundListenerWarning";

/** Builds a frozen `tool.started` event. */
export function startedEvent(index: number, call: CourseToolCall): ToolStartedEvent {
  return freeze({ type: "tool.started", index, call });
}

/** Builds a frozen `tool.finished` event. */
export function finishedEvent(
  index: number,
  call: CourseToolCall,
  result: CourseToolResultMessage,
): ToolFinishedEvent {
  return freeze({ type: "tool.finished", index, call, result });
}

function describeEvent(event: ToolRoundEvent): string {
  return `${event.type} of Tool call "${event.call.id}"`;
}

/** Emits a process warning whose `cause` is the thrown value. */
function warn(message: string, cause: unknown): void {
  const warning = new NativeError(message, { cause });
  defineProperty(warning, "name", { value: ROUND_LISTENER_WARNING, enumerable: false });
  try {
    emitWarning(warning);
  } catch {
    // A broken process.emitWarning leaves nowhere else to report to; the round goes on.
  }
}

/**
 * The default `onEventError`: a process warning named `ToolRoundListenerWarning`
 * (observe it with `process.on("warning", …)`), the listener's error as its `cause`.
 *
 * @example
 * reportListenerErrorAsWarning(new Error("boom"), event); // (node) ToolRoundListenerWarning: …
 */
export function reportListenerErrorAsWarning(error: unknown, event: ToolRoundEvent): void {
  warn(`The onEvent listener failed on ${describeEvent(event)}; the round went on`, error);
}

/** Watches a native promise's rejection; a hostile `constructor` getter is survived. */
function onRejection(value: unknown, report: (reason: unknown) => void): void {
  // The core's check is a plain boolean, not a type guard: the cast below rests on it.
  if (!isNativePromise(value)) return;
  try {
    promiseThen(value as Promise<unknown>, () => {}, report);
  } catch {
    // Only a tampered promise gets here; its rejection surfaces as unhandled, not silently.
  }
}

/**
 * Delivers events to one listener in emission order. An event emitted while
 * the listener is running (it aborted the run, say) is queued and delivered
 * after the listener returns, so the listener is never re-entered.
 */
export class RoundEvents {
  readonly #listener: ToolRoundEventListener | undefined;
  readonly #onError: ToolRoundEventErrorHandler | undefined;
  #queue: ToolRoundEvent[] = [];
  #draining = false;

  /** `onError` defaults to {@link reportListenerErrorAsWarning}. */
  constructor(
    listener: ToolRoundEventListener | undefined,
    onError: ToolRoundEventErrorHandler | undefined,
  ) {
    this.#listener = listener;
    this.#onError = onError;
  }

  /** Queues `event` and, unless a delivery is already under way, delivers the queue. */
  emit(event: ToolRoundEvent): void {
    if (this.#listener === undefined) return;
    store(this.#queue, this.#queue.length, event);
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let index = 0; index < this.#queue.length; index += 1) {
        this.#deliver(this.#queue[index] as ToolRoundEvent);
      }
    } finally {
      this.#queue = [];
      this.#draining = false;
    }
  }

  #deliver(event: ToolRoundEvent): void {
    let returned: unknown;
    try {
      returned = apply(this.#listener as ToolRoundEventListener, undefined, [event]);
    } catch (thrown) {
      this.#report(thrown, event);
      return;
    }
    onRejection(returned, (reason) => this.#report(reason, event));
  }

  #report(error: unknown, event: ToolRoundEvent): void {
    const onError = this.#onError;
    if (onError === undefined) return reportListenerErrorAsWarning(error, event);
    const reporterFailed = (thrown: unknown): void =>
      warn(
        `onEventError failed while reporting a listener error on ${describeEvent(event)}`,
        thrown,
      );
    let returned: unknown;
    try {
      returned = apply(onError, undefined, [error, event]);
    } catch (thrown) {
      reporterFailed(thrown);
      return;
    }
    onRejection(returned, reporterFailed);
  }
}
