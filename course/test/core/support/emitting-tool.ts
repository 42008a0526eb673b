/** The one-Tool set-up the output-budget tests share: a Tool that returns a fixed output. */
import { type CourseToolCall, defineTool, type ToolDefinition } from "../../../src/index.ts";

/** A fresh, never-aborted signal. */
export const signal = (): AbortSignal => new AbortController().signal;

/** A call of the `emit` Tool. */
export const call: CourseToolCall = {
  type: "toolCall",
  id: "call-1",
  name: "emit",
  arguments: {},
};

/** A Tool named `emit` that returns `output`, with optional definition fields. */
export function emitting(output: unknown, extra: Partial<ToolDefinition> = {}) {
  return defineTool({
    name: "emit",
    description: "Returns its output.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async () => output,
    ...extra,
  });
}
