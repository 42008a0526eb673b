/**
 * Delivering a durable round's events, as `executeToolCalls` delivers them:
 * frozen `tool.started` and `tool.finished` events to one listener, one at a
 * time, in emission order, never re-entered; a listener that throws (or whose
 * promise rejects) is reported once through `onEventError` (default: the
 * rounds' `ToolRoundListenerWarning` process warning) and the round goes on.
 */

import type { CourseToolCall, CourseToolResultMessage } from "../../course/src/index.ts";
import {
  ROUND_LISTENER_WARNING,
  reportListenerErrorAsWarning,
  type ToolFinishedEvent,
  type ToolRoundEvent,
  type ToolRoundEventErrorHandler,
  type ToolRoundEventListener,
  type ToolStartedEvent,
} from "../rounds/index.ts";
import {
  apply,
  defineProperty,
  emitWarning,
  freeze,
  isNativePromise,
  promiseThen,
  store,
} from "./restate-intrinsics.ts";

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

/** Emits the rounds' process warning, the thrown value as its `cause`. */
function warn(message: string, cause: unknown): void {
  const warning = new Error(message, { cause });
  defineProperty(warning, "name", { value: ROUND_LISTENER_WARNING, enumerable: false });
  try {
    emitWarning(warning);
  } catch {
    // A broken process.emitWarning leaves nowhere else to report to; the round goes on.
  }
}

/** Watches a returned promise's rejection (a thenable that is not a promise is not followed). */
function onRejection(value: unknown, report: (reason: unknown) => void): void {
  if (!isNativePromise(value)) return;
  try {
    promiseThen(value as Promise<unknown>, undefined, report);
  } catch {
    // Only a tampered promise gets here; its rejection surfaces as unhandled, not silently.
  }
}

/** One round's listener and its queue. */
export class RoundDelivery {
  readonly #listener: ToolRoundEventListener | undefined;
  readonly #onError: ToolRoundEventErrorHandler | undefined;
  #queue: ToolRoundEvent[] = [];
  #draining = false;

  constructor(
    listener: ToolRoundEventListener | undefined,
    onError: ToolRoundEventErrorHandler | undefined,
  ) {
    this.#listener = listener;
    this.#onError = onError;
  }

  /** Queues `event` and, unless a delivery is under way, delivers the queue. */
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
    const failed = (thrown: unknown): void =>
      warn(
        `onEventError failed while reporting a listener error on ${event.type} of Tool call "${event.call.id}"`,
        thrown,
      );
    let returned: unknown;
    try {
      returned = apply(onError, undefined, [error, event]);
    } catch (thrown) {
      failed(thrown);
      return;
    }
    onRejection(returned, failed);
  }
}
