/**
 * Properties of `toolbound/otel`'s content capture: for any call (any
 * arguments, any output), any capture budget and any redaction hook (one
 * that answers any JSON value or long text, throws, or asks for nothing),
 * each captured attribute of the call's span holds at most the budget's code
 * points; with capture off, no content attribute is ever recorded.
 */

import fc from "fast-check";
import {
  defineTool,
  executeToolCall,
  type OutputBudget,
  ToolRegistry,
} from "../../../course/src/index.ts";
import {
  CAPTURE_CHARACTERS_RANGE,
  type ContentRedactor,
  instrumentRegistry,
} from "../../../src/otel/index.ts";
import { createTelemetry } from "../../support/otel.ts";
import { codePoints } from "../support/budget-model.ts";
import { longString, plainJson, plainJsonObject } from "../support/json-arbitraries.ts";

const CONTENT = ["gen_ai.tool.call.arguments", "gen_ai.tool.call.result"];

const [LOWEST, HIGHEST] = CAPTURE_CHARACTERS_RANGE;

/** Mostly budgets the content can pass; the range's floor and ceiling sometimes. */
const captureBudget = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: LOWEST, max: LOWEST + 3_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(LOWEST, HIGHEST) },
);

/** What a redaction hook may do: keep, replace with JSON or long text, throw, or drop. */
const redaction = fc.oneof(
  fc.constant<ContentRedactor | undefined>(undefined),
  fc.constant<ContentRedactor>((content) => content),
  plainJson.map<ContentRedactor>((value) => () => value),
  longString.map<ContentRedactor>((text) => () => text),
  fc.constant<ContentRedactor>(() => {
    throw new Error("redaction bug");
  }),
  fc.constant<ContentRedactor>(() => undefined),
);

const outputBudget = fc.option(
  fc.record({
    maxCharacters: fc.integer({ min: 1024, max: 20_000 }),
  }) as fc.Arbitrary<OutputBudget>,
  { nil: undefined },
);

/** How many cases recorded content, so a test can see the property was not vacuous. */
export const captureCounts = { cases: 0, captured: 0 };

/** Captured attributes stay within their budget, for any call and redaction hook. */
export function capturedContentStaysWithinItsBudget() {
  const telemetry = createTelemetry();
  return fc.asyncProperty(
    plainJsonObject,
    fc.oneof(plainJson, longString),
    captureBudget,
    redaction,
    fc.boolean(),
    outputBudget,
    async (args, output, maxCaptureCharacters, redact, captureContent, budget) => {
      telemetry.reset();
      const tool = defineTool({
        name: "emit",
        description: "Return the generated output.",
        validate: (input) => ({ ok: true, value: input }),
        execute: async () => output,
      });
      const registry = instrumentRegistry(new ToolRegistry([tool]), {
        ...telemetry,
        captureContent,
        maxCaptureCharacters,
        ...(redact === undefined ? {} : { redact }),
      });
      await executeToolCall(
        registry,
        { type: "toolCall", id: "call-1", name: "emit", arguments: args },
        new AbortController().signal,
        budget === undefined ? undefined : { outputBudget: budget },
      );
      const spans = telemetry.spans();
      if (spans.length !== 1) return false;
      const attributes = spans[0]?.attributes ?? {};
      captureCounts.cases += 1;
      if (CONTENT.some((name) => attributes[name] !== undefined)) captureCounts.captured += 1;
      for (const name of CONTENT) {
        const value = attributes[name];
        if (!captureContent && value !== undefined) return false;
        if (value === undefined) continue;
        if (typeof value !== "string" || codePoints(value) > maxCaptureCharacters) return false;
      }
      return true;
    },
  );
}
