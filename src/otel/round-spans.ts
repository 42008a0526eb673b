/**
 * The round hooks behind `instrumentRegistry`: one `execute_tool_calls` span
 * per `executeToolCalls`, the parent of its calls' spans, with the calls in
 * call order, the concurrency the round ran at, and what its character
 * budget cut.
 */

import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { RoundFacts, RoundObserver, RoundPlan } from "../rounds/round-observer.ts";
import {
  ERROR_TYPE,
  MAX_MODEL_TEXT_CHARACTERS,
  MAX_ROUND_CALL_IDS,
  REJECTION_ERROR_TYPES,
  ROUND_SPAN_NAME,
  TOOLBOUND_ATTRIBUTES as TB,
} from "./attribute-names.ts";
import { boundText } from "./bounded-text.ts";
import type { TracerSource } from "./telemetry-sources.ts";

/**
 * One observed round: where it started, and its span once opened.
 *
 * @example
 * const state = new RoundTrace(context.active(), tracer);
 */
export class RoundTrace {
  readonly started = performance.now();
  span: Span | undefined = undefined;

  constructor(
    readonly parent: Context,
    readonly tracer: Tracer,
  ) {}
}

function planAttributes(plan: RoundPlan): Attributes {
  const count = plan.calls.length;
  const attributes: Attributes = {
    [TB.roundCalls]: count,
    [TB.roundCallIds]: plan.calls
      .slice(0, MAX_ROUND_CALL_IDS)
      .map((call) => boundText(call.id, MAX_MODEL_TEXT_CHARACTERS)),
    [TB.roundConcurrency]: Math.min(plan.concurrency, count),
  };
  if (Number.isFinite(plan.maxRoundCharacters)) {
    attributes[TB.roundMaxCharacters] = plan.maxRoundCharacters;
  }
  return attributes;
}

/**
 * The span hooks for every round of an instrumented registry.
 *
 * @example
 * const observer = { ...callHooks, round: new RoundSpans(tracers) };
 */
export class RoundSpans implements RoundObserver<RoundTrace> {
  readonly #tracers: TracerSource;

  constructor(tracers: TracerSource) {
    this.#tracers = tracers;
  }

  start(): RoundTrace | undefined {
    const tracer = this.#tracers.current();
    return tracer === undefined ? undefined : new RoundTrace(context.active(), tracer);
  }

  run(state: RoundTrace, plan: RoundPlan, begin: () => void): void {
    const span = this.#open(state, planAttributes(plan));
    // Every call is prepared (and its start context taken) inside: the round span is their parent.
    context.with(trace.setSpan(state.parent, span), begin);
  }

  end(state: RoundTrace, facts: RoundFacts): void {
    const ended = performance.now();
    // A round refused before it ran (bad options, an abort) still has its span.
    const span = this.#open(state, {});
    span.setAttribute(TB.roundTruncatedResults, facts.cutResults);
    if (facts.rejection !== undefined) {
      const error = REJECTION_ERROR_TYPES[facts.rejection];
      span.setAttribute(ERROR_TYPE, error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    }
    span.end(ended);
  }

  #open(state: RoundTrace, attributes: Attributes): Span {
    if (state.span === undefined) {
      state.span = state.tracer.startSpan(
        ROUND_SPAN_NAME,
        { kind: SpanKind.INTERNAL, startTime: state.started, attributes },
        state.parent,
      );
    }
    return state.span;
  }
}
