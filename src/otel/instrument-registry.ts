/**
 * `instrumentRegistry`: a snapshot of a registry whose every call is traced,
 * whatever runs it (`executeToolCall`, `prepareToolCall` and
 * `runPreparedToolCall`, `executeToolCalls`, the MCP server, the command
 * line, the framework adapters), because the observer travels with the
 * registry and its snapshots.
 */

import {
  context,
  defaultTextMapGetter,
  propagation,
  type TextMapPropagator,
} from "@opentelemetry/api";
import type { ToolRegistry } from "../../course/src/index.ts";
import { isToolRegistry, withCallObserver } from "../../course/src/internal.ts";
import type { TraceCarrier } from "../mcp/trace-context.ts";
import { CallSpans } from "./call-spans.ts";
import { type InstrumentOptions, readInstrumentOptions } from "./instrument-options.ts";
import { RoundSpans } from "./round-spans.ts";
import { HistogramSource, TracerSource } from "./telemetry-sources.ts";

/** Runs `run` in the context a request's W3C trace context names. */
function remoteContext(propagator: TextMapPropagator | undefined) {
  return <T>(carrier: TraceCarrier, run: () => T): T => {
    const active = context.active();
    const extracted =
      propagator === undefined
        ? propagation.extract(active, carrier, defaultTextMapGetter)
        : propagator.extract(active, carrier, defaultTextMapGetter);
    return context.with(extracted, run);
  };
}

/**
 * Returns a snapshot of `registry` (the same Tools and options; `registry`
 * itself is unchanged) whose every call is traced with OpenTelemetry: one
 * `execute_tool {name}` span per call, with the GenAI conventions'
 * attributes, `error.type` and status for errors and rejections, and
 * toolbound's facts (`toolbound.phase`, what the output budget cut and why,
 * the spill reference, whether a deadline left the effect unknown); one
 * `execute_tool_calls` span per round, parenting its calls; and the
 * `gen_ai.execute_tool.duration` histogram (seconds). The call's span is the
 * active context while its Tool runs, and a request's W3C trace context (MCP
 * `_meta`) is honoured. Results are exactly what the uninstrumented registry
 * gives. While no tracer or meter provider is registered (and none is given),
 * calls are not observed at all. Throws a TypeError for a registry that is
 * not a ToolRegistry or a bad option.
 *
 * @example
 * import { instrumentRegistry } from "toolbound/otel";
 * const traced = instrumentRegistry(new ToolRegistry(tools));
 * await executeToolCall(traced, call, signal); // one span, "execute_tool add"
 */
export function instrumentRegistry(
  registry: ToolRegistry,
  options?: InstrumentOptions,
): ToolRegistry {
  if (!isToolRegistry(registry)) throw new TypeError("instrumentRegistry needs a ToolRegistry");
  const settings = readInstrumentOptions(options);
  const tracers = new TracerSource(settings.tracerProvider);
  const calls = new CallSpans(
    tracers,
    new HistogramSource(settings.meterProvider),
    settings.capture,
  );
  // The surfaces find their own hooks on the observer: `round` (executeToolCalls) and
  // `remoteContext` (a request's trace context, MCP).
  const observer = Object.freeze({
    start: () => calls.start(),
    resume: calls.resume.bind(calls),
    execute: calls.execute.bind(calls),
    end: calls.end.bind(calls),
    round: new RoundSpans(tracers),
    remoteContext: remoteContext(settings.propagator),
  });
  return withCallObserver(registry, observer);
}
