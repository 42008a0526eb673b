/**
 * toolbound to OpenAI Agents JS: our registered Tools as the SDK's function
 * tools whose `execute` runs `executeToolCall`, so an agent's `run()` gets
 * validation before effects, bounded output and cancellation from our
 * boundary, and the model reads our content for successes and errors alike.
 */

import {
  type CourseJsonObject,
  type CourseJsonValue,
  type CourseToolCall,
  type CourseToolResultMessage,
  executeToolCall,
  type ToolCallOptions,
  type ToolRegistry,
  type ToolResultPart,
  toolCallWithInvalidArguments,
} from "../../course/src/index.ts";
import {
  addSlot,
  isToolRegistry,
  lookupTool,
  mapGet,
  mapSet,
  NativeMap,
  registryNames,
  snapshotWithFormat,
} from "../../course/src/internal.ts";
import { partLine } from "../providers/result-parts.ts";
import {
  dropNullOptionals,
  dropsStrictNulls,
  SchemaToolError,
  toOpenAIStrictSchema,
} from "../schema/index.ts";
import {
  loadOpenAIAgents,
  type OpenAIAgentsFunctionTool,
  type OpenAIAgentsJsonSchema,
  type OpenAIAgentsToolFactory,
  type OpenAIAgentsToolOutput,
} from "./openai-agents-module.ts";
import { openAIAgentsRepairs } from "./repair-openai-agents-model.ts";

/**
 * The `parameters` a function tool gets when ours has none: any object. The
 * SDK then passes the arguments through and our validator alone decides.
 *
 * @example
 * OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA; // { type: "object", properties: {} }
 */
export const OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA: CourseJsonObject = Object.freeze({
  type: "object",
  properties: Object.freeze({}),
});

/**
 * Options of {@link toOpenAIAgentsTools}.
 * - `strict`: mark each Tool strict whose schema our `toOpenAIStrictSchema`
 *   can rewrite (that rewrite becomes its `parameters`, and the `null` the
 *   model then sends for a field it leaves out is dropped before our validator
 *   runs); a Tool whose schema cannot be rewritten stays non-strict, and so
 *   does one where such a null would not be dropped (see `dropsStrictNulls`
 *   in `toolbound/schema`). Default
 *   `false`: every Tool is non-strict, with its schema as it is.
 *
 * @example
 * const tools = await toOpenAIAgentsTools(registry, undefined, { strict: true });
 */
export interface OpenAIAgentsToolsOptions {
  readonly strict?: boolean;
}

// The signal of a call the SDK runs without one: never aborted (no one holds its
// controller), and shared, so that no call pays for a fresh controller.
const NO_SIGNAL = new AbortController().signal;

// The captured copy: a replaced `structuredClone` would decide the schema the SDK is given.
const nativeStructuredClone = structuredClone;

/** The parts of the SDK's `ToolCallDetails` the bridge reads. */
interface CallDetails {
  readonly toolCall?: { readonly callId?: unknown };
  readonly signal?: unknown;
}

function readStrict(options: OpenAIAgentsToolsOptions | undefined): boolean {
  if (options === undefined) return false;
  if (typeof options !== "object" || options === null) {
    throw new TypeError("toOpenAIAgentsTools options must be an object");
  }
  const strict: unknown = options.strict;
  if (strict !== undefined && typeof strict !== "boolean") {
    throw new TypeError("toOpenAIAgentsTools option strict must be a boolean");
  }
  return strict === true;
}

/**
 * Our schema rewritten to the strict subset, or undefined when it cannot be,
 * or when a null strict mode invites for a left-out field could reach our
 * validator (an optional field inside an `anyOf` or `$defs`, or one whose
 * schema may accept null): the drop before validation would miss it.
 */
function strictSchemaOf(schema: CourseJsonObject, name: string): CourseJsonObject | undefined {
  if (!dropsStrictNulls(schema)) return undefined;
  try {
    return toOpenAIStrictSchema(schema, name);
  } catch (thrown) {
    if (thrown instanceof SchemaToolError && thrown.code === "STRICT_MODE_UNSUPPORTED")
      return undefined;
    throw thrown;
  }
}

/** A file's name, or one made from its position and type when the Tool gave none. */
function fileName(part: Extract<ToolResultPart, { type: "file" }>, index: number): string {
  if (part.name !== undefined) return part.name;
  return `part-${index + 1}.${part.mimeType === "application/pdf" ? "pdf" : "txt"}`;
}

/**
 * What the model reads for our result: its content, or, for a result with
 * parts, the SDK's structured outputs: text, images and files with inline
 * base64 data, and audio (which a function tool's output cannot hold) as
 * its line.
 */
function modelOutput(result: CourseToolResultMessage): string | OpenAIAgentsToolOutput[] {
  const parts = result.parts;
  if (parts === undefined) return result.content;
  // By index into slots defined here: a replaced `Array.prototype.map` (or an index
  // setter) would decide what the model reads of every later call.
  const outputs: OpenAIAgentsToolOutput[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    addSlot(outputs, index, outputOf(parts[index] as ToolResultPart, index));
  }
  return outputs;
}

/** The SDK's structured output for one part. */
function outputOf(part: ToolResultPart, index: number): OpenAIAgentsToolOutput {
  if (part.type === "text") return { type: "text", text: part.text };
  if (part.type === "image") {
    return { type: "image", image: { data: part.data, mediaType: part.mimeType } };
  }
  if (part.type === "audio") return { type: "text", text: partLine(part) };
  const file = { data: part.data, mediaType: part.mimeType, filename: fileName(part, index) };
  return { type: "file", file };
}

function bridge(
  tool: OpenAIAgentsToolFactory,
  registry: ToolRegistry,
  name: string,
  description: string,
  parameters: CourseJsonObject | undefined,
  callOptions: ToolCallOptions | undefined,
  wantStrict: boolean,
): OpenAIAgentsFunctionTool {
  const schema = parameters ?? OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA;
  const strictSchema = wantStrict ? strictSchemaOf(schema, name) : undefined;
  const strict = strictSchema !== undefined;
  const execute = async (input: unknown, _context: unknown, details?: CallDetails) => {
    // Each field read once: a getter could answer differently the second time.
    const { toolCall, signal } = details ?? {};
    const callId = toolCall?.callId;
    // A repaired call is refused with the reason its stand-in carries, never run on it.
    const repaired = openAIAgentsRepairs.take(made, input);
    const refused = repaired === undefined ? undefined : await repaired;
    // Strict mode makes every field required: the model sends null for one it leaves out.
    const call =
      refused === undefined
        ? ({
            type: "toolCall",
            id: callId,
            name,
            arguments: strict ? dropNullOptionals(input as CourseJsonValue, schema) : input,
          } as CourseToolCall)
        : toolCallWithInvalidArguments({ id: callId as string, name }, refused);
    const result = await executeToolCall(
      registry,
      call,
      (signal ?? NO_SIGNAL) as AbortSignal,
      callOptions,
    );
    // Successes and error results alike: the model reads our content, never the SDK's error text.
    return modelOutput(result);
  };
  const made = tool({
    name,
    description,
    // A mutable copy: the SDK may transform a schema; ours stays frozen.
    parameters: nativeStructuredClone(strictSchema ?? schema) as OpenAIAgentsJsonSchema,
    strict,
    execute,
    // What still throws (a cancellation, a registered NonRecoverableToolError, a
    // malformed call) fails the run instead of becoming the SDK's generic error text.
    errorFunction: null,
  } as Parameters<OpenAIAgentsToolFactory>[0]) as OpenAIAgentsFunctionTool;
  openAIAgentsRepairs.serve(made);
  return made;
}

/**
 * Our registry's Tools as OpenAI Agents function tools, in registration
 * order, for `new Agent({ tools })`. Each is made by the SDK's own `tool()`
 * with our description and our `parameters` JSON Schema (or
 * {@link OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA}), non-strict unless
 * `options.strict` asks for strict mode and the schema allows it (see
 * {@link OpenAIAgentsToolsOptions}). The SDK names the tool as its
 * `tool()` does (characters other than letters and digits become `_`); the
 * call still runs our Tool of the original name. Its `execute` runs
 * `executeToolCall` on a snapshot of the registry taken now, with the call id
 * and the run's signal, and `callOptions` (default none) passed through
 * unchanged. The output `format` defaults to `"text"` (a string result
 * reaches the model as its own text) unless the registry's options or a
 * Tool's definition set one; `callOptions: { format: "json" }` asks for the
 * course's JSON text. It resolves with our result's `content`, for a success
 * and for an error result alike, so the model reads our text and never the
 * SDK's generic error message; a Tool's `toolContent` resolves with the SDK's
 * structured outputs instead (`{ type: "text" }`, `{ type: "image", image: {
 * data, mediaType } }`, `{ type: "file", file: { data, mediaType, filename }
 * }`, audio as its line); a cancelled call rejects with the signal's reason and a
 * registered NonRecoverableToolError fails the run (`errorFunction` is
 * `null`). Loads the SDK on first use; rejects with a TypeError for something
 * that is not a ToolRegistry or bad options, with an Error when two Tool
 * names become the same SDK name, and with an Error when neither
 * `@openai/agents-core` nor `@openai/agents` is installed.
 *
 * @example
 * const agent = new Agent({
 *   name: "Assistant",
 *   instructions: "Use the tools.",
 *   tools: await toOpenAIAgentsTools(registry, { timeoutMs: 5_000 }),
 * });
 * const result = await run(agent, "Echo hi.");
 */
export async function toOpenAIAgentsTools(
  registry: ToolRegistry,
  callOptions?: ToolCallOptions,
  options?: OpenAIAgentsToolsOptions,
): Promise<OpenAIAgentsFunctionTool[]> {
  // The private brand, not `instanceof`: a Tool may have given ToolRegistry a
  // `Symbol.hasInstance` of its own.
  if (!isToolRegistry(registry)) {
    throw new TypeError("toOpenAIAgentsTools needs a ToolRegistry");
  }
  const wantStrict = readStrict(options);
  // The Tool set of this moment, before the SDK loads.
  // A string result reaches the model as text, unless the registry or a Tool says otherwise.
  const frozen = snapshotWithFormat(registry, "text");
  const { tool } = await loadOpenAIAgents();
  // Through the private map, by index, into slots defined here, with the captured Map
  // methods: a Tool that replaced the registry's `names` or `get`, the array iterator, `push`
  // or `Map.prototype.get` would decide the tools the host gets.
  const tools: OpenAIAgentsFunctionTool[] = [];
  const owners = new NativeMap<string, string>();
  const names = registryNames(frozen);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    const registered = lookupTool(frozen, name);
    if (registered === undefined) continue;
    const made = bridge(
      tool,
      frozen,
      name,
      registered.description,
      registered.parameters,
      callOptions,
      wantStrict,
    );
    const clash = mapGet(owners, made.name);
    if (clash !== undefined) {
      throw new Error(
        `Tools "${clash}" and "${name}" would both be named "${made.name}" in OpenAI Agents; rename one`,
      );
    }
    mapSet(owners, made.name, name);
    addSlot(tools, tools.length, made);
  }
  return tools;
}
