/**
 * Shared pieces of the soak and leak tests: a forced garbage collection that
 * works without restarting Node with `--expose-gc`, heap readings, a registry
 * of Tools with every kind of ending, and a collector of process warnings.
 */

import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  type AnyCourseTool,
  type CourseToolCall,
  defineTool,
  ToolRegistry,
} from "../../course/src/index.ts";

type Collect = () => void;

/**
 * Returns V8's `gc`. When Node was not started with `--expose-gc`, the flag is
 * switched on at run time and `gc` is read from a fresh context, where V8
 * installs it from then on.
 */
export function exposeGc(): Collect {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === "function") return existing as Collect;
  setFlagsFromString("--expose-gc");
  const gc: unknown = runInNewContext("gc");
  if (typeof gc !== "function") throw new Error("could not expose the garbage collector");
  return gc as Collect;
}

/** Resolves after the current macrotask. */
export function macrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Collects garbage until the heap stops shrinking (at most a few rounds),
 * yielding between rounds so finalizers and WeakRef clearing can run.
 */
export async function settleHeap(gc: Collect): Promise<number> {
  let used = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 6; round += 1) {
    await macrotask();
    gc();
    const now = process.memoryUsage().heapUsed;
    if (now >= used) return now;
    used = now;
  }
  return used;
}

/** The number of "abort" listeners Node sees on `signal`. */
export function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, "abort").length;
}

/** A Tool call for the soak registry. */
export function soakCall(name: string, index: number, args: object = {}): CourseToolCall {
  return { type: "toolCall", id: `call-${index}`, name, arguments: args } as CourseToolCall;
}

const acceptAll = (input: unknown) => ({ ok: true as const, value: input });

/**
 * Tools with every ending: `echo` (resolves after a macrotask), `refuse`
 * (validator says no), `fail` (rejects), `wait` (settles only when the caller
 * calls `release`), `hang` (never settles).
 */
export function soakRegistry(): { registry: ToolRegistry; release: () => void } {
  let waiting: Array<() => void> = [];
  const tools: AnyCourseTool[] = [
    defineTool({
      name: "echo",
      description: "Echo the arguments after a macrotask.",
      validate: acceptAll,
      execute: (input) => new Promise((resolve) => setImmediate(() => resolve(input))),
    }),
    defineTool({
      name: "refuse",
      description: "Refuse every call.",
      validate: () => ({ ok: false, error: "refused" }),
      execute: async () => ({ unreachable: true }),
    }),
    defineTool({
      name: "fail",
      description: "Reject every call.",
      validate: acceptAll,
      execute: async () => {
        throw new Error("failed on purpose");
      },
    }),
    defineTool({
      name: "wait",
      description: "Resolve when released.",
      validate: acceptAll,
      execute: () =>
        new Promise<{ released: true }>((resolve) => {
          waiting.push(() => resolve({ released: true }));
        }),
    }),
    defineTool({
      name: "hang",
      description: "Never settle.",
      validate: acceptAll,
      execute: () => new Promise<never>(() => {}),
    }),
  ] as AnyCourseTool[];
  const release = (): void => {
    const pending = waiting;
    waiting = [];
    for (const wake of pending) wake();
  };
  return { registry: new ToolRegistry(tools), release };
}

/** Records every process warning of the given name until `stop` is called. */
export function recordWarnings(name: string): { warnings: Error[]; stop: () => void } {
  const warnings: Error[] = [];
  const listener = (warning: Error): void => {
    if (warning.name === name) warnings.push(warning);
  };
  process.on("warning", listener);
  return { warnings, stop: () => process.off("warning", listener) };
}
