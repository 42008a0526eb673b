/**
 * `--otel` on the built command line, as a user runs it: the Node SDK set up
 * by the standard `OTEL_*` variables exports each call's span (and the
 * duration histogram) to an OTLP endpoint, here a receiver on loopback; the
 * results on standard output do not change; over MCP a request's
 * `traceparent` parents the span; without the optional peers the flag is
 * refused in one line.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BINARY,
  EXAMPLES,
  ensureBuilt,
  finished,
  lineOn,
  lines,
  ROOT,
  run,
  start,
} from "../../test/support/cli.ts";
import {
  attribute,
  type OtlpReceiver,
  startOtlpReceiver,
} from "../../test/support/otlp-receiver.ts";

const ADD = '{"name":"add","arguments":{"left":20,"right":22}}';

let receiver: OtlpReceiver;
beforeAll(async () => {
  await ensureBuilt();
  receiver = await startOtlpReceiver();
}, 180_000);
afterAll(async () => {
  await receiver?.close();
});

/** The standard variables pointing the SDK at the receiver, as OTLP/JSON; logs off. */
const otelEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_LOGS_EXPORTER: "none",
  ...extra,
});

/** The spans received for one call id (ids differ per test). */
const spansOf = (callId: string) =>
  receiver.spans().filter((span) => attribute(span, "gen_ai.tool.call.id") === callId);

describe("toolbound call --otel", { timeout: 60_000 }, () => {
  test("exports one execute_tool span per call and prints exactly the untraced result", async () => {
    const plain = await run(["call", EXAMPLES, ADD]);
    const traced = await run(
      ["call", EXAMPLES, "--otel", ADD.replace("{", '{"id":"otel-1",')],
      "",
      {
        env: otelEnv(),
      },
    );
    expect(traced.code).toBe(0);
    expect(traced.stderr).toBe("");
    expect(traced.stdout.replaceAll("otel-1", "call-1")).toBe(plain.stdout);
    const [span, ...others] = spansOf("otel-1");
    expect(others).toEqual([]);
    expect(span?.name).toBe("execute_tool add");
    expect(span?.service).toBe("toolbound");
    expect(attribute(span as never, "gen_ai.operation.name")).toBe("execute_tool");
    expect(attribute(span as never, "toolbound.phase")).toBe("serialization");
    expect(receiver.metricNames()).toContain("gen_ai.execute_tool.duration");
  });

  test("honours OTEL_SERVICE_NAME, and an error result's span says its code", async () => {
    const call = '{"id":"otel-2","name":"add","arguments":{"left":"one"}}';
    const traced = await run(["call", EXAMPLES, "--otel", call], "", {
      env: otelEnv({ OTEL_SERVICE_NAME: "calculator-tools" }),
    });
    expect(JSON.parse(traced.stdout).isError).toBe(true);
    const [span] = spansOf("otel-2");
    expect(span?.service).toBe("calculator-tools");
    expect(attribute(span as never, "error.type")).toBe("TOOL_ARGUMENTS_INVALID");
    expect(span?.status?.code).toBe(2);
  });

  test("with OTEL_SDK_DISABLED=true, runs as usual and exports nothing", async () => {
    const call = '{"id":"otel-3","name":"add","arguments":{"left":1,"right":2}}';
    const traced = await run(["call", EXAMPLES, "--otel", call], "", {
      env: otelEnv({ OTEL_SDK_DISABLED: "true" }),
    });
    expect(JSON.parse(traced.stdout).content).toBe('{"sum":3}');
    // The process has ended, and with it every export it would have made.
    expect(spansOf("otel-3")).toEqual([]);
  });
});

describe("toolbound mcp --otel", { timeout: 60_000 }, () => {
  test("a request's traceparent in _meta parents the call's span, exported when the server ends", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BINARY, "mcp", EXAMPLES, "--otel"],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), ...otelEnv() },
      stderr: "pipe",
    });
    const client = new Client({ name: "otel-cli-test", version: "1.0.0" });
    await client.connect(transport);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parent = "00f067aa0ba902b7";
    const result = await client.callTool({
      name: "add",
      arguments: { left: 1, right: 1 },
      _meta: { traceparent: `00-${traceId}-${parent}-01` },
    });
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":2}' }], isError: false });
    const exported = receiver.waitForSpans(receiver.spans().length + 1);
    await client.close();
    await exported;
    const span = receiver.spans().find((found) => found.traceId === traceId);
    expect(span?.name).toBe("execute_tool add");
    expect(span?.parentSpanId).toBe(parent);
  });
});

describe("toolbound mcp --http --otel", { timeout: 60_000 }, () => {
  test("over Streamable HTTP too, a request's traceparent parents the span, exported when SIGTERM stops the server", async () => {
    const child = start(["mcp", "--http", "127.0.0.1:0", "--otel", EXAMPLES], { env: otelEnv() });
    const done = finished(child);
    try {
      const banner = await lineOn(child.stderr, (line) =>
        line.startsWith("toolbound mcp: serving"),
      );
      const url = /at (http:\/\/\S+)/.exec(banner)?.[1] ?? "";
      const client = new Client({ name: "otel-http-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const traceId = "0af7651916cd43dd8448eb211c80319c";
      const parent = "b7ad6b7169203331";
      const result = await client.callTool({
        name: "add",
        arguments: { left: 2, right: 2 },
        _meta: { traceparent: `00-${traceId}-${parent}-01` },
      });
      expect(result).toEqual({ content: [{ type: "text", text: '{"sum":4}' }], isError: false });
      await client.close();
      const exported = receiver.waitForSpans(receiver.spans().length + 1);
      child.kill("SIGTERM");
      expect((await done).code).toBe(0);
      await exported;
      const span = receiver.spans().find((found) => found.traceId === traceId);
      expect(span?.name).toBe("execute_tool add");
      expect(span?.parentSpanId).toBe(parent);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});

describe("without the OpenTelemetry peers", { timeout: 60_000 }, () => {
  // A resolve hook that makes the peers impossible to find, as if they were not installed.
  const hook = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@opentelemetry/")) {
    throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}`;
  const register = `import { register } from "node:module"; register(${JSON.stringify(
    `data:text/javascript,${encodeURIComponent(hook)}`,
  )});`;
  const nodeOptions = ["--import", `data:text/javascript,${encodeURIComponent(register)}`];

  test("--otel is refused in one line naming what to install; without it the call runs", async () => {
    const refused = await run(["call", EXAMPLES, "--otel", ADD], "", { nodeOptions });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(lines(refused.stderr)).toEqual([
      "toolbound: --otel needs the optional peer dependencies @opentelemetry/api and " +
        "@opentelemetry/sdk-node; install them with: npm install @opentelemetry/api @opentelemetry/sdk-node",
    ]);
    const plain = await run(["call", EXAMPLES, ADD], "", { nodeOptions });
    expect(JSON.parse(plain.stdout).content).toBe('{"sum":42}');
  });
});
