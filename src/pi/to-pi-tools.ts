/**
 * toolbound to Pi: our registered Tools as Pi `AgentTool`s whose `execute`
 * runs `executeToolCall`, so a Pi agent gets validation before effects,
 * bounded output and cancellation from our boundary.
 */

import {
  type CourseJsonObject,
  type CourseToolCall,
  type CourseToolResultMessage,
  executeToolCall,
  type ToolCallOptions,
  type ToolRegistry,
  type ToolResultPart,
} from "../../course/src/index.ts";
import {
  addSlot,
  controllerSignal,
  defineProperty,
  freeze,
  isToolRegistry,
  lookupTool,
  NativeAbortController,
  readCallOptions,
  registryNames,
  snapshotWithFormat,
} from "../../course/src/internal.ts";
import { partLine } from "../providers/result-parts.ts";
import type {
  PiAgentToolResult,
  PiBridgedTool,
  PiImageContent,
  PiJsonSchema,
  PiTextContent,
} from "./pi-types.ts";

/**
 * The `parameters` a bridged Tool gets when ours has none: any object. Pi
 * then passes the arguments through and our validator alone decides.
 */
export const PI_EMPTY_OBJECT_SCHEMA: PiJsonSchema = Object.freeze({
  type: "object",
  properties: Object.freeze({}),
});

// The captured copy: a replaced `structuredClone` would decide the schema Pi is given.
const nativeStructuredClone = structuredClone;

/**
 * Thrown by a bridged Tool's `execute` when our result has `isError: true`:
 * Pi marks a Tool that throws as a failed call and sends the error's
 * `message` to the model as the result text, so `message` is exactly our
 * result's `content` and the model reads what it would read without Pi.
 * `result` is our frozen result message.
 *
 * @example
 * try { await tool.execute("call-1", { left: "x" }); }
 * catch (error) { if (error instanceof PiToolResultError) console.log(error.result.content); }
 */
export class PiToolResultError extends Error {
  /** Our frozen, linked error result. */
  readonly result: CourseToolResultMessage;

  constructor(result: CourseToolResultMessage) {
    super(result.content);
    // Captured, with a null-prototype descriptor: an inherited `get` is never read.
    defineProperty(this, "name", {
      __proto__: null,
      value: "PiToolResultError",
      enumerable: false,
    } as PropertyDescriptor);
    this.result = result;
  }
}

/**
 * The content blocks Pi gets for our result: its content as one text block,
 * or, for a result with parts, a text block per text part, an image block per
 * image, and the line for audio and files, which Pi's content cannot hold.
 */
function piContent(result: CourseToolResultMessage): (PiTextContent | PiImageContent)[] {
  const parts = result.parts;
  if (parts === undefined) return [{ type: "text", text: result.content }];
  // By index into slots defined here: a replaced `Array.prototype.map` (or an index
  // setter) would decide what the model reads of every later call.
  const content: (PiTextContent | PiImageContent)[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    addSlot(content, index, blockOf(parts[index] as ToolResultPart));
  }
  return content;
}

/** Pi's content block for one part. */
function blockOf(part: ToolResultPart): PiTextContent | PiImageContent {
  if (part.type === "text") return { type: "text", text: part.text };
  if (part.type === "image") return { type: "image", data: part.data, mimeType: part.mimeType };
  return { type: "text", text: partLine(part) };
}

function bridge(
  registry: ToolRegistry,
  name: string,
  description: string,
  parameters: CourseJsonObject | undefined,
  callOptions: ToolCallOptions | undefined,
): PiBridgedTool<CourseToolResultMessage> {
  const execute = async (
    toolCallId: string,
    params: unknown,
    signal?: AbortSignal,
  ): Promise<PiAgentToolResult<CourseToolResultMessage>> => {
    // Pi passes the arguments it validated; our boundary snapshots and validates them again.
    const call = { type: "toolCall", id: toolCallId, name, arguments: params } as CourseToolCall;
    // A cancellation, a fatal error or a malformed call rejects, and Pi records the throw.
    const result = await executeToolCall(
      registry,
      call,
      // The captured class and getter: a replaced `AbortController` must not make the signal.
      signal ?? controllerSignal(new NativeAbortController()),
      callOptions,
    );
    if (result.isError) throw new PiToolResultError(result);
    return { content: piContent(result), details: result };
  };
  return freeze({
    name,
    label: name,
    description,
    // A mutable copy: Pi and its providers may transform a schema; ours stays frozen.
    parameters: nativeStructuredClone(parameters ?? PI_EMPTY_OBJECT_SCHEMA) as PiJsonSchema,
    execute,
  });
}

/**
 * Our registry's Tools as Pi `AgentTool`s, in registration order. Each has our
 * Tool's name (also as `label`), description and `parameters` JSON Schema (or
 * {@link PI_EMPTY_OBJECT_SCHEMA}); its `execute(toolCallId, params, signal)`
 * runs `executeToolCall` on a snapshot of the registry taken now (later
 * registrations do not change these Tools, and the registry's own options
 * are kept), with the optional per-call `callOptions`: a deadline, an
 * approval gate, an argument budget and output settings (`outputBudget`,
 * `truncate`, `spill`, …), which win over the registry's options and each
 * Tool's own fields, field by field. The output `format` defaults to `"text"`
 * (a string result reaches Pi as its own text) unless the registry's options
 * or a Tool's definition set one; `callOptions: { format: "json" }` asks for
 * the course's JSON text. Invalid `callOptions` throw
 * ToolContractError INVALID_TOOL_CALL here, naming the field, rather than
 * failing every call. A success resolves with one text block holding our result's
 * `content` unchanged (`details` is our result message); a Tool's
 * `toolContent` resolves with a text block per text part and Pi's own image
 * block per image (audio and files, which Pi cannot hold, as their line). An `isError` result
 * throws {@link PiToolResultError}, whose message is that content, which Pi
 * records as a failed call with the same text. Pi's signal is passed through;
 * a cancelled call rejects with the signal's reason, as Pi expects an aborted
 * Tool to throw. Pi's `onUpdate` is never called.
 *
 * @example
 * const registry = new ToolRegistry([echo]);
 * const agent = new Agent({ streamFn, initialState: { tools: toPiTools(registry, { timeoutMs: 5_000 }) } });
 * toPiTools(registry, { outputBudget: { maxCharacters: 50_000 }, truncate: "head-and-tail" });
 */
export function toPiTools(
  registry: ToolRegistry,
  callOptions?: ToolCallOptions,
): PiBridgedTool<CourseToolResultMessage>[] {
  // The private brand, not `instanceof`: a Tool may have given ToolRegistry a
  // `Symbol.hasInstance` of its own.
  if (!isToolRegistry(registry)) throw new TypeError("toPiTools needs a ToolRegistry");
  // A host's mistake is found now, not as a rejection of every call Pi makes.
  readCallOptions(callOptions);
  // A string result reaches Pi as text, unless the registry or a Tool says otherwise.
  const frozen = snapshotWithFormat(registry, "text");
  // Through the private map, by index, into slots defined here: a Tool that replaced the
  // registry's `names` or `get`, the array iterator or `push` would decide the tools the host gets.
  const tools: PiBridgedTool<CourseToolResultMessage>[] = [];
  const names = registryNames(frozen);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    const tool = lookupTool(frozen, name);
    if (tool === undefined) continue;
    addSlot(
      tools,
      tools.length,
      bridge(frozen, name, tool.description, tool.parameters, callOptions),
    );
  }
  return tools;
}
