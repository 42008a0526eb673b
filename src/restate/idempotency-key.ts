/**
 * The idempotency key a durable Tool call hands its Tool, for effects outside
 * the engine (a payment API, an email provider, a database row).
 *
 * Why a lookup by signal: the course fixes the Tool's context at two frozen
 * fields, `{ signal, toolCallId }`. Each durable call gives its Tool a signal
 * of its own, made for that call alone, so the signal identifies the call; a
 * WeakMap from that signal to the key adds nothing to the context and lets the
 * key go when the call is gone.
 */

import type { CourseToolExecutionContext } from "../../course/src/index.ts";
import { isProxy, ownDataValue, weakMapGet, weakMapSet } from "./restate-intrinsics.ts";

const keys = new WeakMap<AbortSignal, string>();

/**
 * The key of the call with id `toolCallId` in the invocation `invocationId`:
 * `${invocationId}/${toolCallId}`. A Restate invocation id (`inv_…`) holds no
 * `/`, so the first `/` always ends it; the call id follows whole.
 *
 * @example
 * durableIdempotencyKey("inv_1gsDjr94lSNk5tmygS531vuZb7P3frskQt", "call-1"); // "inv_1gsDjr94lSNk5tmygS531vuZb7P3frskQt/call-1"
 */
export function durableIdempotencyKey(invocationId: string, toolCallId: string): string {
  return `${invocationId}/${toolCallId}`;
}

/** Records that the Tool running with `signal` has `key` (called once per durable call). */
export function registerIdempotencyKey(signal: AbortSignal, key: string): void {
  weakMapSet(keys, signal, key);
}

/**
 * The idempotency key of the durable Tool call a Tool is running in, read from
 * the context its `execute` received: the Restate invocation id and the call
 * id, `${invocationId}/${toolCallId}` (see {@link durableIdempotencyKey}). It
 * is the same on every attempt of the call, after a crash, a restart or a
 * replay, and different for every other call. Pass it to the external system
 * that deduplicates (an `Idempotency-Key` header, a unique column), so an
 * effect whose attempt died before its result reached the journal is not done
 * twice. Undefined when the Tool was not called by `durableToolCall` or
 * `durableToolCalls` (by `executeToolCall`, say), so one Tool serves both.
 * Only the context's own `signal` data property is read; no getter runs.
 *
 * @example
 * execute: async (input, context) => {
 *   const key = toolIdempotencyKey(context) ?? crypto.randomUUID();
 *   return payments.charge(input, { idempotencyKey: key });
 * }
 */
export function toolIdempotencyKey(context: CourseToolExecutionContext): string | undefined {
  if (typeof context !== "object" || context === null || isProxy(context)) return undefined;
  const signal = ownDataValue(context, "signal");
  if (typeof signal !== "object" || signal === null) return undefined;
  return weakMapGet(keys, signal as AbortSignal);
}
