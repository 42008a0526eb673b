/**
 * The AI SDK to toolbound: wraps an AI SDK tool as a defined Tool of ours, so
 * that `executeToolCall` runs it behind our boundary (synchronous validation
 * before effects, the run's signal, bounded transcript text).
 */

import { types } from "node:util";
import {
  type CourseToolExecutionContext,
  defineTool,
  type RegisteredCourseTool,
  ToolContractError,
} from "../../course/src/index.ts";
import { type StandardSchemaV1, schemaTool } from "../schema/index.ts";
import { readAiSdkInputSchema } from "./ai-sdk-input-schema.ts";
import { fromAiSdkModelOutput } from "./ai-sdk-model-output.ts";

/**
 * The parts of an AI SDK `Tool` that `fromAiSdkTool` reads: `type`,
 * `description`, `inputSchema`, `execute`, `toModelOutput` and
 * `contextSchema` (only to refuse it). Any tool made with the SDK's `tool()`
 * or `dynamicTool()` fits.
 *
 * @example
 * const add: AiSdkToolLike = tool({
 *   description: "Add two numbers.",
 *   inputSchema: z.object({ left: z.number(), right: z.number() }),
 *   execute: async ({ left, right }) => left + right,
 * });
 */
export interface AiSdkToolLike {
  readonly type?: string | undefined;
  readonly description?: unknown;
  readonly inputSchema?: unknown;
  readonly contextSchema?: unknown;
  // `never` parameters: any AI SDK execute fits, whatever its input type.
  readonly execute?: ((input: never, options: never) => unknown) | undefined;
  readonly toModelOutput?: ((options: never) => unknown) | undefined;
}

function invalid(message: string, cause?: unknown): never {
  throw new ToolContractError(
    "INVALID_TOOL_DEFINITION",
    message,
    cause === undefined ? undefined : { cause },
  );
}

/** Reads one field once (inherited too); a throwing getter becomes INVALID_TOOL_DEFINITION. */
function readField(tool: object, key: string, toolName: string): unknown {
  try {
    return Reflect.get(tool, key);
  } catch (thrown) {
    return invalid(`AI SDK tool "${toolName}" field "${key}" threw when read`, thrown);
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/** The last value of a streaming tool (the SDK's final output); stops reading once the signal aborts. */
async function lastOutput(outputs: AsyncIterable<unknown>, signal: AbortSignal): Promise<unknown> {
  let last: unknown;
  for await (const output of outputs) {
    last = output;
    if (signal.aborted) break;
  }
  return last;
}

/**
 * Wraps an AI SDK tool (from `tool()` or `dynamicTool()`) as a defined Tool of
 * ours named `name` (the key it had in the SDK's ToolSet). Reads `type`,
 * `description`, `inputSchema`, `execute` and `contextSchema` once each. The
 * input schema validates the model's arguments synchronously, before any
 * effect: a zod or other Standard Schema through `schemaTool` (a schema that
 * answers with a Promise makes the call `TOOL_VALIDATION_FAILED`), a
 * `jsonSchema(schema, { validate })` through its `validate`, likewise
 * synchronous. `execute(input, { toolCallId, abortSignal, messages: [],
 * context: undefined })` receives our call id and the boundary's signal; its
 * result (for a streaming tool, the last value it yields) is the output our
 * serializer bounds. A tool with `toModelOutput` has it called with `{
 * toolCallId, input, output }`, and what the model would read becomes the
 * output instead: `text` its text, `json` its value, `content` a
 * `toolContent` value (text parts, and inline image, audio and file data as
 * parts the boundary checks; URLs and provider references as a line saying
 * they were left out), and `error-text`, `error-json` or `execution-denied`
 * a `TOOL_EXECUTION_FAILED` result with its text. Throws
 * ToolContractError INVALID_TOOL_DEFINITION naming the problem for a tool that
 * is not an object or is a Proxy, a throwing field, a tool without `execute`
 * (a client-side tool the application answers itself), a non-function
 * `execute` or `toModelOutput`, a provider tool, a `contextSchema`, a missing or non-string
 * description, and an input schema it cannot check; SchemaToolError from
 * `schemaTool` for a Standard Schema that cannot write JSON Schema.
 *
 * @example
 * const add = fromAiSdkTool("add", tool({
 *   description: "Add two numbers.",
 *   inputSchema: z.object({ left: z.number(), right: z.number() }),
 *   execute: async ({ left, right }) => ({ sum: left + right }),
 * }));
 * const result = await executeToolCall(new ToolRegistry([add]), call, signal);
 * // result.content === '{"sum":42}'
 */
export function fromAiSdkTool(name: string, tool: AiSdkToolLike): RegisteredCourseTool {
  const label = typeof name === "string" ? name : String(name);
  if ((typeof tool !== "object" && typeof tool !== "function") || tool === null) {
    return invalid(`AI SDK tool "${label}" must be an object`);
  }
  if (types.isProxy(tool)) return invalid(`AI SDK tool "${label}" must not be a Proxy`);
  const type = readField(tool, "type", label);
  const description = readField(tool, "description", label);
  const inputSchema = readField(tool, "inputSchema", label);
  const execute = readField(tool, "execute", label);
  const contextSchema = readField(tool, "contextSchema", label);
  const toModelOutput = readField(tool, "toModelOutput", label);
  if (toModelOutput !== undefined && typeof toModelOutput !== "function") {
    return invalid(`AI SDK tool "${label}" toModelOutput must be a function`);
  }
  if (type !== undefined && type !== "function" && type !== "dynamic") {
    return invalid(
      `AI SDK tool "${label}" is a ${String(type)} tool; only function and dynamic tools run behind the boundary`,
    );
  }
  if (execute === undefined) {
    return invalid(
      `AI SDK tool "${label}" has no execute: a client-side tool is answered by the application, so there is nothing to run`,
    );
  }
  if (typeof execute !== "function")
    return invalid(`AI SDK tool "${label}" execute must be a function`);
  if (contextSchema !== undefined) {
    return invalid(
      `AI SDK tool "${label}" has a contextSchema; the boundary has no tool context to give it`,
    );
  }
  if (typeof description !== "string") {
    return invalid(`AI SDK tool "${label}" needs a description string`);
  }
  const run = async (input: unknown, { signal, toolCallId }: CourseToolExecutionContext) => {
    const options = { toolCallId, abortSignal: signal, messages: [], context: undefined };
    const returned: unknown = Reflect.apply(execute, tool, [input, options]);
    const output = isAsyncIterable(returned) ? await lastOutput(returned, signal) : await returned;
    if (toModelOutput === undefined) return output;
    // What the SDK would show the model: its text, its JSON, or its parts as toolContent.
    const modelOutput: unknown = await Reflect.apply(toModelOutput, tool, [
      { toolCallId, input, output },
    ]);
    return fromAiSdkModelOutput(modelOutput);
  };
  const read = readAiSdkInputSchema(inputSchema, label);
  if (read.kind === "standard") {
    return schemaTool({ name, description, schema: read.schema as StandardSchemaV1, execute: run });
  }
  return defineTool({
    name,
    description,
    validate: read.validate,
    execute: run,
    parameters: read.parameters,
  });
}
