/**
 * toolbound to the AI SDK: our registered Tools as an AI SDK `ToolSet` whose
 * `execute` runs `executeToolCall`, so `generateText` and `streamText` get
 * validation before effects, bounded output and cancellation from our boundary.
 */

import {
  type CourseJsonObject,
  type CourseToolCall,
  type CourseToolResultMessage,
  executeToolCall,
  NonRecoverableToolError,
  type ToolCallOptions,
  type ToolRegistry,
  type ToolResultPart,
  toolCallWithInvalidArguments,
} from "../../course/src/index.ts";
import {
  addSlot,
  defineProperty,
  freeze,
  isAbortSignal,
  isProxy,
  isToolRegistry,
  lookupTool,
  registryNames,
  signalAborted,
  signalReason,
  snapshotWithFormat,
  weakMapGet,
  weakMapSet,
} from "../../course/src/internal.ts";
import { readResultParts } from "../providers/result-parts.ts";
import { checkAiSdkInput } from "./ai-sdk-input-check.ts";
import {
  type AiSdkJsonSchema,
  type AiSdkTool,
  type AiSdkToolSet,
  loadAiSdk,
} from "./ai-sdk-module.ts";
import { aiSdkRepairs } from "./repair-ai-sdk-tool-call.ts";

/**
 * The input schema a bridged Tool gets when ours has no `parameters`: any
 * object. The SDK then passes the arguments through and our validator alone
 * decides.
 *
 * @example
 * AI_SDK_EMPTY_OBJECT_SCHEMA; // { type: "object", properties: {} }
 */
export const AI_SDK_EMPTY_OBJECT_SCHEMA: CourseJsonObject = Object.freeze({
  type: "object",
  properties: Object.freeze({}),
});

/**
 * Thrown by a bridged Tool's `execute` when our result has `isError: true`.
 * The SDK records a throwing Tool as a tool error and shows the model the
 * error's `toString()`, which here is its `message`: exactly our result's
 * `content`, so the model reads what it would read without the SDK. `result`
 * is our frozen result message.
 *
 * @example
 * const { steps } = await generateText({ model, tools, prompt });
 * for (const part of steps[0].content) {
 *   if (part.type === "tool-error" && part.error instanceof AiSdkToolResultError) console.log(part.error.result.content);
 * }
 */
export class AiSdkToolResultError extends Error {
  /** Our frozen, linked error result. */
  readonly result: CourseToolResultMessage;

  constructor(result: CourseToolResultMessage) {
    super(result.content);
    // Null-prototype descriptors: an inherited `get` planted on Object.prototype is never read.
    defineProperty(this, "name", {
      __proto__: null,
      value: "AiSdkToolResultError",
      enumerable: false,
    } as PropertyDescriptor);
    this.result = result;
  }

  /** The message alone (not `name: message`): the SDK sends this text to the model. */
  override toString(): string {
    return this.message;
  }
}

/**
 * What a bridged Tool's `execute` resolves with when a registered
 * NonRecoverableToolError stopped its call. The SDK turns every throw from
 * `execute` into a tool error the model reads, then goes on; it calls
 * `toModelOutput` outside that net, so the bridged Tool resolves with this
 * marker and its `toModelOutput` throws `error`: `generateText` rejects with it
 * and `streamText`'s stream fails with it, before the model is asked again.
 * Step callbacks may see the marker as the call's output.
 *
 * @example
 * onStepFinish: (step) => {
 *   for (const part of step.content) if (part.type === "tool-result" && part.output instanceof AiSdkRunStop) console.error(part.output.error);
 * }
 */
export class AiSdkRunStop {
  /** The registered NonRecoverableToolError that stopped the call. */
  readonly error: NonRecoverableToolError;

  constructor(error: NonRecoverableToolError) {
    this.error = error;
    // The captured freeze: a replaced `Object.freeze` would leave `error` writable.
    freeze(this);
  }
}

// The signal of a call the SDK runs without one: never aborted (no one holds its
// controller), and shared, so that no call pays for a fresh controller.
const NO_SIGNAL = new AbortController().signal;

// Only markers made here stop a run: an output that merely looks like one does not. Read and
// written through the core's captured WeakMap methods: a Tool that replaced
// `WeakSet.prototype.has` (or `WeakMap.prototype.get`) would otherwise let a
// NonRecoverableToolError's run go on.
const stops = new WeakMap<object, true>();

// The captured copy: a replaced `structuredClone` would decide the schema the SDK is given.
const nativeStructuredClone = structuredClone;

// The text a non-string output gets; only a marker restored from storage can be one.
const STOPPED_TEXT = "[no result: the run was stopped by a non-recoverable error]";

/** The parts of the SDK's `ToolExecutionOptions` the bridge reads. */
interface ExecutionOptions {
  readonly toolCallId?: unknown;
  readonly abortSignal?: unknown;
}

/** The text part the model reads for a bridged Tool's output. */
interface TextOutput {
  readonly type: "text";
  readonly value: string;
}

/**
 * One part of the AI SDK's multi-part tool output (`{ type: "content" }`):
 * text, or a file part with inline base64 data (images and audio included,
 * told apart by `mediaType`).
 *
 * @example
 * const part: AiSdkContentPart = { type: "file", data: { type: "data", data: pngBase64 }, mediaType: "image/png" };
 */
export type AiSdkContentPart =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "file";
      readonly data: { readonly type: "data"; readonly data: string };
      readonly mediaType: string;
      readonly filename?: string;
    };

/** The multi-part output the model reads for a result with parts. */
interface ContentOutput {
  readonly type: "content";
  readonly value: AiSdkContentPart[];
}

function contentPart(part: ToolResultPart): AiSdkContentPart {
  if (part.type === "text") return { type: "text", text: part.text };
  const file = {
    type: "file" as const,
    data: { type: "data" as const, data: part.data },
    mediaType: part.mimeType,
  };
  return part.type === "file" && part.name !== undefined ? { ...file, filename: part.name } : file;
}

/** The parts of a result message (ours, or one restored from storage), or undefined. */
function partsOf(output: object): readonly ToolResultPart[] | undefined {
  if (isProxy(output)) return undefined;
  try {
    return readResultParts(output, "output", false, (what) => {
      throw new TypeError(what);
    });
  } catch {
    // Not a result message with well-formed parts: it is not sent as parts.
    return undefined;
  }
}

function toModelOutput({ output }: { readonly output: unknown }): TextOutput | ContentOutput {
  if (typeof output === "string") return { type: "text", value: output };
  if (typeof output === "object" && output !== null) {
    if (weakMapGet(stops, output) === true) throw (output as AiSdkRunStop).error;
    const parts = partsOf(output);
    if (parts !== undefined) {
      // By index into slots defined here: a replaced `Array.prototype.map` (or an index
      // setter) would decide what the model reads of every later call.
      const value: AiSdkContentPart[] = [];
      for (let index = 0; index < parts.length; index += 1) {
        addSlot(value, index, contentPart(parts[index] as ToolResultPart));
      }
      return { type: "content", value };
    }
  }
  return { type: "text", value: STOPPED_TEXT };
}

/**
 * The call our boundary runs: the SDK's parsed input as it is, or, for a call
 * `repairAiSdkToolCall` repaired, a refusal with its reason (the stand-in
 * input carrying the token is never read as arguments).
 */
function callFor(
  name: string,
  toolCallId: unknown,
  input: unknown,
  refused: string | undefined,
): CourseToolCall {
  if (refused === undefined) {
    // The SDK passes the parsed arguments as they are; our boundary snapshots and validates them.
    return { type: "toolCall", id: toolCallId, name, arguments: input } as CourseToolCall;
  }
  return toolCallWithInvalidArguments({ id: toolCallId as string, name }, refused);
}

function bridge(
  registry: ToolRegistry,
  name: string,
  description: string,
  parameters: CourseJsonObject | undefined,
  callOptions: ToolCallOptions | undefined,
  jsonSchema: AiSdkJsonSchema,
): AiSdkTool {
  const execute = async (
    input: unknown,
    options: ExecutionOptions,
  ): Promise<string | CourseToolResultMessage | AiSdkRunStop> => {
    // Each field read once: a getter could answer differently the second time.
    const { toolCallId, abortSignal } = options ?? {};
    const signal = abortSignal === undefined ? NO_SIGNAL : abortSignal;
    // A repaired call (or one our input check replaced) is refused with the reason it carries.
    const repaired = aiSdkRepairs.take(bridged, input);
    const refused = repaired === undefined ? undefined : await repaired;
    const call = callFor(name, toolCallId, input, refused);
    let result: CourseToolResultMessage;
    try {
      result = await executeToolCall(registry, call, signal as AbortSignal, callOptions);
    } catch (thrown) {
      // A cancellation rejects with the signal's reason, whatever that reason is. Read through
      // the intrinsic getters: replaced ones would pass a fatal error off as a cancellation.
      const cancelled =
        isAbortSignal(signal) && signalAborted(signal) && thrown === signalReason(signal);
      if (!cancelled && thrown instanceof NonRecoverableToolError) {
        const stop = new AiSdkRunStop(thrown);
        weakMapSet(stops, stop, true);
        return stop;
      }
      throw thrown;
    }
    if (result.isError) throw new AiSdkToolResultError(result);
    // A result with parts is handed on whole; toModelOutput sends its parts.
    return result.parts === undefined ? result.content : result;
  };
  const bridged: object = freeze({
    description,
    // A mutable copy: the SDK and its providers may transform a schema; ours stays frozen.
    // The validate runs on every input the SDK parsed, before anything else sees it.
    inputSchema: jsonSchema(
      nativeStructuredClone(parameters ?? AI_SDK_EMPTY_OBJECT_SCHEMA) as object,
      {
        validate: checkAiSdkInput(() => bridged),
      },
    ),
    execute,
    toModelOutput,
  });
  aiSdkRepairs.serve(bridged);
  return bridged as AiSdkTool;
}

/**
 * Builds the ToolSet from a frozen registry with the given `jsonSchema`
 * (the SDK's own, in {@link toAiSdkTools}).
 *
 * @example
 * const tools = buildAiSdkTools(registry.snapshot(), undefined, jsonSchema);
 */
export function buildAiSdkTools(
  frozen: ToolRegistry,
  callOptions: ToolCallOptions | undefined,
  jsonSchema: AiSdkJsonSchema,
): AiSdkToolSet {
  const tools: Record<string, AiSdkTool> = {};
  // Read through the private map, by index: a Tool may have replaced the registry's `names`
  // and `get` on its prototype, or the live array iterator a `for…of` would run.
  const names = registryNames(frozen);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    const tool = lookupTool(frozen, name);
    if (tool === undefined) continue;
    const bridged = bridge(
      frozen,
      name,
      tool.description,
      tool.parameters,
      callOptions,
      jsonSchema,
    );
    // Defined, not assigned: a Tool named "__proto__" stays an ordinary key.
    defineProperty(tools, name, {
      __proto__: null,
      value: bridged,
      enumerable: true,
    } as PropertyDescriptor);
  }
  return freeze(tools) as AiSdkToolSet;
}

/**
 * Our registry's Tools as an AI SDK `ToolSet`, one entry per Tool keyed by
 * name, in registration order, for `generateText` and `streamText`. Each
 * Tool's input schema is its `parameters` (or {@link AI_SDK_EMPTY_OBJECT_SCHEMA})
 * through the SDK's own `jsonSchema()`, with no validator of the SDK's: our
 * validator decides. Its `execute(input, { toolCallId, abortSignal })` runs
 * `executeToolCall` on a snapshot of the registry taken now (later
 * registrations do not appear), with `callOptions` (default none) passed
 * through unchanged. The output `format` defaults to `"text"` (a string result
 * reaches the model as its own text) unless the registry's options or a
 * Tool's definition set one; `callOptions: { format: "json" }` asks for the
 * course's JSON text. A success reaches the model as our `content`, unchanged;
 * a Tool's `toolContent` as the SDK's multi-part output (`{ type: "content" }`:
 * text parts, and images, audio and files as `file` parts with inline base64
 * data), the step's tool result holding our result message;
 * an error result is thrown as an {@link AiSdkToolResultError} whose message
 * the model reads as the SDK's tool error; a cancelled call rejects with the
 * signal's reason; a registered NonRecoverableToolError stops the SDK's run
 * (see {@link AiSdkRunStop}). Loads `ai` on first use; rejects with a
 * TypeError for something that is not a ToolRegistry, and with an Error when
 * `ai` is not installed.
 *
 * @example
 * const result = await generateText({
 *   model,
 *   tools: await toAiSdkTools(registry, { timeoutMs: 5_000 }),
 *   stopWhen: isStepCount(5),
 *   prompt: "Echo hi.",
 * });
 */
export async function toAiSdkTools(
  registry: ToolRegistry,
  callOptions?: ToolCallOptions,
): Promise<AiSdkToolSet> {
  // The private brand, not `instanceof`: a Tool may have given ToolRegistry a
  // `Symbol.hasInstance` of its own.
  if (!isToolRegistry(registry)) throw new TypeError("toAiSdkTools needs a ToolRegistry");
  // The Tool set of this moment, before the SDK loads.
  // A string result reaches the model as text, unless the registry or a Tool says otherwise.
  const frozen = snapshotWithFormat(registry, "text");
  const { jsonSchema } = await loadAiSdk();
  return buildAiSdkTools(frozen, callOptions, jsonSchema);
}
