/**
 * Leaving the process on purpose: after what was written to standard output
 * has been handed to the system, so no result line is lost.
 */

import { constants } from "node:os";

/**
 * The conventional exit code for a process stopped by `signal`: 128 plus the
 * signal's number (130 for SIGINT, 143 for SIGTERM).
 *
 * @example
 * signalExitCode("SIGINT"); // 130
 */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * Exits with `code` once standard output has flushed (writes to a pipe are
 * asynchronous on some systems). Used where a Tool that ignores its signal
 * could otherwise keep the process alive.
 *
 * @example
 * await exitAfterFlush(130);
 */
export function exitAfterFlush(code: number): Promise<never> {
  process.exitCode = code;
  return new Promise<never>(() => {
    // The callback runs after every earlier write, or with an error once the pipe is gone.
    process.stdout.write("", () => process.exit(code));
  });
}
