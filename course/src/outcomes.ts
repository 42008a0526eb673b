/**
 * Following values that may be asynchronous, without trusting them: native
 * promises through the captured `then`, thenables through one read and one
 * call of `then`, Proxies never asked anything.
 */

import { apply, isNativePromise, isProxy, promiseThen } from "./intrinsics.js";

const noop = (): void => {};

/** Marks a native promise's rejection as handled; a throwing species lookup is swallowed. */
export function observe(value: unknown): void {
  // The captured `then` refuses anything but a native promise, before it reads
  // anything: other values (thenables, Proxies, primitives) throw here unasked.
  try {
    promiseThen(value as Promise<unknown>, noop, noop);
  } catch {
    // Not a native promise, or a hostile `constructor` getter made `then` throw: nothing to do.
  }
}

/**
 * Calls `onFulfilled` or `onRejected` with what `outcome` settles to. A
 * native promise is followed with the captured `then`; another object's
 * `then` getter is read once and, if a function, called once (what it
 * returns is observed); a Proxy or a non-thenable is the value itself.
 * The callbacks may be called more than once by a hostile thenable: the
 * caller guards them.
 */
export function followOutcome(
  outcome: unknown,
  onFulfilled: (value: unknown) => void,
  onRejected: (reason: unknown) => void,
): void {
  if ((typeof outcome !== "object" && typeof outcome !== "function") || outcome === null) {
    return onFulfilled(outcome);
  }
  // A native promise first: it is never a Proxy, so the common case asks one question.
  if (isNativePromise(outcome)) {
    try {
      promiseThen(outcome as Promise<unknown>, onFulfilled, onRejected);
    } catch (thrown) {
      onRejected(thrown);
    }
    return;
  }
  // Never ask a Proxy for `then`: hand it on, and the serializer refuses it trap-free.
  if (isProxy(outcome)) return onFulfilled(outcome);
  try {
    // Read by name (no Proxy gets here): the engine caches the lookup per shape, where a
    // generic get walks the prototype chain every time.
    const then = (outcome as { readonly then?: unknown }).then;
    if (typeof then === "function") observe(apply(then, outcome, [onFulfilled, onRejected]));
    else onFulfilled(outcome);
  } catch (thrown) {
    onRejected(thrown);
  }
}

/** Whether a validator's decision (never a Proxy: refused before) is asynchronous; its rejection is observed either way. */
export function refuseIfAsync(decision: object): boolean {
  if (isNativePromise(decision)) {
    observe(decision);
    return true;
  }
  // Read once (a getter could answer differently the second time), by name: see followOutcome.
  const then = (decision as { readonly then?: unknown }).then;
  if (typeof then !== "function") return false;
  try {
    observe(apply(then, decision, [noop, noop]));
  } catch {
    // Its throw is the thenable's own business; the decision is refused either way.
  }
  return true;
}
