/**
 * Test support: Tools that count what they were asked to do, so a test can
 * prove that an effect did or did not happen (a refused request executed
 * nothing; a cancelled call saw its signal abort).
 */

import {
  type AnyCourseTool,
  type CourseToolValidation,
  defineTool,
} from "../../course/src/index.ts";
import { reportProgress, sendLogMessage } from "../../src/mcp/index.ts";

/** What the probe Tools counted. */
export interface ProbeCounts {
  executions: number;
  finished: number;
  aborted: number;
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const readMs = (input: unknown): CourseToolValidation<{ ms: number }> => {
  const ms = (input as { ms?: unknown } | null)?.ms;
  return typeof ms === "number" && Number.isSafeInteger(ms) && ms >= 0
    ? { ok: true, value: { ms } }
    : { ok: false, error: "ms must be a whole number of milliseconds" };
};

/**
 * `work` waits `ms` (counting executions, finishes and aborts) and `steps`
 * reports progress 1, 2 and 3 of 3 with a log line each.
 *
 * @example
 * const { counts, tools, started } = probeTools();
 */
export function probeTools(): {
  readonly counts: ProbeCounts;
  readonly tools: readonly AnyCourseTool[];
  /** Resolves when `work` has started `count` times in all. */
  readonly started: (count?: number) => Promise<void>;
} {
  const counts: ProbeCounts = { executions: 0, finished: 0, aborted: 0 };
  const waiting: { count: number; resolve: () => void }[] = [];
  const work = defineTool({
    name: "work",
    description: "Wait ms milliseconds, or until cancelled.",
    parameters: {
      type: "object",
      properties: { ms: { type: "integer", minimum: 0 } },
      required: ["ms"],
    },
    validate: readMs,
    execute: async ({ ms }, { signal }) => {
      counts.executions += 1;
      for (const waiter of waiting.filter((entry) => entry.count <= counts.executions)) {
        waiter.resolve();
      }
      try {
        await pause(ms, signal);
      } catch (thrown) {
        counts.aborted += 1;
        throw thrown;
      }
      counts.finished += 1;
      return { waited: ms };
    },
  });
  const steps = defineTool({
    name: "steps",
    description: "Report progress 1, 2 and 3 of 3, with a log line at each step.",
    validate: () => ({ ok: true, value: {} }),
    execute: async (_input, { signal }) => {
      for (const step of [1, 2, 3]) {
        await sendLogMessage("info", `step ${step}`);
        await sendLogMessage("debug", `step ${step} in detail`);
        await reportProgress({ progress: step, total: 3, message: `step ${step}` });
        await pause(5, signal);
      }
      return "three steps";
    },
  });
  const started = (count = 1): Promise<void> =>
    counts.executions >= count
      ? Promise.resolve()
      : new Promise((resolve) => {
          waiting.push({ count, resolve });
        });
  return { counts, tools: [work, steps], started };
}
