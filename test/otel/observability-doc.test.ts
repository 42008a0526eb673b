/**
 * `docs/observability.md`: its code blocks are exactly the marked lines of
 * files the tests compile and run. The
 * ten-line Node SDK set-up (`examples/otel-setup.ts`) is built with the
 * package and run as a user runs it, against an OTLP receiver on loopback; the
 * redaction example records redacted content.
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { metrics, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { executeToolCall } from "../../course/src/index.ts";
import { mirroredExample } from "../setup/doc-example.ts";
import { ensureBuilt, ROOT } from "../support/cli.ts";
import { createTelemetry } from "../support/otel.ts";
import { outcomeTools, toolCall } from "../support/otel-tools.ts";
import { attribute, type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.ts";
import { redactedRegistry } from "./redaction-example.ts";

const SETUP = new URL("../../examples/otel-setup.ts", import.meta.url);

describe("the doc's code", () => {
  test("the ten-line set-up is exactly the example's lines", () => {
    const { shown, marked } = mirroredExample(SETUP);
    expect(marked.split("\n").filter((line) => line.trim() !== "")).toHaveLength(10);
    expect(shown).toBe(marked);
  });

  test("the redaction block is exactly the redaction example's lines", () => {
    const { shown, marked } = mirroredExample(new URL("./redaction-example.ts", import.meta.url));
    expect(shown).toBe(marked);
  });
});

describe("the ten-line set-up, run as a user runs it", { timeout: 60_000 }, () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    await ensureBuilt();
    receiver = await startOtlpReceiver();
  }, 180_000);
  afterAll(async () => {
    await receiver?.close();
  });

  test("prints the result and exports its execute_tool span to the OTLP endpoint", async () => {
    const { code, stdout } = await runExample({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_LOGS_EXPORTER: "none",
      OTEL_SERVICE_NAME: "doc-example",
    });
    expect(code).toBe(0);
    expect(stdout).toContain(`content: '{"sum":5}'`);
    const [span] = receiver.spans();
    expect(span?.name).toBe("execute_tool add");
    expect(span?.service).toBe("doc-example");
    expect(attribute(span as never, "toolbound.output.characters")).toBe(9);
  });
});

/** Runs `node dist/examples/otel-setup.js` with `env` added to the environment. */
async function runExample(env: Record<string, string>) {
  const child = spawn(process.execPath, [join(ROOT, "dist/examples/otel-setup.js")], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, stdout };
}

test("the redaction example records the arguments with the key redacted, and no result", async () => {
  const telemetry = createTelemetry();
  trace.setGlobalTracerProvider(telemetry.tracerProvider);
  metrics.setGlobalMeterProvider(telemetry.meterProvider);
  try {
    const registry = redactedRegistry(outcomeTools());
    await executeToolCall(
      registry,
      toolCall("echo", { apiKey: "sk-live", q: "x" }),
      new AbortController().signal,
    );
    await executeToolCall(registry, toolCall("echo", { q: "y" }), new AbortController().signal);
    const [span, keyless] = telemetry.spans();
    expect(span?.attributes["gen_ai.tool.call.arguments"]).toBe('{"apiKey":"[redacted]","q":"x"}');
    // The echo's result held the key: not recorded.
    expect(span?.attributes).not.toHaveProperty("gen_ai.tool.call.result");
    // Arguments without a key are recorded as they are, with no key added.
    expect(keyless?.attributes["gen_ai.tool.call.arguments"]).toBe('{"q":"y"}');
  } finally {
    trace.disable();
    metrics.disable();
    await telemetry.shutdown();
  }
});
