/**
 * Cancellation plumbing: reading an AbortSignal through its intrinsic getters,
 * and one shared abort listener per signal for every call waiting on it.
 *
 * Why one listener: an agent run keeps thousands of calls in flight on one
 * signal. A listener each would trip Node's MaxListenersExceededWarning and
 * cost O(n) per removal; one listener and a Set cost O(1) per call.
 */

import {
  addEventListener,
  NativeDOMException,
  NativeSet,
  NativeWeakMap,
  removeEventListener,
  setAdd,
  setDelete,
  setIteratorNext,
  setSize,
  setValues,
  signalAborted,
  signalReason,
  weakMapDelete,
  weakMapGet,
  weakMapSet,
} from "./intrinsics.ts";

/** Something waiting for a signal to abort; called at most once with the reason. */
export interface AbortWaiter {
  onAbort(reason: unknown): void;
}

interface Hub {
  readonly waiters: Set<AbortWaiter>;
  readonly listener: () => void;
}

const hubs = new NativeWeakMap<AbortSignal, Hub>();

/** True for a genuine AbortSignal (the intrinsic getter's brand check), never running user code. */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== "object" || value === null) return false;
  try {
    signalAborted(value as AbortSignal);
    return true;
  } catch {
    return false;
  }
}

/** Whether the signal has aborted, read through the intrinsic getter (an own override is ignored). */
export function isAborted(signal: AbortSignal): boolean {
  return signalAborted(signal);
}

/** The abort reason, by identity; a DOMException AbortError stands in for `undefined`. */
export function abortReason(signal: AbortSignal): unknown {
  const reason = signalReason(signal);
  return reason === undefined
    ? new NativeDOMException("This operation was aborted", "AbortError")
    : reason;
}

function createHub(signal: AbortSignal): Hub {
  const waiters = new NativeSet<AbortWaiter>();
  const listener = (): void => {
    // An "abort" event can be dispatched by anyone; only a real abort counts.
    if (!signalAborted(signal)) return;
    const reason = abortReason(signal);
    const pending: AbortWaiter[] = [];
    const iterator = setValues(waiters);
    for (
      let step = setIteratorNext(iterator);
      step.done !== true;
      step = setIteratorNext(iterator)
    ) {
      pending[pending.length] = step.value;
    }
    release(signal, hub);
    for (let index = 0; index < pending.length; index += 1) {
      (pending[index] as AbortWaiter).onAbort(reason);
    }
  };
  const hub: Hub = { waiters, listener };
  return hub;
}

function release(signal: AbortSignal, hub: Hub): void {
  weakMapDelete(hubs, signal);
  removeEventListener(signal, "abort", hub.listener);
}

/**
 * Calls `waiter.onAbort(reason)` once if `signal` aborts before the returned
 * function is called. The signal must not be aborted already (check first).
 */
export function watchAbort(signal: AbortSignal, waiter: AbortWaiter): () => void {
  let hub = weakMapGet(hubs, signal);
  if (hub === undefined) {
    hub = createHub(signal);
    weakMapSet(hubs, signal, hub);
    addEventListener(signal, "abort", hub.listener);
  }
  const current = hub;
  setAdd(current.waiters, waiter);
  return () => {
    if (!setDelete(current.waiters, waiter)) return;
    if (setSize(current.waiters) === 0 && weakMapGet(hubs, signal) === current) {
      release(signal, current);
    }
  };
}
