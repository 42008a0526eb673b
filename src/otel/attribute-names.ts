/**
 * The names this entry records: OpenTelemetry's GenAI semantic conventions
 * for the tool step, the general `error.type`, and toolbound's own facts
 * under the `toolbound.` prefix.
 */

/** `gen_ai.operation.name`: always `execute_tool` on a call's span. */
export const GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
/** `gen_ai.tool.name`: the registered Tool's name, or (cut) the name the model asked for. */
export const GEN_AI_TOOL_NAME = "gen_ai.tool.name";
/** `gen_ai.tool.call.id`: the call's id (cut). */
export const GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
/** `gen_ai.tool.description`: the registered Tool's description. */
export const GEN_AI_TOOL_DESCRIPTION = "gen_ai.tool.description";
/** `gen_ai.tool.type`: always `function` (a Tool run by this process). */
export const GEN_AI_TOOL_TYPE = "gen_ai.tool.type";
/** `gen_ai.tool.call.arguments`: captured arguments (opt-in, redacted, bounded). */
export const GEN_AI_TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments";
/** `gen_ai.tool.call.result`: the captured result content (opt-in, redacted, bounded). */
export const GEN_AI_TOOL_CALL_RESULT = "gen_ai.tool.call.result";
/** `error.type`: an error result's code, or a rejection's kind. */
export const ERROR_TYPE = "error.type";

/**
 * What `error.type` says for each rejection kind (a call's or a round's).
 *
 * @example
 * REJECTION_ERROR_TYPES["non-recoverable"]; // "non_recoverable"
 */
export const REJECTION_ERROR_TYPES = Object.freeze({
  cancelled: "cancelled",
  "non-recoverable": "non_recoverable",
  "contract-error": "contract_error",
} as const);

/** The operation name of a call's span and metric. */
export const EXECUTE_TOOL = "execute_tool";

/**
 * toolbound's own attributes, by fact.
 *
 * @example
 * span.attributes[TOOLBOUND_ATTRIBUTES.outputLimit]; // "characters"
 */
export const TOOLBOUND_ATTRIBUTES = Object.freeze({
  /** The phase that decided the outcome: call, lookup, validation, approval, execute or serialization. */
  phase: "toolbound.phase",
  /** The result's content in code points, after any cut. */
  outputCharacters: "toolbound.output.characters",
  /** The whole output's JSON text in code points, when known (see the docs). */
  outputOriginalCharacters: "toolbound.output.original_characters",
  /** A top-level string output's length in UTF-16 code units. */
  outputOriginalTextLength: "toolbound.output.original_text_length",
  /** Whether a budget cut the output. */
  outputTruncated: "toolbound.output.truncated",
  /** Which budget cut it: characters, depth, values, entries, string characters or BigInt size. */
  outputLimit: "toolbound.output.limit",
  /** That budget's value (bits for BigInt size). */
  outputLimitValue: "toolbound.output.limit_value",
  /** Where the spill hook put the full output, as its marker names it. */
  outputSpillReference: "toolbound.output.spill_reference",
  /** The deadline the call ran under, in milliseconds. */
  deadlineMs: "toolbound.deadline.ms",
  /** True when the deadline passed: the Tool was asked to stop and its effects are unknown. */
  deadlineEffectUnknown: "toolbound.deadline.effect_unknown",
  /** A round's number of calls. */
  roundCalls: "toolbound.round.calls",
  /** A round's call ids, in call order (each cut; the first {@link MAX_ROUND_CALL_IDS}). */
  roundCallIds: "toolbound.round.call_ids",
  /** The most calls a round had in flight at once: its concurrency, at most its number of calls. */
  roundConcurrency: "toolbound.round.concurrency",
  /** A round's `maxRoundCharacters`, when finite. */
  roundMaxCharacters: "toolbound.round.max_characters",
  /** How many results the round's character budget cut or emptied. */
  roundTruncatedResults: "toolbound.round.truncated_results",
} as const);

/**
 * The histogram of call durations, in seconds.
 *
 * @example
 * metricExporter.getMetrics()[0]?.scopeMetrics[0]?.metrics.find((m) => m.descriptor.name === EXECUTE_TOOL_DURATION);
 */
export const EXECUTE_TOOL_DURATION = "gen_ai.execute_tool.duration";

/**
 * The name of a round's span.
 *
 * @example
 * exporter.getFinishedSpans().filter((span) => span.name === ROUND_SPAN_NAME);
 */
export const ROUND_SPAN_NAME = "execute_tool_calls";

/** The instrumentation scope the tracer and meter are taken under. */
export const INSTRUMENTATION_SCOPE = "toolbound";

/**
 * Ids and unknown Tool names come from the model: recorded up to this many code points.
 *
 * @example
 * [...String(span.attributes["gen_ai.tool.call.id"])].length <= MAX_MODEL_TEXT_CHARACTERS; // true
 */
export const MAX_MODEL_TEXT_CHARACTERS = 256;

/**
 * A round span lists at most this many call ids (the first ones, in call order).
 *
 * @example
 * (roundSpan.attributes["toolbound.round.call_ids"] as string[]).length <= MAX_ROUND_CALL_IDS; // true
 */
export const MAX_ROUND_CALL_IDS = 128;
