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
import type { CourseToolCall } from "../../course/src/index.ts";
import { defineProperty, mathMin, numberIsFinite } from "../../course/src/internal.ts";
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
  /** Whether opening the span was tried: a span processor that throws is not asked again. */
  opened = false;

  constructor(
    readonly parent: Context,
    readonly tracer: Tracer,
  ) {}
}

/**
 * The first call ids, each bounded. By index and defined slots, with the
 * core's captured `Math.min` and no array method: a Tool runs in this process
 * and may have replaced `Array.prototype.slice`, `map` or `Math.min`, or
 * planted an index setter.
 */
function boundedCallIds(calls: RoundPlan["calls"]): string[] {
  const ids: string[] = [];
  const shown = mathMin(calls.length, MAX_ROUND_CALL_IDS);
  for (let index = 0; index < shown; index += 1) {
    const id = boundText((calls[index] as CourseToolCall).id, MAX_MODEL_TEXT_CHARACTERS);
    defineProperty(ids, index, {
      __proto__: null,
      value: id,
      writable: true,
      enumerable: true,
      configurable: true,
    } as PropertyDescriptor);
  }
  return ids;
}

function planAttributes(plan: RoundPlan): Attributes {
  const count = plan.calls.length;
  const attributes: Attributes = {
    [TB.roundCalls]: count,
    [TB.roundCallIds]: boundedCallIds(plan.calls),
    [TB.roundConcurrency]: mathMin(plan.concurrency, count),
  };
  if (numberIsFinite(plan.maxRoundCharacters)) {
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
    // A span that could not be opened (its processor threw): the round still runs, once.
    if (span === undefined) return begin();
    // Every call is prepared (and its start context taken) inside: the round span is their parent.
    context.with(trace.setSpan(state.parent, span), begin);
  }

  end(state: RoundTrace, facts: RoundFacts): void {
    const ended = performance.now();
    // A round refused before it ran (bad options, an abort) still has its span.
    const span = this.#open(state, {});
    if (span === undefined) return;
    span.setAttribute(TB.roundTruncatedResults, facts.cutResults);
    if (facts.rejection !== undefined) {
      const error = REJECTION_ERROR_TYPES[facts.rejection];
      span.setAttribute(ERROR_TYPE, error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    }
    span.end(ended);
  }

  #open(state: RoundTrace, attributes: Attributes): Span | undefined {
    if (!state.opened) {
      state.opened = true;
      state.span = state.tracer.startSpan(
        ROUND_SPAN_NAME,
        { kind: SpanKind.INTERNAL, startTime: state.started, attributes },
        state.parent,
      );
    }
    return state.span;
  }
}
