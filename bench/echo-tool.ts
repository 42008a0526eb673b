/**
 * The trivial Tool the per-call scenarios run, and the bare path a
 * hand-written agent would use instead of the boundary: look the Tool up,
 * call its validator, await `execute`, `JSON.stringify` the output and build a
 * frozen result object.
 */

import type {
  CourseToolCall,
  CourseToolExecutionContext,
  CourseToolResultMessage,
  CourseToolValidation,
} from "../course/src/index.ts";

/** The echo Tool's validated arguments: the text to echo, and a slot number the concurrency scenario uses. */
export interface EchoInput {
  readonly text: string;
  readonly slot: number;
}

/** What the echo Tool returns. */
export interface EchoOutput {
  readonly echo: string;
  readonly slot: number;
}

/**
 * The echo Tool's validator: a pure, synchronous check of `{ text: string, slot: number }`.
 *
 * @example
 * validateEcho({ text: "hi", slot: 0 }); // { ok: true, value: { text: "hi", slot: 0 } }
 */
export function validateEcho(input: unknown): CourseToolValidation<EchoInput> {
  if (typeof input !== "object" || input === null) {
    return { ok: false, error: "arguments must be an object" };
  }
  const { text, slot } = input as { readonly text?: unknown; readonly slot?: unknown };
  if (typeof text !== "string") return { ok: false, error: "text must be a string" };
  if (typeof slot !== "number") return { ok: false, error: "slot must be a number" };
  return { ok: true, value: { text, slot } };
}

/**
 * The echo Tool as a plain definition (four fields), ready for `defineTool`
 * or for the bare path.
 *
 * @example
 * const registry = new ToolRegistry([defineTool(echoDefinition)]);
 */
export const echoDefinition = {
  name: "echo",
  description: "Echo the text back.",
  validate: validateEcho,
  execute: async (input: EchoInput): Promise<EchoOutput> => ({
    echo: input.text,
    slot: input.slot,
  }),
};

/**
 * Builds a normalized Tool call with small arguments.
 *
 * @example
 * echoCall(3); // { type: "toolCall", id: "call-echo-3", name: "echo", arguments: { text: "hello 3", slot: 3 } }
 */
export function echoCall(slot: number, name = "echo"): CourseToolCall {
  return {
    type: "toolCall",
    id: `call-echo-${slot}`,
    name,
    arguments: { text: `hello ${slot}`, slot },
  };
}

/** A Tool as the bare path sees it: no snapshot, no wrappers. */
export interface BareTool {
  readonly name: string;
  readonly validate: (input: unknown) => CourseToolValidation<unknown>;
  readonly execute: (input: never, context: CourseToolExecutionContext) => Promise<unknown>;
}

/** The bare path's signature: the same inputs and result shape as `executeToolCall`. */
export type BarePath = (
  call: CourseToolCall,
  signal: AbortSignal,
) => Promise<CourseToolResultMessage>;

/**
 * The path a hand-written agent runs: a Map lookup, the validator, `await
 * execute`, `JSON.stringify`, and a frozen result object. No snapshot, no
 * cancellation race, no output budget. Rejections are left to the caller.
 *
 * @example
 * const bare = createBarePath([echoDefinition]);
 * await bare(echoCall(1), new AbortController().signal); // { id: "tool-result-call-echo-1", …, isError: false }
 */
export function createBarePath(tools: readonly BareTool[]): BarePath {
  const byName = new Map<string, BareTool>();
  for (const tool of tools) byName.set(tool.name, tool);
  return async (call, signal) => {
    const tool = byName.get(call.name);
    if (tool === undefined) throw new Error(`Unknown Tool "${call.name}"`);
    const decision = tool.validate(call.arguments);
    if (!decision.ok) throw new Error(decision.error);
    const output = await tool.execute(decision.value as never, { signal, toolCallId: call.id });
    return Object.freeze({
      id: `tool-result-${call.id}`,
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: JSON.stringify(output),
      isError: false,
    });
  };
}
