import { defaultMaxListeners } from "node:events";
import { expect, test } from "vitest";
import { executeToolCall } from "../../course/src/index.ts";
import { abortListeners, macrotask, recordWarnings, soakCall, soakRegistry } from "./support.ts";

const IN_FLIGHT = 10_000;

test("an abort rejects each of 10,000 concurrent calls on one signal exactly once with the exact reason, leaves no listener and prints no MaxListenersExceededWarning", async () => {
  const { warnings, stop } = recordWarnings("MaxListenersExceededWarning");
  try {
    const { registry, release } = soakRegistry();
    const run = new AbortController();
    const settlements: number[] = new Array(IN_FLIGHT).fill(0);
    const rejectedWith: unknown[] = [];
    let resolved = 0;
    const pending = Array.from({ length: IN_FLIGHT }, (_, index) =>
      executeToolCall(
        registry,
        soakCall(index % 2 === 0 ? "wait" : "hang", index),
        run.signal,
      ).then(
        () => {
          settlements[index] = (settlements[index] ?? 0) + 1;
          resolved += 1;
        },
        (reason: unknown) => {
          settlements[index] = (settlements[index] ?? 0) + 1;
          rejectedWith.push(reason);
        },
      ),
    );
    await macrotask();
    const inFlightListeners = abortListeners(run.signal);
    // However many calls are in flight, the run's signal carries no listener of ours: one
    // private relay signal carries the single shared listener (see course/src/signals.ts).
    expect(inFlightListeners).toBe(0);
    expect(inFlightListeners).toBeLessThan(defaultMaxListeners);

    const reason = new Error("the run was stopped");
    run.abort(reason);
    // Tools that settle after the abort must change nothing.
    release();
    await Promise.all(pending);
    await macrotask();
    await macrotask();

    expect(resolved).toBe(0);
    expect(rejectedWith).toHaveLength(IN_FLIGHT);
    expect(rejectedWith.every((value) => value === reason)).toBe(true);
    expect(settlements.every((count) => count === 1)).toBe(true);
    expect(abortListeners(run.signal)).toBe(0);
    expect(warnings).toEqual([]);
  } finally {
    stop();
  }
}, 120_000);

test("thousands of calls settling one by one on a shared signal print no MaxListenersExceededWarning and leave no listener", async () => {
  const { warnings, stop } = recordWarnings("MaxListenersExceededWarning");
  try {
    const { registry } = soakRegistry();
    const run = new AbortController();
    const results = await Promise.all(
      Array.from({ length: 5_000 }, (_, index) =>
        executeToolCall(registry, soakCall("echo", index, { index }), run.signal),
      ),
    );
    await macrotask();
    expect(results.filter((result) => !result.isError)).toHaveLength(5_000);
    expect(abortListeners(run.signal)).toBe(0);
    expect(warnings).toEqual([]);
  } finally {
    stop();
  }
}, 120_000);
