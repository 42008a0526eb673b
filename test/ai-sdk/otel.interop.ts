/**
 * `toAiSdkTools` on an instrumented registry, inside the AI SDK's own loops
 * (`generateText`, `streamText`): each Tool call the model asks for is one
 * `execute_tool` span (the OpenTelemetry SDK's in-memory exporter), with the
 * SDK's tool call id, the outcome's `error.type`, and the caller's active
 * span as parent; what the model reads next is the same as untraced.
 */

import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { toAiSdkTools } from "../../src/ai-sdk/index.ts";
import { instrumentRegistry } from "../../src/otel/index.ts";
import { call, type Loop, runLoop, toolOutputs } from "./support/scripted-model.ts";

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(async () => {
  context.disable();
  await tracerProvider.shutdown();
});

function echoRegistry() {
  return new ToolRegistry([
    defineTool({
      name: "echo",
      description: "Repeat the text.",
      parameters: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      validate: (input) => {
        const text = (input as { text?: unknown }).text;
        return typeof text === "string" && text.trim() !== ""
          ? { ok: true, value: { text } }
          : { ok: false, error: "text must be a non-blank string" };
      },
      execute: async ({ text }) => ({ echoed: text }),
    }),
  ]);
}

describe.each(["generateText", "streamText"] as const satisfies readonly Loop[])(
  "the AI SDK's %s with a traced registry",
  (loop) => {
    test("each Tool call is one execute_tool span under the caller's span; the model reads the same", async () => {
      const calls = [call("sdk-call-1", { text: "hi" }), call("sdk-call-2", { text: " " })];
      const plain = await runLoop(loop, await toAiSdkTools(echoRegistry()), calls);
      exporter.reset();
      const tools = await toAiSdkTools(instrumentRegistry(echoRegistry(), { tracerProvider }));
      const tracer = tracerProvider.getTracer("agent");
      const traced = await tracer.startActiveSpan("agent run", async (span) => {
        try {
          return await runLoop(loop, tools, calls);
        } finally {
          span.end();
        }
      });
      expect(toolOutputs(traced.calls[1])).toEqual(toolOutputs(plain.calls[1]));
      const spans = exporter.getFinishedSpans();
      const parent = spans.find((span) => span.name === "agent run");
      const toolSpans = spans.filter((span) => span.name === "execute_tool echo");
      expect(toolSpans).toHaveLength(2);
      const byId = Object.fromEntries(
        toolSpans.map((span) => [span.attributes["gen_ai.tool.call.id"], span]),
      );
      expect(byId["sdk-call-1"]?.attributes["error.type"]).toBeUndefined();
      expect(byId["sdk-call-1"]?.attributes["toolbound.phase"]).toBe("serialization");
      expect(byId["sdk-call-2"]?.attributes["error.type"]).toBe("TOOL_ARGUMENTS_INVALID");
      for (const span of toolSpans) {
        expect(span.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
      }
      expect(trace.getActiveSpan()).toBeUndefined();
    });
  },
);
