/**
 * A round through `executeToolCalls` on an instrumented registry: one
 * `execute_tool_calls` span, child of the caller's span, parenting one span
 * per call, with the calls in call order, the concurrency the round ran at,
 * and what its character budget cut; a rejected round's span says why.
 */

import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, expect, test } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { createTelemetry, parentId, spanId, useAsyncContext } from "../../test/support/otel.ts";
import { inParentSpan, outcomeTools, toolCall } from "../../test/support/otel-tools.ts";
import { executeToolCalls, type ToolRoundOptions } from "../rounds/index.ts";
import { instrumentRegistry, ROUND_SPAN_NAME, TOOLBOUND_ATTRIBUTES as TB } from "./index.ts";

useAsyncContext();
const telemetry = createTelemetry();
afterAll(() => telemetry.shutdown());
const traced = instrumentRegistry(outcomeTools(), telemetry);

async function round(
  calls: ReturnType<typeof toolCall>[],
  options?: ToolRoundOptions,
  registry = traced,
) {
  let results: readonly unknown[] | undefined;
  const run = await inParentSpan(telemetry, async () => {
    results = await executeToolCalls(registry, calls, new AbortController().signal, options);
    return undefined as never;
  });
  const roundSpans = run.calls.filter((span) => span.name === ROUND_SPAN_NAME);
  expect(roundSpans).toHaveLength(1);
  const roundSpan = roundSpans[0] as ReadableSpan;
  expect(parentId(roundSpan)).toBe(spanId(run.parent));
  const callSpans = run.calls.filter((span) => span !== roundSpan);
  // Nothing left open: every span the SDK started (parent, round, calls) ended.
  expect(run.ended).toBe(run.started);
  return { ...run, roundSpan, callSpans, results };
}

test("the round span parents its calls and states their order, its concurrency and its cuts", async () => {
  const calls = [
    toolCall("echo", { text: "a".repeat(40) }, "first"),
    toolCall("nope", {}, "second"),
    toolCall("echo", { text: "b" }, "third"),
  ];
  const { roundSpan, callSpans, results } = await round(calls, {
    concurrency: 2,
    maxRoundCharacters: 60,
  });
  expect(results).toHaveLength(3);
  expect(roundSpan.attributes).toEqual({
    [TB.roundCalls]: 3,
    [TB.roundCallIds]: ["first", "second", "third"],
    [TB.roundConcurrency]: 2,
    [TB.roundMaxCharacters]: 60,
    [TB.roundTruncatedResults]: 2,
  });
  expect(roundSpan.status.code).toBe(SpanStatusCode.UNSET);
  expect(callSpans.map((span) => span.attributes["gen_ai.tool.call.id"]).sort()).toEqual([
    "first",
    "second",
    "third",
  ]);
  for (const span of callSpans) expect(parentId(span)).toBe(spanId(roundSpan));
});

test("unlimited concurrency is stated as the calls in flight at once: all of them", async () => {
  const { roundSpan } = await round([toolCall("echo", {}, "a"), toolCall("echo", {}, "b")], {
    concurrency: Number.POSITIVE_INFINITY,
  });
  expect(roundSpan.attributes[TB.roundConcurrency]).toBe(2);
  expect(roundSpan.attributes[TB.roundMaxCharacters]).toBeUndefined();
});

test("with concurrency 1, each call's span covers its own run: they do not overlap", async () => {
  const wait = defineTool({
    name: "wait",
    description: "Take 30 ms.",
    validate: (input) => ({ ok: true, value: input }),
    execute: () => new Promise((resolve) => setTimeout(() => resolve("done"), 30)),
  });
  const registry = instrumentRegistry(new ToolRegistry([wait]), telemetry);
  const { callSpans } = await round(
    [toolCall("wait", {}, "one"), toolCall("wait", {}, "two")],
    undefined,
    registry,
  );
  const byId = (id: string) =>
    callSpans.find((span) => span.attributes["gen_ai.tool.call.id"] === id) as ReadableSpan;
  const millis = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
  // Each span's times are put on the wall clock to the millisecond: a margin of five, against
  // the 30 ms by which the second span would start too early if it started when prepared.
  expect(millis(byId("two").startTime)).toBeGreaterThan(millis(byId("one").endTime) - 5);
});

test("a round stopped by a NonRecoverableToolError: error.type non_recoverable on the round span", async () => {
  const { roundSpan, callSpans, rejection } = await round(
    [toolCall("slow", {}, "waiting"), toolCall("fatal", {}, "broken")],
    { concurrency: 2 },
  );
  expect((rejection as Error).name).toBe("NonRecoverableToolError");
  expect(roundSpan.attributes["error.type"]).toBe("non_recoverable");
  expect(roundSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: "non_recoverable" });
  const types = Object.fromEntries(
    callSpans.map((span) => [
      span.attributes["gen_ai.tool.call.id"],
      span.attributes["error.type"],
    ]),
  );
  // The running call saw the round's abort: cancelled, with the fatal error as its reason.
  expect(types).toEqual({ waiting: "cancelled", broken: "non_recoverable" });
});

test("a round refused for its options still has its span: contract_error, no call span", async () => {
  const { roundSpan, callSpans, rejection } = await round([toolCall("echo")], {
    concurrency: 0,
  });
  expect((rejection as Error).name).toBe("ToolContractError");
  expect(roundSpan.attributes["error.type"]).toBe("contract_error");
  expect(callSpans).toEqual([]);
});

test("a cancelled round: error.type cancelled", async () => {
  const controller = new AbortController();
  controller.abort();
  const run = await inParentSpan(
    telemetry,
    () => executeToolCalls(traced, [toolCall("echo")], controller.signal) as never,
  );
  const [roundSpan] = run.calls;
  expect(roundSpan?.name).toBe(ROUND_SPAN_NAME);
  expect(roundSpan?.attributes["error.type"]).toBe("cancelled");
});
