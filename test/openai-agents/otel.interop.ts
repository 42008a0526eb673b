/**
 * `toOpenAIAgentsTools` on an instrumented registry, inside OpenAI Agents JS's
 * own runner (plain and streamed): each Tool call the model asks for is one
 * `execute_tool` span (the OpenTelemetry SDK's in-memory exporter), with the
 * SDK's call id, the outcome's `error.type`, and the caller's active span as
 * parent; what the model reads next is the same as untraced.
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
import { toOpenAIAgentsTools } from "../../src/openai-agents/index.ts";
import { instrumentRegistry } from "../../src/otel/index.ts";
import { call, type Mode, runAgent, toolOutputs } from "./support/scripted-run.ts";

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

describe.each(["run", "streamed run"] as const satisfies readonly Mode[])(
  "OpenAI Agents' %s with a traced registry",
  (mode) => {
    test("each Tool call is one execute_tool span under the caller's span; the model reads the same", async () => {
      const calls = [call("agents-call-1", { text: "hi" }), call("agents-call-2", { text: " " })];
      const plain = await runAgent(mode, await toOpenAIAgentsTools(echoRegistry()), calls);
      exporter.reset();
      const tools = await toOpenAIAgentsTools(
        instrumentRegistry(echoRegistry(), { tracerProvider }),
      );
      const tracer = tracerProvider.getTracer("agent");
      const traced = await tracer.startActiveSpan("agent run", async (span) => {
        try {
          return await runAgent(mode, tools, calls);
        } finally {
          span.end();
        }
      });
      expect(traced.error).toBeUndefined();
      const seen = toolOutputs(traced.calls[1]?.request);
      expect(seen).toHaveLength(2);
      expect(seen).toEqual(toolOutputs(plain.calls[1]?.request));
      const spans = exporter.getFinishedSpans();
      const parent = spans.find((one) => one.name === "agent run");
      const toolSpans = spans.filter((one) => one.name === "execute_tool echo");
      expect(toolSpans).toHaveLength(2);
      const byId = Object.fromEntries(
        toolSpans.map((one) => [one.attributes["gen_ai.tool.call.id"], one]),
      );
      expect(byId["agents-call-1"]?.attributes["error.type"]).toBeUndefined();
      expect(byId["agents-call-1"]?.attributes["toolbound.phase"]).toBe("serialization");
      expect(byId["agents-call-2"]?.attributes["error.type"]).toBe("TOOL_ARGUMENTS_INVALID");
      for (const one of toolSpans) {
        expect(one.parentSpanContext?.spanId).toBe(parent?.spanContext().spanId);
      }
      expect(trace.getActiveSpan()).toBeUndefined();
    });
  },
);
