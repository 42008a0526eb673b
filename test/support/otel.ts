/**
 * Test support for `toolbound/otel`: the OpenTelemetry SDK's own test tools
 * (the in-memory span exporter and the in-memory metric exporter behind a
 * metric reader), a span processor that counts spans started and ended, and
 * the AsyncLocalStorage context manager, registered for one test file.
 */

import { type MeterProvider as ApiMeterProvider, context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll } from "vitest";
import { EXECUTE_TOOL_DURATION } from "../../src/otel/index.ts";

/** Counts what the SDK started and ended, so an open span shows as a difference. */
class CountingProcessor implements SpanProcessor {
  started = 0;
  ended = 0;
  onStart(): void {
    this.started += 1;
  }
  onEnd(): void {
    this.ended += 1;
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** A tracer provider and a meter provider recording in memory. */
export interface Telemetry {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: ApiMeterProvider;
  readonly counts: { readonly started: number; readonly ended: number };
  /** Every finished span, in the order they ended. */
  spans(): ReadableSpan[];
  /** The spans named `name`. */
  named(name: string): ReadableSpan[];
  /** The duration histogram's data points, collected now. */
  durations(): Promise<HistogramMetricData["dataPoints"]>;
  /** Forgets the spans recorded so far. */
  reset(): void;
  shutdown(): Promise<void>;
}

/**
 * Real SDK providers: a BasicTracerProvider with a SimpleSpanProcessor into
 * an InMemorySpanExporter, and a MeterProvider whose reader exports into an
 * InMemoryMetricExporter on demand.
 *
 * @example
 * const telemetry = createTelemetry();
 * const traced = instrumentRegistry(registry, telemetry);
 */
export function createTelemetry(): Telemetry {
  const exporter = new InMemorySpanExporter();
  const counting = new CountingProcessor();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [counting, new SimpleSpanProcessor(exporter)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    counts: counting,
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    durations: async () => {
      metricExporter.reset();
      await reader.forceFlush();
      const metric = metricExporter
        .getMetrics()
        .flatMap((resource) => resource.scopeMetrics)
        .flatMap((scope) => scope.metrics)
        .find((found) => found.descriptor.name === EXECUTE_TOOL_DURATION);
      return (metric as HistogramMetricData | undefined)?.dataPoints ?? [];
    },
    reset: () => exporter.reset(),
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/**
 * Registers the AsyncLocalStorage context manager for the calling test file
 * (so a span can be the active context across `await`), and removes it after.
 */
export function useAsyncContext(): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });
}

/** A span's parent span id, or undefined for a root span. */
export const parentId = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

/** A span's own span id. */
export const spanId = (span: ReadableSpan): string => span.spanContext().spanId;
