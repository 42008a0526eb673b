/**
 * Example Tools used by the demo, the guides and the command line: a default
 * export of Tool definitions (what `toolbound call|list|mcp <module>` loads).
 */

import type { AnyCourseTool, CourseToolValidation } from "../course/src/index.ts";
import { defineTool } from "../course/src/index.ts";

type Fields = Readonly<Record<string, unknown>>;

/** Narrows `unknown` to an object whose own fields can be checked. */
function fields(input: unknown): Fields | undefined {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Fields)
    : undefined;
}

function invalid(error: string): CourseToolValidation<never> {
  return { ok: false, error };
}

/** `add`: adds two finite numbers. */
export const add = defineTool({
  name: "add",
  description: "Add two numbers and return their sum.",
  parameters: {
    type: "object",
    properties: { left: { type: "number" }, right: { type: "number" } },
    required: ["left", "right"],
    additionalProperties: false,
  },
  validate: (input): CourseToolValidation<{ left: number; right: number }> => {
    const args = fields(input);
    if (args === undefined) return invalid("arguments must be an object");
    const { left, right } = args;
    if (typeof left !== "number" || !Number.isFinite(left)) return invalid("left must be a number");
    if (typeof right !== "number" || !Number.isFinite(right)) {
      return invalid("right must be a number");
    }
    return { ok: true, value: { left, right } };
  },
  execute: async ({ left, right }) => ({ sum: left + right }),
});

/** `repeat`: repeats a text; with a large count its output is truncated at the boundary. */
export const repeat = defineTool({
  name: "repeat",
  description: "Repeat a text a number of times.",
  parameters: {
    type: "object",
    properties: {
      text: { type: "string" },
      times: { type: "integer", minimum: 1, maximum: 10_000_000 },
    },
    required: ["text", "times"],
    additionalProperties: false,
  },
  validate: (input): CourseToolValidation<{ text: string; times: number }> => {
    const args = fields(input);
    if (args === undefined) return invalid("arguments must be an object");
    const { text, times } = args;
    if (typeof text !== "string") return invalid("text must be a string");
    if (typeof times !== "number" || !Number.isInteger(times) || times < 1 || times > 10_000_000) {
      return invalid("times must be an integer from 1 to 10000000");
    }
    return { ok: true, value: { text, times } };
  },
  execute: async ({ text, times }) => text.repeat(times),
});

/** `today`: returns a Date object, which the boundary refuses to serialize. */
export const today = defineTool({
  name: "today",
  description: "Return the current date (as a Date object, which the boundary refuses).",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  validate: (input): CourseToolValidation<Fields> => {
    const args = fields(input);
    return args === undefined ? invalid("arguments must be an object") : { ok: true, value: args };
  },
  execute: async () => new Date(),
});

/** `read_file`: a stand-in for a Tool whose effect fails; it always throws. */
export const readFile = defineTool({
  name: "read_file",
  description: "Read a file (this example always fails with ENOENT).",
  parameters: {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
    additionalProperties: false,
  },
  validate: (input): CourseToolValidation<{ path: string }> => {
    const path = fields(input)?.path;
    return typeof path === "string" && path.length > 0
      ? { ok: true, value: { path } }
      : invalid("path must be a non-empty string");
  },
  execute: async ({ path }) => {
    throw new Error(`ENOENT: no such file: ${path}`);
  },
});

/** `sleep`: waits, and stops early when its signal aborts. */
export const sleep = defineTool({
  name: "sleep",
  description: "Wait for a number of milliseconds, stopping early when cancelled.",
  parameters: {
    type: "object",
    properties: { ms: { type: "integer", minimum: 0, maximum: 600_000 } },
    required: ["ms"],
    additionalProperties: false,
  },
  validate: (input): CourseToolValidation<{ ms: number }> => {
    const ms = fields(input)?.ms;
    return typeof ms === "number" && Number.isInteger(ms) && ms >= 0 && ms <= 600_000
      ? { ok: true, value: { ms } }
      : invalid("ms must be an integer from 0 to 600000");
  },
  execute: ({ ms }, { signal }) =>
    new Promise<{ slept: number }>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve({ slept: ms });
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
    }),
});

/** Every example Tool, in the order the demo and `toolbound list` show them. */
const tools: readonly AnyCourseTool[] = [add, repeat, today, readFile, sleep];
export default tools;
