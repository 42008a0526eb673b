/**
 * Tools run in the traced process. One that replaces the built-ins the
 * tracing reads text and lists with (`String.prototype.slice`,
 * `Array.prototype.slice` and `map`, `Math.min`) cannot lift the bounds on
 * what a span records: the tracing uses the core's captured copies. And a
 * span processor of the host's that throws costs no call its duration
 * measurement, nor opens a call's span twice.
 */

import type { Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { createTelemetry, useAsyncContext } from "../../test/support/otel.ts";
import { executeToolCalls } from "../rounds/index.ts";
import { instrumentRegistry, TOOLBOUND_ATTRIBUTES as TB } from "./index.ts";

useAsyncContext();
const telemetry = createTelemetry();
afterAll(() => telemetry.shutdown());

const accept = (input: unknown) => ({ ok: true as const, value: input });
const call = (id: string, name: string) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: {},
});

const originals = {
  stringSlice: String.prototype.slice,
  arraySlice: Array.prototype.slice,
  map: Array.prototype.map,
  min: Math.min,
  charCodeAt: String.prototype.charCodeAt,
};
function restore(): void {
  String.prototype.slice = originals.stringSlice;
  Array.prototype.slice = originals.arraySlice;
  Array.prototype.map = originals.map;
  Math.min = originals.min;
  String.prototype.charCodeAt = originals.charCodeAt;
}
afterEach(restore);

describe("a Tool that replaced the built-ins", () => {
  test("cannot lift the bounds on call ids, names and the round's list of ids", async () => {
    const registry = instrumentRegistry(
      new ToolRegistry([
        defineTool({
          name: "patch",
          description:
            "Replaces slice, map, charCodeAt and Math.min with versions that cut nothing.",
          validate: accept,
          execute: async () => {
            String.prototype.slice = function whole(this: string) {
              return originals.stringSlice.call(this);
            };
            Array.prototype.slice = function whole(this: unknown[]) {
              return originals.arraySlice.call(this);
            };
            // map hands the elements back unmapped (uncut); charCodeAt makes every unit look
            // like half a pair, so a count of code points reads half the text's length.
            Array.prototype.map = function unmapped(this: unknown[]) {
              return originals.arraySlice.call(this);
            } as typeof Array.prototype.map;
            String.prototype.charCodeAt = function halfPair(this: string, index: number) {
              const unit = originals.charCodeAt.call(this, index);
              return index % 2 === 0 ? 0xd800 : 0xdc00 + (unit % 2);
            };
            Math.min = (...values: number[]) => Math.max(...values);
            return "patched";
          },
        }),
        defineTool({
          name: "echo",
          description: "Answers ok.",
          validate: accept,
          execute: async () => "ok",
        }),
      ]),
      telemetry,
    );
    const signal = new AbortController().signal;
    await executeToolCalls(registry, [call("p", "patch")], signal);
    telemetry.reset();
    const long = (prefix: string) => `${prefix}:`.padEnd(5_000, "x");
    const calls = Array.from({ length: 200 }, (_, index) =>
      call(long(String(index)), index === 0 ? "u".repeat(5_000) : "echo"),
    );
    await executeToolCalls(registry, calls, signal, { concurrency: 4 });
    restore();
    const [roundSpan] = telemetry.named("execute_tool_calls");
    const ids = roundSpan?.attributes[TB.roundCallIds] as string[];
    expect(ids).toHaveLength(128);
    expect(Math.max(...ids.map((id) => id.length))).toBe(256);
    expect(roundSpan?.attributes[TB.roundConcurrency]).toBe(4);
    const callSpans = telemetry.spans().filter((span) => span !== roundSpan);
    expect(callSpans).toHaveLength(200);
    const lengths = callSpans.flatMap((span) => [
      String(span.attributes["gen_ai.tool.call.id"]).length,
      String(span.attributes["gen_ai.tool.name"]).length,
    ]);
    expect(Math.max(...lengths)).toBe(256);
  });
});

describe("a span processor that throws", () => {
  /** A provider whose one processor throws from `hook`, counting its starts. */
  function throwingTelemetry(hook: "onStart" | "onEnd") {
    const counts = { started: 0 };
    const processor: SpanProcessor = {
      onStart(_span: Span) {
        counts.started += 1;
        if (hook === "onStart") throw new Error("processor onStart");
      },
      onEnd() {
        if (hook === "onEnd") throw new Error("processor onEnd");
      },
      forceFlush: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
    };
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
    return { counts, tracerProvider };
  }

  test.each(["onStart", "onEnd"] as const)(
    "in %s costs no call its duration measurement, and each call's span is opened once",
    async (hook) => {
      const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      const { counts, tracerProvider } = throwingTelemetry(hook);
      const registry = instrumentRegistry(
        new ToolRegistry([
          defineTool({
            name: "echo",
            description: "Answers ok.",
            validate: accept,
            execute: async () => "ok",
          }),
        ]),
        { tracerProvider, meterProvider: telemetry.meterProvider },
      );
      const before = (await telemetry.durations()).reduce(
        (sum, point) => sum + point.value.count,
        0,
      );
      const calls = Array.from({ length: 10 }, (_, index) => call(`c${index}`, "echo"));
      const results = await executeToolCalls(registry, calls, new AbortController().signal);
      warnings.mockRestore();
      expect(results.map((result) => result.content)).toEqual(calls.map(() => '"ok"'));
      const after = (await telemetry.durations()).reduce(
        (sum, point) => sum + point.value.count,
        0,
      );
      expect(after - before).toBe(10);
      // Ten call spans and the round's: each opened once, whether or not the processor threw.
      expect(counts.started).toBe(11);
      await tracerProvider.shutdown();
    },
  );
});
