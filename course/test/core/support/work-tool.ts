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

/** `levels` objects nested under `a`, around `end`. */
function chain(levels: number, end: object = {}): object {
  let node = end;
  for (let level = 0; level < levels; level += 1) node = { a: node };
  return node;
}

/**
 * A call of "work" whose arguments hold one 201-level value twice: at the
 * top, and again under 101 levels, where reusing its copy would nest past the
 * 256 the snapshot accepts ("a value repeated here nests 201 levels").
 */
export function repeatedDeepValueCall(): CourseToolCall {
  const shared = chain(200);
  return workCall("call-1", { x: shared, y: chain(100, { s: shared }) });
}
