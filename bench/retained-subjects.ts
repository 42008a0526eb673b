/**
 * What the retained-memory rows measure, each run once in a memory child of
 * its own: 10,000 finished echo calls (through `executeToolCall` and through
 * the bare path) and a registry of 1,000 Tools (against the 1,000 definitions
 * it is built from). Each answers what it keeps, so the child can hold it
 * while it collects the garbage.
 */

import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  ToolRegistry,
} from "../course/src/index.ts";
import { createBarePath, type EchoInput, echoCall, echoDefinition } from "./echo-tool.ts";

/** The subjects of the retained-memory rows. */
export type RetainedSubject =
  | "calls-ours"
  | "calls-bare"
  | "registry-ours"
  | "registry-definitions";

/** Finished calls per measurement. */
export const FINISHED_CALLS = 10_000;

/** Tools per registry. */
export const REGISTRY_TOOLS = 1_000;

/** Calls run before the measurement starts, so the engine's compiled code is not billed to it. */
const WARM_UP_CALLS = 2_000;

/** True for a subject of the retained-memory rows. @example isRetainedSubject("calls-ours") // true */
export function isRetainedSubject(subject: string): subject is RetainedSubject {
  return (
    subject === "calls-ours" ||
    subject === "calls-bare" ||
    subject === "registry-ours" ||
    subject === "registry-definitions"
  );
}

/** A Tool definition as a host writes one: its own name, description, schema and `execute`. */
function definition(index: number) {
  return {
    name: `tool_${index}`,
    description: `Tool number ${index}: echoes the text it is given.`,
    parameters: {
      type: "object",
      properties: {
        text: { type: "string", description: "The text to echo." },
        slot: { type: "number", description: "Where the echo goes." },
      },
      required: ["text", "slot"],
    },
    validate: echoDefinition.validate,
    execute: async (input: EchoInput) => ({ echo: input.text, slot: input.slot, tool: index }),
  };
}

/** Builds once from the Tools past the measured ones and drops it; answers the measured build. */
function warmedUp(build: (from: number) => unknown): () => Promise<unknown> {
  if (build(REGISTRY_TOOLS) === undefined) throw new Error("the warm-up build failed");
  return async () => build(0);
}

/**
 * What runs the subject, after setting up what is not measured (the registry,
 * the warm-up calls): its promise resolves with what it keeps.
 *
 * @example
 * const run = await prepareRetained("calls-ours"); const kept = await run();
 */
export async function prepareRetained(subject: RetainedSubject): Promise<() => Promise<unknown>> {
  switch (subject) {
    // A first registry (and list) of other Tools is built and dropped before the measurement,
    // as the calls rows warm up: the engine's compiled code is not billed to the one measured.
    case "registry-ours":
      return warmedUp(
        (from) =>
          new ToolRegistry(
            Array.from({ length: REGISTRY_TOOLS }, (_, index) =>
              defineTool(definition(from + index)),
            ),
          ),
      );
    case "registry-definitions":
      return warmedUp((from) =>
        Array.from({ length: REGISTRY_TOOLS }, (_, index) => definition(from + index)),
      );
    case "calls-ours":
    case "calls-bare": {
      const registry = new ToolRegistry([defineTool(echoDefinition)]);
      const bare = createBarePath([echoDefinition]);
      const signal = new AbortController().signal;
      const run =
        subject === "calls-ours"
          ? (call: CourseToolCall) => executeToolCall(registry, call, signal)
          : (call: CourseToolCall) => bare(call, signal);
      const finish = async (count: number): Promise<number> => {
        let succeeded = 0;
        for (let slot = 0; slot < count; slot += 1) {
          const result = await run(echoCall(slot));
          if (!result.isError) succeeded += 1;
        }
        return succeeded;
      };
      if ((await finish(WARM_UP_CALLS)) !== WARM_UP_CALLS) throw new Error("a warm-up call failed");
      return async () => {
        const succeeded = await finish(FINISHED_CALLS);
        if (succeeded !== FINISHED_CALLS) throw new Error("a measured call failed");
        // What the calls kept is what the heap still holds: the count alone is kept here.
        return succeeded;
      };
    }
  }
}
