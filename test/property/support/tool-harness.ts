/**
 * Small helpers for driving `executeToolCall` in properties: a Tool whose
 * validator and executor count their calls, a call builder, and a settle
 * tracker that tells a result from a rejection without ever leaving a
 * rejection unobserved.
 */

import { getEventListeners } from "node:events";
import {
  type AnyCourseTool,
  type CourseToolExecutionContext,
  type CourseToolResultMessage,
  type CourseToolValidation,
  defineTool,
  ToolRegistry,
} from "../../../course/src/index.ts";

/** How often the Tool's two functions ran. */
export interface Calls {
  validate: number;
  execute: number;
}

/** A registry holding one Tool named `probe` built from the given functions, and their call counts. */
export function probeRegistry(
  validate: (input: unknown) => unknown,
  execute: (input: unknown, context: { signal: AbortSignal; toolCallId: string }) => unknown,
): { registry: ToolRegistry; calls: Calls } {
  const calls: Calls = { validate: 0, execute: 0 };
  // The functions are deliberately loose: properties make them misbehave.
  const tool = defineTool<unknown, unknown>({
    name: "probe",
    description: "A Tool that counts what the boundary lets through.",
    validate: ((input: unknown) => {
      calls.validate += 1;
      return validate(input);
    }) as (input: unknown) => CourseToolValidation<unknown>,
    execute: ((input: unknown, context: CourseToolExecutionContext) => {
      calls.execute += 1;
      return execute(input, context);
    }) as (input: unknown, context: CourseToolExecutionContext) => Promise<unknown>,
  });
  return { registry: new ToolRegistry([tool as AnyCourseTool]), calls };
}

/** A well-formed Tool call object. */
export function toolCall(name: string, args: unknown, id = "call-property"): unknown {
  return { type: "toolCall", id, name, arguments: args };
}

/** How a call ended: a result message, or a rejection with its reason. */
export type Outcome =
  | { readonly kind: "resolved"; readonly message: CourseToolResultMessage }
  | { readonly kind: "rejected"; readonly reason: unknown };

/** Waits for a call to settle and reports how. The rejection is always observed. */
export function outcomeOf(pending: Promise<CourseToolResultMessage>): Promise<Outcome> {
  return pending.then(
    (message): Outcome => ({ kind: "resolved", message }),
    (reason: unknown): Outcome => ({ kind: "rejected", reason }),
  );
}

/** Resolves after the current macrotask, so timers and settled promises run first. */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The number of "abort" listeners Node sees on `signal`. */
export function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, "abort").length;
}

/** Parses an error result's content into its code and message. */
export function errorOf(message: CourseToolResultMessage): { code: string; message: string } {
  const parsed = JSON.parse(message.content) as { error: { code: string; message: string } };
  return parsed.error;
}

/** Throws unless `message` is a frozen result linked to `id` and the `probe` Tool. */
export function assertLinked(message: CourseToolResultMessage, id: string): void {
  if (!Object.isFrozen(message)) throw new Error("the result is not frozen");
  if (message.toolCallId !== id || message.id !== `tool-result-${id}`) {
    throw new Error(`the result is not linked to ${id}`);
  }
  if (message.role !== "toolResult" || message.toolName !== "probe") {
    throw new Error("the result has the wrong role or Tool name");
  }
}
