/**
 * What docs/rounds.md says of a round's signal: every Tool of a round is handed
 * the same one, so eleven Tools in flight that each listen on it make Node.js
 * warn (nothing breaks), while Tools that listen on a signal of their own,
 * `AbortSignal.any([signal])`, add no listener to it and make no warning.
 */
import { getEventListeners } from "node:events";
import { expect, test } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { accept, call, nextTurn } from "../../test/support/rounds.ts";
import { executeToolCalls } from "./index.ts";

/** Runs 11 calls at once whose Tools each listen for an abort on `listenOn(signal)`. */
async function elevenListening(listenOn: (signal: AbortSignal) => AbortSignal) {
  const signals = new Set<AbortSignal>();
  let listeners = 0;
  const release: Array<() => void> = [];
  const registry = new ToolRegistry([
    defineTool({
      name: "work",
      description: "Listens, then waits.",
      validate: accept,
      execute: async (_input, { signal }) => {
        signals.add(signal);
        listenOn(signal).addEventListener("abort", () => {});
        listeners = Math.max(listeners, getEventListeners(signal, "abort").length);
        await new Promise<void>((resolve) => release.push(resolve));
        return "done";
      },
    }),
  ]);
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on("warning", onWarning);
  try {
    const calls = Array.from({ length: 11 }, (_, index) => call(`call-${index}`));
    const round = executeToolCalls(registry, calls, new AbortController().signal, {
      concurrency: Number.POSITIVE_INFINITY,
    });
    while (release.length < 11) await nextTurn();
    for (const resume of release) resume();
    await round;
    for (let turn = 0; turn < 3; turn += 1) await nextTurn();
  } finally {
    process.off("warning", onWarning);
  }
  const leak = warnings.filter((warning) => warning.name === "MaxListenersExceededWarning");
  return { signals: signals.size, listeners, warnings: leak.length };
}

test("eleven Tools listening on the round's one signal make Node.js warn once", async () => {
  const seen = await elevenListening((signal) => signal);
  expect(seen.signals).toBe(1);
  // The round's own listener and the eleven Tools'.
  expect(seen.listeners).toBeGreaterThanOrEqual(11);
  expect(seen.warnings).toBe(1);
});

test("eleven Tools listening on AbortSignal.any([signal]) add no listener to it and make no warning", async () => {
  const seen = await elevenListening((signal) => AbortSignal.any([signal]));
  expect(seen.signals).toBe(1);
  expect(seen.listeners).toBeLessThanOrEqual(1);
  expect(seen.warnings).toBe(0);
});
