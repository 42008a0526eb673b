/**
 * Test support for Tool rounds (not part of the published surface): tool-call
 * builders, a turn-by-turn wait, and registries of gated and echo Tools.
 */

import { type CourseToolCall, defineTool, ToolRegistry } from "../../course/src/index.ts";

/** A Tool call snapshot-ready for a round; `name` defaults to the "work" Tool. */
export const call = (
  id: string,
  name = "work",
  args: Record<string, unknown> = {},
): CourseToolCall => ({ type: "toolCall", id, name, arguments: args }) as CourseToolCall;

/** A validator that accepts any input unchanged. */
export const accept = (input: unknown) => ({ ok: true as const, value: input });

/** Resolves after the current turn of the event loop (never by the clock). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits, turn by turn (never by the clock), until `condition` holds. */
export async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1000; turn += 1) {
    if (condition()) return;
    await nextTurn();
  }
  throw new Error("the awaited condition never held");
}

/**
 * A registry with one "work" Tool whose calls each wait for the test to
 * release them by id. It records what was validated (as JSON), which calls
 * started and ended (in that order), and each call's signal; `release(id,
 * value)` lets call `id` return `value` (default: `id`) and waits until it ended.
 */
export function gatedTools() {
  const gates = new Map<string, (value: unknown) => void>();
  const signals = new Map<string, AbortSignal>();
  const started: string[] = [];
  const ended: string[] = [];
  const validated: string[] = [];
  const work = defineTool({
    name: "work",
    description: "Waits for its gate.",
    validate: (input) => {
      validated.push(JSON.stringify(input));
      return accept(input);
    },
    execute: async (_input, { signal, toolCallId }) => {
      started.push(toolCallId);
      signals.set(toolCallId, signal);
      const value = await new Promise((resolve) => gates.set(toolCallId, resolve));
      ended.push(toolCallId);
      return value;
    },
  });
  const release = async (id: string, value: unknown = id) => {
    await until(() => gates.has(id));
    gates.get(id)?.(value);
    await until(() => ended.includes(id));
  };
  return { registry: new ToolRegistry([work]), signals, started, ended, validated, release };
}

/** A registry with one "work" Tool that accepts any input and answers "ok". */
export const echoTools = () =>
  new ToolRegistry([
    defineTool({
      name: "work",
      description: "Echoes.",
      validate: accept,
      execute: async () => "ok",
    }),
  ]);
