/**
 * Shared set-up of the core tests: one "work" Tool that accepts any arguments
 * and runs whatever `execute` the test hands it, and calls of it.
 */
import {
  type CourseToolCall,
  type CourseToolExecutionContext,
  defineTool,
  ToolRegistry,
} from "../../../src/index.ts";

/** A validator that accepts any input unchanged. */
export const accept = (input: unknown) => ({ ok: true as const, value: input });

/** A call of the "work" Tool. */
export const workCall = (id = "call-1", args: Record<string, unknown> = {}): CourseToolCall =>
  ({ type: "toolCall", id, name: "work", arguments: args }) as CourseToolCall;

/**
 * A registry with one "work" Tool running `execute`, which may return anything
 * (a value, a promise, a hostile thenable): the attack decides.
 */
export function workRegistry(
  execute: (input: unknown, context: CourseToolExecutionContext) => unknown,
): ToolRegistry {
  return new ToolRegistry([
    defineTool({
      name: "work",
      description: "Does work.",
      validate: accept,
      execute: execute as (input: unknown, context: CourseToolExecutionContext) => Promise<unknown>,
    }),
  ]);
}
