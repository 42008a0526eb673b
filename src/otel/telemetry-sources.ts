/**
 * Where spans and measurements go: the providers named in the options, or
 * the globally registered ones, looked up on every call so that an SDK
 * started after `instrumentRegistry` is still used. While neither a tracer
 * provider nor a meter provider is registered, a call is not observed at all:
 * the core runs it as if the registry were not instrumented.
 */

import {
  createNoopMeter,
  type Histogram,
  type MeterProvider,
  metrics,
  ProxyTracerProvider,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { EXECUTE_TOOL_DURATION, INSTRUMENTATION_SCOPE } from "./attribute-names.ts";

// The API's own no-op provider, what its global proxy delegates to until an SDK registers.
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
// The API's no-op meter class: its global meter provider answers one until an SDK registers.
const NoopMeter = createNoopMeter().constructor;

/**
 * The boundaries of the GenAI conventions' duration histograms, in seconds,
 * below which three finer ones for fast Tools.
 */
const DURATION_BOUNDARIES = [
  0.001, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48,
  40.96, 81.92,
];

/**
 * The tracer to record with, or undefined while only the API's no-op provider is there.
 *
 * @example
 * const tracer = new TracerSource(undefined).current(); // undefined until an SDK registers
 */
export class TracerSource {
  readonly #given: TracerProvider | undefined;
  #provider: TracerProvider | undefined;
  #tracer: Tracer | undefined;

  constructor(given: TracerProvider | undefined) {
    this.#given = given;
  }

  current(): Tracer | undefined {
    const provider = this.#given ?? trace.getTracerProvider();
    if (provider === NOOP_TRACER_PROVIDER) return undefined;
    if (
      provider instanceof ProxyTracerProvider &&
      provider.getDelegate() === NOOP_TRACER_PROVIDER
    ) {
      return undefined;
    }
    if (provider !== this.#provider) {
      this.#provider = provider;
      this.#tracer = provider.getTracer(INSTRUMENTATION_SCOPE);
    }
    return this.#tracer;
  }
}

/**
 * The duration histogram, or undefined while only the API's no-op meter provider is there.
 *
 * @example
 * new HistogramSource(meterProvider).current()?.record(0.012, { "gen_ai.tool.name": "add" });
 */
export class HistogramSource {
  readonly #given: MeterProvider | undefined;
  #provider: MeterProvider | undefined;
  #histogram: Histogram | undefined;

  constructor(given: MeterProvider | undefined) {
    this.#given = given;
  }

  current(): Histogram | undefined {
    const provider = this.#given ?? metrics.getMeterProvider();
    if (provider !== this.#provider) {
      this.#provider = provider;
      const meter = provider.getMeter(INSTRUMENTATION_SCOPE);
      this.#histogram =
        meter instanceof NoopMeter
          ? undefined
          : meter.createHistogram(EXECUTE_TOOL_DURATION, {
              description: "Duration of Tool calls through the toolbound boundary",
              unit: "s",
              advice: { explicitBucketBoundaries: DURATION_BOUNDARIES },
            });
    }
    return this.#histogram;
  }
}
