/**
 * The call's span as a context: a Tool's own spans nest under it (across
 * `await`), a prepared call's span covers its run, 10,000 calls of every
 * kind leave no span open, the global providers are used when the options
 * name none (also when an SDK registers after `instrumentRegistry`), and
 * nothing is recorded, or made active, while no provider is registered.
 */

import { metrics, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, test } from "vitest";
import {
  defineTool,
  executeToolCall,
  prepareToolCall,
  runPreparedToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { createTelemetry, parentId, spanId, useAsyncContext } from "../../test/support/otel.ts";
import { outcomeTools, toolCall } from "../../test/support/otel-tools.ts";
import { instrumentRegistry } from "./index.ts";

useAsyncContext();
const live = () => new AbortController().signal;
const millis = ([seconds, nanos]: [number, number]): number => seconds * 1000 + nanos / 1e6;

afterEach(() => {
  trace.disable();
  metrics.disable();
});

test("a Tool's own span, started after an await inside execute, has the call's span as parent", async () => {
  const telemetry = createTelemetry();
  const fetchLike = defineTool({
    name: "fetch_page",
    description: "Fetch a page (an instrumented client inside).",
    validate: (input) => ({ ok: true, value: input }),
    execute: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const tracer = telemetry.tracerProvider.getTracer("http-client");
      tracer.startActiveSpan("GET /page", (span) => span.end());
      return "<html>";
    },
  });
  const registry = instrumentRegistry(new ToolRegistry([fetchLike]), telemetry);
  await executeToolCall(registry, toolCall("fetch_page"), live());
  const [child, call] = telemetry.spans();
  expect(call?.name).toBe("execute_tool fetch_page");
  expect(child?.name).toBe("GET /page");
  expect(parentId(child as never)).toBe(spanId(call as never));
  await telemetry.shutdown();
});

test("a prepared call's span starts when it runs, not when it was prepared", async () => {
  const telemetry = createTelemetry();
  const registry = instrumentRegistry(outcomeTools(), telemetry);
  const prepared = prepareToolCall(registry, toolCall("echo"), live());
  await new Promise((resolve) => setTimeout(resolve, 60));
  // The SDK states span times on the wall clock (Date.now), to the millisecond.
  const ranAt = Date.now();
  await runPreparedToolCall(prepared);
  const [span] = telemetry.spans();
  // A margin of a few milliseconds, against the 60 ms the call waited after it was prepared.
  expect(millis(span?.startTime as [number, number])).toBeGreaterThan(ranAt - 5);
  await telemetry.shutdown();
});

test("10,000 calls of every outcome leave no span open: each started span ended, once", async () => {
  const telemetry = createTelemetry();
  const registry = instrumentRegistry(outcomeTools(), telemetry);
  const names = [
    "echo",
    "nope",
    "refuse",
    "crash",
    "fail",
    "exotic",
    "fatal",
    "fatalCheck",
    "slow",
  ];
  let settled = 0;
  for (let batch = 0; batch < 100; batch += 1) {
    const controller = new AbortController();
    const calls = Array.from({ length: 100 }, (_, index) => {
      const name = names[(batch * 100 + index) % names.length] as string;
      return executeToolCall(
        registry,
        toolCall(name, {}, `call-${batch}-${index}`),
        controller.signal,
        name === "slow" && index % 2 === 0 ? { timeoutMs: 1 } : undefined,
      ).then(
        () => {
          settled += 1;
        },
        () => {
          settled += 1;
        },
      );
    });
    // The slow calls without a deadline end when their run is cancelled.
    setImmediate(() => controller.abort());
    await Promise.all(calls);
  }
  expect(settled).toBe(10_000);
  expect(telemetry.counts.started).toBe(10_000);
  expect(telemetry.counts.ended).toBe(10_000);
  expect(telemetry.spans()).toHaveLength(10_000);
  const types = new Set(telemetry.spans().map((span) => span.attributes["error.type"]));
  expect(types).toEqual(
    new Set([
      undefined,
      "TOOL_NOT_FOUND",
      "TOOL_ARGUMENTS_INVALID",
      "TOOL_VALIDATION_FAILED",
      "TOOL_EXECUTION_FAILED",
      "TOOL_OUTPUT_SERIALIZATION_FAILED",
      "TOOL_TIMEOUT",
      "non_recoverable",
      "cancelled",
    ]),
  );
  await telemetry.shutdown();
}, 60_000);

describe("the global providers", () => {
  test("are used when the options name none, including an SDK registered after instrumenting", async () => {
    const registry = instrumentRegistry(outcomeTools());
    const telemetry = createTelemetry();
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    await executeToolCall(registry, toolCall("echo"), live());
    expect(telemetry.spans().map((span) => span.name)).toEqual(["execute_tool echo"]);
    expect((await telemetry.durations()).map((point) => point.value.count)).toEqual([1]);
    await telemetry.shutdown();
  });

  test("while none is registered, a call records nothing and makes no span active", async () => {
    const active: unknown[] = [];
    const probe = defineTool({
      name: "probe",
      description: "Report the active span.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => {
        active.push(trace.getActiveSpan());
        return "seen";
      },
    });
    const plain = new ToolRegistry([probe]);
    const registry = instrumentRegistry(plain);
    const traced = await executeToolCall(registry, toolCall("probe"), live());
    expect(traced).toEqual(await executeToolCall(plain, toolCall("probe"), live()));
    expect(active).toEqual([undefined, undefined]);
  });

  test("a meter provider alone still measures every call, with no span", async () => {
    const telemetry = createTelemetry();
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    const registry = instrumentRegistry(outcomeTools());
    await executeToolCall(registry, toolCall("fail"), live());
    expect(telemetry.spans()).toEqual([]);
    const [point] = await telemetry.durations();
    expect(point?.attributes["error.type"]).toBe("TOOL_EXECUTION_FAILED");
    await telemetry.shutdown();
  });
});
