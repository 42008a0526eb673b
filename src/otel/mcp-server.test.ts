/**
 * A traced registry served over MCP (the official SDK's Client and the
 * bridge, over the SDK's in-memory transport, as a stdio server serves it):
 * each `tools/call` is one span, and a request's W3C trace context in
 * `_meta` makes it a child of the caller's span; absent, malformed or
 * oversized trace context is ignored, and no result changes.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import examples from "../../examples/tools.ts";
import { createTelemetry, useAsyncContext } from "../../test/support/otel.ts";
import { serveToolRegistry } from "../mcp/index.ts";
import { type InstrumentOptions, instrumentRegistry } from "./index.ts";

useAsyncContext();
const telemetry = createTelemetry();
afterAll(() => telemetry.shutdown());

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const SPAN_ID = "b7ad6b7169203331";
const TRACEPARENT = `00-${TRACE_ID}-${SPAN_ID}-01`;

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
  propagation.disable();
  telemetry.reset();
});

async function connect(registry: ToolRegistry) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serveToolRegistry(registry, serverSide);
  const client = new Client({ name: "otel-test", version: "1.0.0" });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

const traced = (options: InstrumentOptions = {}) =>
  instrumentRegistry(new ToolRegistry(examples), { ...telemetry, ...options });

const add = (meta?: Record<string, unknown>) => ({
  name: "add",
  arguments: { left: 20, right: 22 },
  ...(meta === undefined ? {} : { _meta: meta }),
});

describe("a tools/call request on a traced registry", () => {
  test("is one execute_tool span, with the same result as untraced", async () => {
    const plain = await (await connect(new ToolRegistry(examples))).callTool(add());
    const client = await connect(traced());
    expect(await client.callTool(add())).toEqual(plain);
    const spans = telemetry.spans();
    expect(spans.map((span) => span.name)).toEqual(["execute_tool add"]);
    expect(spans[0]?.attributes["gen_ai.tool.call.id"]).toMatch(/^mcp-\d+$/);
    expect(spans[0]?.parentSpanContext).toBeUndefined();
  });

  test.each([
    ["the propagator the options name", { propagator: new W3CTraceContextPropagator() }, false],
    ["the globally registered propagator", {}, true],
  ])(
    "with a traceparent in _meta, through %s, is a child of the caller's span",
    async (_label, options, global) => {
      if (global) propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      const client = await connect(traced(options));
      const result = await client.callTool(
        add({ traceparent: TRACEPARENT, tracestate: "vendor=1" }),
      );
      expect(result.isError).toBe(false);
      const [span] = telemetry.spans();
      expect(span?.spanContext().traceId).toBe(TRACE_ID);
      expect(span?.parentSpanContext?.spanId).toBe(SPAN_ID);
      expect(span?.spanContext().traceState?.get("vendor")).toBe("1");
    },
  );

  test.each([
    ["a malformed traceparent", { traceparent: "00-not-a-trace-context" }],
    ["an oversized traceparent", { traceparent: `${TRACEPARENT}${"-0".repeat(5_000)}` }],
    ["a traceparent that is not a string", { traceparent: 42 }],
    ["no traceparent, only a tracestate", { tracestate: "vendor=1" }],
  ])("with %s, is a root span and the call runs as usual", async (_label, meta) => {
    const client = await connect(traced({ propagator: new W3CTraceContextPropagator() }));
    const result = await client.callTool(add(meta));
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":42}' }], isError: false });
    const [span] = telemetry.spans();
    expect(span?.name).toBe("execute_tool add");
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.spanContext().traceId).not.toBe(TRACE_ID);
  });
});
