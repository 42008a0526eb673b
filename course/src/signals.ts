/**
 * Cancellation plumbing: reading an AbortSignal through its intrinsic getters,
 * and one shared abort watch per signal for every call waiting on it.
 *
 * Why one watch: an agent run keeps thousands of calls in flight on one
 * signal. A listener each would trip Node's MaxListenersExceededWarning and
 * cost O(n) per removal; one listener and a Set cost O(1) per call.
 */

import {
  AbortSignalPrototype,
  abortedGetter,
  addEventListener,
  anySignal,
  defineProperty,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isProxy,
  NativeSet,
  NativeWeakMap,
  NativeWeakRef,
  removeEventListener,
  setAdd,
  setClear,
  setDelete,
  setIteratorNext,
  setSize,
  setValues,
  signalAborted,
  signalReason,
  weakMapGet,
  weakMapSet,
  weakRefDeref,
} from "./intrinsics.js";

/** Something waiting for a signal to abort; called at most once with the reason. */
export interface AbortWaiter {
  onAbort(reason: unknown): void;
}

/** A signal's watch, as {@link watchAbort} answers it: what {@link unwatchAbort} ends. */
export type AbortWatch = Hub;

interface Hub {
  /**
   * The oldest waiter, when it came while the set was empty: calls on one
   * signal mostly run one at a time, and a set that grows to one element and
   * shrinks back to none reallocates its table each time. Older than every
   * waiter in the set, so waiters are told in the order they came.
   */
  first: AbortWaiter | undefined;
  readonly waiters: Set<AbortWaiter>;
  /** How many waiters `waiters` holds, counted here: a field read, not a call of the size getter. */
  others: number;
  // The relay is held here: the engine links it to its source only weakly.
  readonly relay: AbortSignal | undefined;
  readonly listener: () => void;
}

const hubs = new NativeWeakMap<AbortSignal, Hub>();

/** One waiter to tell of an abort, and the next (see the listener in `createHub`). */
interface PendingWaiter {
  readonly waiter: AbortWaiter | undefined;
  next: PendingWaiter | undefined;
}

/** True for a genuine AbortSignal (the intrinsic getter's brand check), never running user code. */
export function isAbortSignal(value: unknown): value is AbortSignal {
  // A Proxy would pass Node's brand check by forwarding it to its target: refuse it first.
  if (isProxy(value)) return false;
  let genuine = false;
  try {
    // The brand check throws for anything else, primitives included.
    signalAborted(value as AbortSignal);
    genuine = true;
  } catch {
    // Not an AbortSignal: `genuine` stays false.
  }
  return genuine;
}

/** Whether the signal has aborted, read through the intrinsic getter (an own override is ignored). */
export function isAborted(signal: AbortSignal): boolean {
  return signalAborted(signal);
}

/**
 * The abort reason of an aborted signal, by identity, read through the
 * intrinsic getter. Never `undefined`: `abort()` without a reason stores a
 * DOMException AbortError (Node.js, Bun and Deno alike).
 */
export function abortReason(signal: AbortSignal): unknown {
  return signalReason(signal);
}

/**
 * Whether `AbortSignal.any([signal])` would read only the truth: it reads the
 * public `aborted`, so an own override, a swapped prototype or a getter
 * planted on AbortSignal.prototype (the attribute is configurable) would run
 * there, and could make the relay start out aborted, so that it never fires.
 * (The relay's `reason` is never read: the listener reads the run's signal
 * through the intrinsic.)
 */
function isUntampered(signal: AbortSignal): boolean {
  if (getPrototypeOf(signal) !== AbortSignalPrototype) return false;
  if (getOwnPropertyDescriptor(signal, "aborted") !== undefined) return false;
  const inherited = getOwnPropertyDescriptor(AbortSignalPrototype, "aborted");
  // The getter read only as an own field of the descriptor: a data descriptor's missing
  // `get` would otherwise be looked up on Object.prototype, where a Tool may plant one.
  return inherited !== undefined && hasOwn(inherited, "get") && inherited.get === abortedGetter;
}

/**
 * Gives the relay an `aborted` of its own that reads the intrinsic: Node reads
 * a composite signal's public `aborted` each time a listener is added to it,
 * and a getter planted on AbortSignal.prototype after the relay was made
 * would run there, in the middle of {@link watchAbort}, where it could start
 * or end calls on the very hub being changed.
 */
function pinAborted(relay: AbortSignal): void {
  defineProperty(relay, "aborted", {
    __proto__: null,
    get: () => signalAborted(relay),
    enumerable: false,
    configurable: false,
  } as PropertyDescriptor);
}

/**
 * Creates the hub for a signal. Normally its one listener sits on a private
 * relay made with `AbortSignal.any([signal])`, kept for the signal's lifetime.
 * Why a relay: a Tool receives the run's signal and can add an abort listener
 * that calls `stopImmediatePropagation()`; on the run's signal that silences
 * every listener added after it, and a later call could never be cancelled.
 * The engine aborts the relay after the run's signal, with an event of its own
 * that no Tool is handed (one that digs the relay out of Node's internals of
 * the signal still can: docs/security-model.md), and the run's signal carries
 * no listener of ours.
 * The relay carries the listener only while a call waits (see `watchAbort`):
 * the engine keeps a signal made by `AbortSignal.any` alive for as long as it
 * has an abort listener, so a listener left on it would keep the relay, the
 * hub and the run's signal reachable for the life of the process.
 * A tampered signal (see `isUntampered`) cannot be relayed truthfully, so it
 * carries our listener itself, for its lifetime: added at the first watch,
 * before any Tool has seen the signal through this boundary, it runs before
 * any listener a Tool plants later. (A plain signal's listener does not keep
 * it alive: it goes when the signal goes.)
 */
function createHub(signal: AbortSignal): Hub {
  const waiters = new NativeSet<AbortWaiter>();
  const relay = isUntampered(signal) ? anySignal([signal]) : undefined;
  if (relay !== undefined) pinAborted(relay);
  // Held weakly: a parked relay (see `parked`) keeps its listener, and so this function, alive;
  // the run's signal must not be kept with it. A call that waits holds the signal itself.
  const source = new NativeWeakRef(signal);
  const listener = (): void => {
    const watched = weakRefDeref(source);
    // Only a real abort of the run's signal counts, whoever dispatched the event.
    if (watched === undefined || !signalAborted(watched)) return;
    const reason = abortReason(watched);
    // Aborted for good, the signal is never watched again (a call checks it before it
    // watches): the relay lets go of the listener now. Kept, it kept the relay and this hub
    // alive for the life of the process, about 1.7 KB per signal aborted while a call waited.
    // (Were this hub parked, the next park's removal of its listener finds none: harmless.)
    if (relay !== undefined) removeEventListener(relay, "abort", listener);
    // The waiters are taken out first (one may start or end another call) into a chain of
    // fresh literals, not an array: appending to an array consults Array.prototype, where
    // an index setter planted by a Tool would receive every other waiting call (and could
    // swallow it, so that it never heard the abort).
    const head: PendingWaiter = { waiter: hub.first, next: undefined };
    hub.first = undefined;
    let tail = head;
    const iterator = setValues(waiters);
    for (
      let step = setIteratorNext(iterator);
      step.done !== true;
      step = setIteratorNext(iterator)
    ) {
      const link: PendingWaiter = { waiter: step.value, next: undefined };
      tail.next = link;
      tail = link;
    }
    // `others` is left as it was: the hub of an aborted signal is never asked again.
    setClear(waiters);
    for (let link: PendingWaiter | undefined = head; link !== undefined; link = link.next) {
      if (link.waiter !== undefined) link.waiter.onAbort(reason);
    }
  };
  const hub: Hub = { first: undefined, waiters, others: 0, relay, listener };
  if (relay === undefined) addEventListener(signal, "abort", listener);
  return hub;
}

/** Whether no call waits on the hub. */
function isIdle(hub: Hub): boolean {
  return hub.first === undefined && hub.others === 0;
}

/**
 * The one hub whose relay keeps its listener although no call waits on it:
 * the last to go idle. An agent's calls on one signal mostly run one after
 * another, so the set goes from empty to one waiter and back at every call;
 * taking the listener off and putting it back each time cost more than the
 * rest of the watch. Parked, it stays until another hub goes idle, so at most
 * one relay and its hub are kept alive by a listener, not one per signal (see
 * `createHub`), and never the run's signal, which the listener holds weakly;
 * an abort of a parked hub's signal finds no waiter and does nothing.
 */
let parked: Hub | undefined;

/**
 * Starts watching `signal` for `waiter`: from now until {@link unwatchAbort},
 * `waiter.onAbort(reason)` is called once if `signal` aborts. The signal must
 * not be aborted already (check first). Answers the watch to end, so that
 * ending it needs no second lookup of the signal's hub.
 */
export function watchAbort(signal: AbortSignal, waiter: AbortWaiter): AbortWatch {
  let hub = weakMapGet(hubs, signal);
  if (hub === undefined) {
    hub = createHub(signal);
    weakMapSet(hubs, signal, hub);
  }
  const relay = hub.relay;
  // Asked once: nothing of anyone else's runs before both uses below (adding the listener
  // reads only the relay's own `aborted`: see pinAborted), so the answer still holds.
  const idle = isIdle(hub);
  // The first waiter puts the listener on the relay, unless it is still there (parked).
  if (relay !== undefined && idle) {
    if (parked === hub) parked = undefined;
    else addEventListener(relay, "abort", hub.listener);
  }
  if (idle) hub.first = waiter;
  else {
    setAdd(hub.waiters, waiter);
    hub.others = setSize(hub.waiters);
  }
  return hub;
}

/**
 * Ends `waiter`'s watch (nothing happens if it ended already). The last
 * waiter to leave parks its hub, and the hub parked before loses its listener.
 */
export function unwatchAbort(hub: AbortWatch, waiter: AbortWaiter): void {
  if (hub.first === waiter) hub.first = undefined;
  else if (setDelete(hub.waiters, waiter)) hub.others -= 1;
  else return;
  if (hub.relay === undefined || !isIdle(hub)) return;
  const previous = parked;
  parked = hub;
  if (previous !== undefined) {
    removeEventListener(previous.relay as AbortSignal, "abort", previous.listener);
  }
}
