/**
 * Tools for the `toolbound/otel` tests: one registry whose Tools reach every
 * outcome of a call (success, each error code, cancellation, a fatal error),
 * and a helper that runs a call inside a parent span and reads back what the
 * call recorded.
 */

import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import {
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  NonRecoverableToolError,
  ToolRegistry,
  type ToolRegistryOptions,
} from "../../course/src/index.ts";
import type { Telemetry } from "./otel.ts";

/** A Tool call with the given name, arguments and id. */
export const toolCall = (
  name: string,
  args: Record<string, unknown> = {},
  id = "call-1",
): CourseToolCall => ({ type: "toolCall", id, name, arguments: args }) as CourseToolCall;

const accept = (input: unknown) => ({ ok: true as const, value: input });

/**
 * The Tools: `echo` (returns its arguments), `refuse` (its validator says no),
 * `crash` (its validator throws), `fail` (execute throws), `slow` (waits for
 * its signal), `exotic` (returns a Map, which cannot be written), `fatal`
 * (execute throws a NonRecoverableToolError), `fatalCheck` (its validator
 * does), `emit` (returns `arguments.value`).
 */
export function outcomeTools(options?: ToolRegistryOptions): ToolRegistry {
  return new ToolRegistry(
    [
      defineTool({
        name: "echo",
        description: "Return the arguments.",
        validate: accept,
        execute: async (input) => input,
      }),
      defineTool({
        name: "refuse",
        description: "Refuse everything.",
        validate: () => ({ ok: false, error: "nothing is valid here" }),
        execute: async () => "never",
      }),
      defineTool({
        name: "crash",
        description: "A validator that throws.",
        validate: () => {
          throw new Error("validator bug");
        },
        execute: async () => "never",
      }),
      defineTool({
        name: "fail",
        description: "Throw while running.",
        validate: accept,
        execute: async () => {
          throw new Error("disk full");
        },
      }),
      defineTool({
        name: "slow",
        description: "Wait until the signal aborts.",
        validate: accept,
        execute: (_input, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => reject(signal.reason), { once: true });
          }),
      }),
      defineTool({
        name: "exotic",
        description: "Return a Map.",
        validate: accept,
        execute: async () => new Map([["a", 1]]),
      }),
      defineTool({
        name: "fatal",
        description: "Break an invariant while running.",
        validate: accept,
        execute: async () => {
          throw new NonRecoverableToolError("ledger is inconsistent");
        },
      }),
      defineTool({
        name: "fatalCheck",
        description: "Break an invariant while validating.",
        validate: () => {
          throw new NonRecoverableToolError("schema registry is gone");
        },
        execute: async () => "never",
      }),
      defineTool({
        name: "emit",
        description: "Return arguments.value.",
        validate: accept,
        execute: async (input) => (input as { value?: unknown }).value,
      }),
    ],
    options,
  );
}

/** How one call went, and the call spans it left. */
export interface Traced {
  readonly result: CourseToolResultMessage | undefined;
  readonly rejection: unknown;
  readonly parent: ReadableSpan;
  readonly calls: ReadableSpan[];
  readonly started: number;
  readonly ended: number;
}

/**
 * Runs `run` inside a `parent` span of the test's own tracer and returns its
 * outcome with the spans it recorded besides the parent (and how many spans
 * the SDK started and ended meanwhile, the parent included).
 */
export async function inParentSpan(
  telemetry: Telemetry,
  run: () => Promise<CourseToolResultMessage>,
): Promise<Traced> {
  telemetry.reset();
  const before = { ...telemetry.counts };
  const tracer = telemetry.tracerProvider.getTracer("test");
  let result: CourseToolResultMessage | undefined;
  let rejection: unknown;
  await tracer.startActiveSpan("parent", async (span) => {
    try {
      result = await run();
    } catch (thrown) {
      rejection = thrown;
    } finally {
      span.end();
    }
  });
  const spans = telemetry.spans();
  const parent = spans.find((span) => span.name === "parent");
  if (parent === undefined) throw new Error("the parent span did not end");
  return {
    result,
    rejection,
    parent,
    calls: spans.filter((span) => span !== parent),
    started: telemetry.counts.started - before.started,
    ended: telemetry.counts.ended - before.ended,
  };
}
