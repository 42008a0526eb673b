/**
 * A call's span attributes: the GenAI conventions' tool attributes when the
 * span opens, and at its end the outcome (`error.type`, status) and
 * toolbound's own facts: the deciding phase, what the cut did, the deadline.
 */

import { type Attributes, type Span, SpanStatusCode } from "@opentelemetry/api";
import type { CourseToolCall, RegisteredCourseTool } from "../../course/src/index.ts";
import type { CallFacts } from "../../course/src/internal.ts";
import {
  ERROR_TYPE,
  EXECUTE_TOOL,
  GEN_AI_OPERATION_NAME,
  GEN_AI_TOOL_CALL_ID,
  GEN_AI_TOOL_DESCRIPTION,
  GEN_AI_TOOL_NAME,
  GEN_AI_TOOL_TYPE,
  MAX_MODEL_TEXT_CHARACTERS,
  REJECTION_ERROR_TYPES,
  TOOLBOUND_ATTRIBUTES as TB,
} from "./attribute-names.ts";
import { boundText } from "./bounded-text.ts";

/**
 * The span's name: `execute_tool {name}` for a registered Tool, else `execute_tool`.
 *
 * @example
 * spanName(registry.get("add")); // "execute_tool add"
 */
export function spanName(tool: RegisteredCourseTool | undefined): string {
  // An unknown name is the model's text: never a span name, whose values must stay few.
  return tool === undefined ? EXECUTE_TOOL : `${EXECUTE_TOOL} ${tool.name}`;
}

/**
 * The attributes a call's span opens with (samplers see them).
 *
 * @example
 * openingAttributes(call, tool)["gen_ai.tool.call.id"]; // "call-1"
 */
export function openingAttributes(
  call: CourseToolCall | undefined,
  tool: RegisteredCourseTool | undefined,
): Attributes {
  const attributes: Attributes = {
    [GEN_AI_OPERATION_NAME]: EXECUTE_TOOL,
    [GEN_AI_TOOL_TYPE]: "function",
  };
  if (call !== undefined) {
    attributes[GEN_AI_TOOL_NAME] = tool?.name ?? boundText(call.name, MAX_MODEL_TEXT_CHARACTERS);
    attributes[GEN_AI_TOOL_CALL_ID] = boundText(call.id, MAX_MODEL_TEXT_CHARACTERS);
  }
  if (tool !== undefined) attributes[GEN_AI_TOOL_DESCRIPTION] = tool.description;
  return attributes;
}

/**
 * `error.type` for an outcome: the result's code, the rejection's kind, or none for a success.
 *
 * @example
 * errorType(facts); // "TOOL_TIMEOUT", "cancelled", or undefined
 */
export function errorType(facts: CallFacts): string | undefined {
  if (facts.rejection !== undefined) return REJECTION_ERROR_TYPES[facts.rejection];
  return facts.result?.isError === true ? facts.code : undefined;
}

/**
 * Records the outcome and toolbound's facts on `span`.
 *
 * @example
 * recordOutcome(span, facts, errorType(facts));
 */
export function recordOutcome(span: Span, facts: CallFacts, error: string | undefined): void {
  const attributes: Attributes = { [TB.phase]: facts.phase };
  const output = facts.output;
  if (output !== undefined) {
    attributes[TB.outputCharacters] = output.characters;
    attributes[TB.outputTruncated] = output.truncated;
    if (output.originalCharacters !== undefined) {
      attributes[TB.outputOriginalCharacters] = output.originalCharacters;
    }
    if (output.originalTextLength !== undefined) {
      attributes[TB.outputOriginalTextLength] = output.originalTextLength;
    }
    if (output.limit !== undefined) attributes[TB.outputLimit] = output.limit;
    if (output.limitValue !== undefined) attributes[TB.outputLimitValue] = output.limitValue;
    if (output.spillReference !== undefined) {
      attributes[TB.outputSpillReference] = output.spillReference;
    }
  }
  if (facts.timeoutMs !== undefined) {
    attributes[TB.deadlineMs] = facts.timeoutMs;
    attributes[TB.deadlineEffectUnknown] = facts.effectUnknown;
  }
  if (error !== undefined) attributes[ERROR_TYPE] = error;
  span.setAttributes(attributes);
  // A success leaves the status unset, as the conventions ask; every error sets it.
  if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
}

/**
 * The duration histogram's attributes: the same low-cardinality ones as the span's.
 *
 * @example
 * histogram.record(seconds, metricAttributes(tool, "TOOL_EXECUTION_FAILED"));
 */
export function metricAttributes(
  tool: RegisteredCourseTool | undefined,
  error: string | undefined,
): Attributes {
  const attributes: Attributes = {
    [GEN_AI_OPERATION_NAME]: EXECUTE_TOOL,
    [GEN_AI_TOOL_TYPE]: "function",
  };
  // Only a registered name: the model's unknown names would be unbounded series.
  if (tool !== undefined) attributes[GEN_AI_TOOL_NAME] = tool.name;
  if (error !== undefined) attributes[ERROR_TYPE] = error;
  return attributes;
}
