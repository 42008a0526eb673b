/**
 * Scenario 10: what tracing costs a call. The echo call of scenario 1 through
 * `executeToolCall`, on the same registry plain and instrumented by
 * `toolbound/otel`: with `@opentelemetry/api` loaded but no provider
 * registered (target: at most 1.05x the plain call), and with the
 * OpenTelemetry SDK recording every span and duration into exporters that
 * drop them (information: what a traced call costs before any export).
 */

import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { defineTool, executeToolCall, ToolRegistry } from "../course/src/index.ts";
import { instrumentRegistry } from "../src/otel/index.ts";
import { echoCall, echoDefinition } from "./echo-tool.ts";
import { check, figureOf, type GroupBudget, measureGroup, pairedRatio } from "./harness.ts";
import { atMost, compareRow, type Row } from "./report.ts";

const CALLS_PER_SAMPLE = 100;

// Seven rounds, ratios paired within each round: a 5% target needs load drift cancelled out.
const BUDGET: GroupBudget = {
  rounds: 7,
  timeMs: 300,
  iterations: 50,
  warmupMs: 150,
  warmupIterations: 20,
};

/** A span exporter that drops what it is given: the SDK's work without any export. */
const droppingSpans: SpanExporter = {
  export: (_spans, done: (result: ExportResult) => void) =>
    done({ code: ExportResultCode.SUCCESS }),
  shutdown: () => Promise.resolve(),
};

/** A metric exporter that drops what it is given. */
const droppingMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: ExportResultCode.SUCCESS }),
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};

/**
 * Measures the echo call plain, instrumented with no provider, and
 * instrumented with the SDK, and returns the scenario's two rows.
 *
 * @example
 * const rows = await tracingScenario();
 */
export async function tracingScenario(): Promise<Row[]> {
  const plain = new ToolRegistry([defineTool(echoDefinition)]);
  const unregistered = instrumentRegistry(plain);
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(droppingSpans)],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: droppingMetrics,
        exportIntervalMillis: 60_000,
      }),
    ],
  });
  const recorded = instrumentRegistry(plain, { tracerProvider, meterProvider });
  const signal = new AbortController().signal;
  const call = echoCall(1);

  const expected = await executeToolCall(plain, call, signal);
  check(!expected.isError, "the echo call must succeed");
  for (const registry of [unregistered, recorded]) {
    const result = await executeToolCall(registry, call, signal);
    check(result.content === expected.content, "tracing must not change the result");
  }

  const task = (name: string, registry: ToolRegistry) => ({
    name,
    async: true,
    opsPerSample: CALLS_PER_SAMPLE,
    sample: async () => {
      for (let index = 0; index < CALLS_PER_SAMPLE; index += 1) {
        await executeToolCall(registry, call, signal);
      }
    },
  });
  const figures = await measureGroup(
    "9 tracing overhead",
    [
      task("plain registry", plain),
      task("instrumented, no provider", unregistered),
      task("instrumented, SDK", recorded),
    ],
    BUDGET,
  );
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  const plainNs = figureOf(figures, "plain registry").nsPerOp;
  const idleNs = figureOf(figures, "instrumented, no provider").nsPerOp;
  const sdkNs = figureOf(figures, "instrumented, SDK").nsPerOp;
  return [
    compareRow({
      id: "10",
      scenario: 10,
      title:
        "tracing: echo call on an instrumented registry, @opentelemetry/api loaded, no provider",
      figures: [
        { label: "instrumented", value: idleNs, unit: "ns" },
        { label: "plain (row 1's call)", value: plainNs, unit: "ns" },
      ],
      ratioLabel: "instrumented / plain, median of the rounds' own ratios",
      ratio: pairedRatio(
        figures,
        (at) => at("instrumented, no provider"),
        (at) => at("plain registry"),
      ),
      target: atMost(1.05),
    }),
    compareRow({
      id: "10'",
      scenario: 10,
      title:
        "tracing: the same call with the SDK recording (span and histogram, exporters that drop)",
      figures: [
        { label: "SDK", value: sdkNs, unit: "ns" },
        { label: "plain", value: plainNs, unit: "ns" },
      ],
      ratioLabel: "SDK / plain, median of the rounds' own ratios",
      ratio: pairedRatio(
        figures,
        (at) => at("instrumented, SDK"),
        (at) => at("plain registry"),
      ),
      target: null,
    }),
  ];
}
