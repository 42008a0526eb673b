/**
 * The call observer behind `instrumentRegistry`: one span per call, named
 * `execute_tool {name}`, opened when the Tool is about to run (or when the
 * outcome is decided without running it) with the start time and parent
 * context of the call's start, active while `execute` runs, and ended with
 * the outcome's facts; plus one duration measurement per call.
 */

import {
  type Context,
  context,
  type Histogram,
  type Span,
  SpanKind,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { CourseToolCall, RegisteredCourseTool } from "../../course/src/index.ts";
import type { CallFacts, CallObserver } from "../../course/src/internal.ts";
import { GEN_AI_TOOL_CALL_ARGUMENTS, GEN_AI_TOOL_CALL_RESULT } from "./attribute-names.ts";
import {
  errorType,
  metricAttributes,
  openingAttributes,
  recordOutcome,
  spanName,
} from "./call-attributes.ts";
import { type CaptureSettings, capturedText } from "./content-capture.ts";
import type { HistogramSource, TracerSource } from "./telemetry-sources.ts";

/**
 * One observed call: where it started, and its span once opened.
 *
 * @example
 * const state = new CallTrace(context.active(), tracer, histogram);
 */
export class CallTrace {
  started = performance.now();
  span: Span | undefined = undefined;
  /** Whether opening the span was tried: a span processor that throws is not asked again. */
  opened = false;

  constructor(
    readonly parent: Context,
    readonly tracer: Tracer | undefined,
    readonly histogram: Histogram | undefined,
  ) {}
}

/**
 * The span and metric hooks for every call of an instrumented registry.
 *
 * @example
 * withCallObserver(registry, new CallSpans(tracers, histograms, undefined));
 */
export class CallSpans implements CallObserver<CallTrace> {
  readonly #tracers: TracerSource;
  readonly #histograms: HistogramSource;
  readonly #capture: CaptureSettings | undefined;

  constructor(
    tracers: TracerSource,
    histograms: HistogramSource,
    capture: CaptureSettings | undefined,
  ) {
    this.#tracers = tracers;
    this.#histograms = histograms;
    this.#capture = capture;
  }

  start(): CallTrace | undefined {
    const tracer = this.#tracers.current();
    const histogram = this.#histograms.current();
    // Nothing registered to record with: the call runs unobserved, at no cost.
    if (tracer === undefined && histogram === undefined) return undefined;
    return new CallTrace(context.active(), tracer, histogram);
  }

  resume(state: CallTrace): void {
    // A prepared call's span covers its run, not the wait since it was prepared.
    state.started = performance.now();
  }

  execute(
    state: CallTrace,
    call: CourseToolCall,
    tool: RegisteredCourseTool,
    run: () => void,
  ): void {
    const span = this.#open(state, call, tool);
    if (span === undefined) return run();
    // The Tool's own instrumented work (HTTP, a database) nests under the call's span.
    context.with(trace.setSpan(state.parent, span), run);
  }

  end(state: CallTrace, facts: CallFacts): void {
    const ended = performance.now();
    const error = errorType(facts);
    // The measurement first: opening and ending the span run the host's span processors, and
    // one that throws (reported as a warning) must not cost the call its duration.
    state.histogram?.record((ended - state.started) / 1000, metricAttributes(facts.tool, error));
    const span = this.#open(state, facts.call, facts.tool);
    if (span !== undefined) {
      recordOutcome(span, facts, error);
      if (this.#capture !== undefined && span.isRecording()) this.#captureContent(span, facts);
      span.end(ended);
    }
  }

  #open(
    state: CallTrace,
    call: CourseToolCall | undefined,
    tool: RegisteredCourseTool | undefined,
  ): Span | undefined {
    if (state.opened || state.tracer === undefined) return state.span;
    state.opened = true;
    state.span = state.tracer.startSpan(
      spanName(tool),
      {
        kind: SpanKind.INTERNAL,
        startTime: state.started,
        attributes: openingAttributes(call, tool),
      },
      state.parent,
    );
    return state.span;
  }

  #captureContent(span: Span, facts: CallFacts): void {
    const capture = this.#capture as CaptureSettings;
    const call = facts.call;
    if (call === undefined) return;
    const about = { toolName: call.name, toolCallId: call.id };
    const args = capturedText(call.arguments, { kind: "arguments", ...about }, capture);
    if (args !== undefined) span.setAttribute(GEN_AI_TOOL_CALL_ARGUMENTS, args);
    if (facts.result === undefined) return;
    const result = capturedText(facts.result.content, { kind: "result", ...about }, capture);
    if (result !== undefined) span.setAttribute(GEN_AI_TOOL_CALL_RESULT, result);
  }
}
