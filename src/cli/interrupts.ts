/**
 * Ctrl-C and friends: the first SIGINT or SIGTERM aborts one AbortSignal (so
 * the call in flight is cancelled through the boundary); a second one leaves
 * at once.
 */

import { signalExitCode } from "./process-exit.ts";

/** The state of an interrupt watch. */
export interface Interrupts {
  /** Aborts on the first SIGINT or SIGTERM, with an AbortError naming the signal. */
  readonly signal: AbortSignal;
  /** The signal that arrived first, if any. */
  readonly received: () => NodeJS.Signals | undefined;
  /** Removes the handlers, so the process can end (and signals act as usual again). */
  readonly dispose: () => void;
}

const WATCHED: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/**
 * Installs SIGINT and SIGTERM handlers. The first signal aborts
 * `signal` with `new DOMException("interrupted by SIGINT", "AbortError")`;
 * a second signal exits right away with 128 plus its number, for a Tool
 * that does not stop.
 *
 * @example
 * const interrupts = watchInterrupts();
 * try { await executeToolCall(registry, call, interrupts.signal); } finally { interrupts.dispose(); }
 */
export function watchInterrupts(): Interrupts {
  const controller = new AbortController();
  let first: NodeJS.Signals | undefined;
  const onSignal = (name: NodeJS.Signals): void => {
    if (first !== undefined) process.exit(signalExitCode(name));
    first = name;
    controller.abort(new DOMException(`interrupted by ${name}`, "AbortError"));
  };
  for (const name of WATCHED) process.on(name, onSignal);
  return {
    signal: controller.signal,
    received: () => first,
    dispose: () => {
      for (const name of WATCHED) process.off(name, onSignal);
    },
  };
}
