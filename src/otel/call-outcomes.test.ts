/**
 * One span per call through `executeToolCall`, for every outcome the boundary
 * can decide: its name, the GenAI conventions' attributes, `error.type` and
 * status, the deciding phase, the deadline facts, its parent (the caller's
 * active span), that exactly one span started and ended, and the duration
 * histogram's attributes. Real SDK, in-memory exporters.
 */

import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, describe, expect, test } from "vitest";
import {
  type CourseToolCall,
  executeToolCall,
  type ToolCallOptions,
  toolCallWithInvalidArguments,
} from "../../course/src/index.ts";
import { createTelemetry, parentId, spanId, useAsyncContext } from "../../test/support/otel.ts";
import {
  inParentSpan,
  outcomeTools,
  type Traced,
  toolCall,
} from "../../test/support/otel-tools.ts";
import { instrumentRegistry, TOOLBOUND_ATTRIBUTES as TB } from "./index.ts";

useAsyncContext();
const telemetry = createTelemetry();
afterAll(() => telemetry.shutdown());

const traced = instrumentRegistry(outcomeTools(), telemetry);
const live = () => new AbortController().signal;

async function trace(
  call: CourseToolCall,
  options?: ToolCallOptions,
  signal: AbortSignal = live(),
): Promise<Traced & { readonly span: ReadableSpan }> {
  const run = await inParentSpan(telemetry, () => executeToolCall(traced, call, signal, options));
  // Exactly one span per call, besides the parent, and none left open.
  expect(run.calls).toHaveLength(1);
  expect(run.started).toBe(2);
  expect(run.ended).toBe(2);
  const span = run.calls[0] as ReadableSpan;
  expect(parentId(span)).toBe(spanId(run.parent));
  expect(span.spanContext().traceId).toBe(run.parent.spanContext().traceId);
  return { ...run, span };
}

describe("a successful call", () => {
  test("is one execute_tool span with the GenAI attributes, no error and an unset status", async () => {
    const { span, result } = await trace(toolCall("echo", { text: "hi" }));
    expect(result?.content).toBe('{"text":"hi"}');
    expect(span.name).toBe("execute_tool echo");
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "gen_ai.tool.call.id": "call-1",
      "gen_ai.tool.description": "Return the arguments.",
      "gen_ai.tool.type": "function",
      [TB.phase]: "serialization",
      [TB.outputCharacters]: 13,
      [TB.outputOriginalCharacters]: 13,
      [TB.outputTruncated]: false,
    });
    expect(span.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(span.kind).toBe(0); // INTERNAL
  });

  test("under a deadline it met, says the deadline and that the effect is known", async () => {
    const { span } = await trace(toolCall("echo"), { timeoutMs: 60_000 });
    expect(span.attributes[TB.deadlineMs]).toBe(60_000);
    expect(span.attributes[TB.deadlineEffectUnknown]).toBe(false);
  });
});

const tooLong = { text: "x".repeat(100) };

describe.each([
  ["TOOL_NOT_FOUND", toolCall("nope"), undefined, "lookup"],
  ["TOOL_ARGUMENTS_INVALID", toolCall("refuse"), undefined, "validation"],
  [
    "TOOL_ARGUMENTS_INVALID",
    toolCall("echo", tooLong),
    { maxArgumentCharacters: 10 },
    "validation",
  ],
  [
    "TOOL_ARGUMENTS_INVALID",
    toolCallWithInvalidArguments({ id: "call-1", name: "echo" }, "not JSON"),
    undefined,
    "validation",
  ],
  ["TOOL_VALIDATION_FAILED", toolCall("crash"), undefined, "validation"],
  ["TOOL_APPROVAL_DENIED", toolCall("echo"), { approve: (): boolean => false }, "approval"],
  [
    "TOOL_APPROVAL_FAILED",
    toolCall("echo"),
    { approve: (): boolean => "maybe" as never },
    "approval",
  ],
  ["TOOL_EXECUTION_FAILED", toolCall("fail"), undefined, "execute"],
  ["TOOL_TIMEOUT", toolCall("slow"), { timeoutMs: 5 }, "execute"],
  ["TOOL_OUTPUT_SERIALIZATION_FAILED", toolCall("exotic"), undefined, "serialization"],
] as const)("an error result %s (%#)", (code, call, options, phase) => {
  test(`sets error.type ${code}, an error status and phase ${phase}`, async () => {
    const { span, result } = await trace(call, options);
    expect(span.name).toBe(call.name === "nope" ? "execute_tool" : `execute_tool ${call.name}`);
    expect(result?.isError).toBe(true);
    expect(JSON.parse(result?.content ?? "").error.code).toBe(code);
    expect(span.attributes["error.type"]).toBe(code);
    expect(span.attributes[TB.phase]).toBe(phase);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: code });
    expect(span.attributes["gen_ai.tool.call.id"]).toBe("call-1");
    // Error results carry no Tool output: nothing to say about a cut.
    expect(span.attributes[TB.outputCharacters]).toBeUndefined();
  });
});

test("an unknown Tool's span is named execute_tool alone, the model's name an attribute", async () => {
  const { span } = await trace(toolCall("nope"));
  expect(span.name).toBe("execute_tool");
  expect(span.attributes["gen_ai.tool.name"]).toBe("nope");
  expect(span.attributes["gen_ai.tool.description"]).toBeUndefined();
});

test("a deadline that passed says the effect is unknown", async () => {
  const { span } = await trace(toolCall("slow"), { timeoutMs: 5 });
  expect(span.attributes[TB.deadlineMs]).toBe(5);
  expect(span.attributes[TB.deadlineEffectUnknown]).toBe(true);
});

describe("rejections", () => {
  test("cancelled before the call starts: error.type cancelled, phase call", async () => {
    const controller = new AbortController();
    controller.abort(new Error("run stopped"));
    const { span, rejection } = await trace(toolCall("echo"), undefined, controller.signal);
    expect(rejection).toBe(controller.signal.reason);
    // Cancelled before the call was read: no Tool is named.
    expect(span.name).toBe("execute_tool");
    expect(span.attributes["error.type"]).toBe("cancelled");
    expect(span.attributes[TB.phase]).toBe("call");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "cancelled" });
  });

  test("cancelled while execute runs: error.type cancelled, phase execute", async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort(new Error("user pressed stop")));
    const { span, rejection } = await trace(toolCall("slow"), undefined, controller.signal);
    expect(rejection).toBe(controller.signal.reason);
    expect(span.name).toBe("execute_tool slow");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "cancelled" });
    expect(span.attributes["error.type"]).toBe("cancelled");
    expect(span.attributes[TB.phase]).toBe("execute");
  });

  test("cancelled while waiting for approval: phase approval", async () => {
    const controller = new AbortController();
    const approve = () => new Promise<boolean>(() => setImmediate(() => controller.abort()));
    const { span } = await trace(toolCall("echo"), { approve }, controller.signal);
    expect(span.attributes["error.type"]).toBe("cancelled");
    expect(span.attributes[TB.phase]).toBe("approval");
  });

  test.each([
    ["fatal", "execute"],
    ["fatalCheck", "validation"],
  ])(
    "a NonRecoverableToolError from %s: error.type non_recoverable, phase %s",
    async (name, phase) => {
      const { span, rejection } = await trace(toolCall(name));
      expect((rejection as Error).name).toBe("NonRecoverableToolError");
      expect(span.name).toBe(`execute_tool ${name}`);
      expect(span.attributes["error.type"]).toBe("non_recoverable");
      expect(span.attributes[TB.phase]).toBe(phase);
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    },
  );

  test("the host's mistake (bad options): error.type contract_error, phase call, no Tool named", async () => {
    const { span, rejection } = await trace(toolCall("echo"), { timeoutMs: -1 });
    expect((rejection as Error).name).toBe("ToolContractError");
    expect(span.name).toBe("execute_tool");
    expect(span.attributes["error.type"]).toBe("contract_error");
    expect(span.attributes[TB.phase]).toBe("call");
    // The call was never read: nothing of it is on the span.
    expect(span.attributes["gen_ai.tool.call.id"]).toBeUndefined();
  });

  test("a signal that is not an AbortSignal: contract_error", async () => {
    const { span } = await trace(toolCall("echo"), undefined, {} as AbortSignal);
    expect(span.attributes["error.type"]).toBe("contract_error");
  });
});

test("the duration histogram records every call in seconds, with the low-cardinality attributes", async () => {
  const metricsTelemetry = createTelemetry();
  const registry = instrumentRegistry(outcomeTools(), metricsTelemetry);
  await executeToolCall(registry, toolCall("echo"), live());
  await executeToolCall(registry, toolCall("echo", {}, "call-2"), live());
  await executeToolCall(registry, toolCall("fail"), live());
  await executeToolCall(registry, toolCall("model-invented-name"), live());
  const points = await metricsTelemetry.durations();
  const byAttributes = points.map((point) => [point.attributes, point.value.count]);
  expect(byAttributes).toEqual(
    expect.arrayContaining([
      [
        {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "echo",
          "gen_ai.tool.type": "function",
        },
        2,
      ],
      [
        {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "fail",
          "gen_ai.tool.type": "function",
          "error.type": "TOOL_EXECUTION_FAILED",
        },
        1,
      ],
      // The model's unknown name is not a series of its own.
      [
        {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.type": "function",
          "error.type": "TOOL_NOT_FOUND",
        },
        1,
      ],
    ]),
  );
  expect(points).toHaveLength(3);
  for (const point of points) expect(point.value.sum).toBeLessThan(5);
  await metricsTelemetry.shutdown();
});
