/**
 * A model wrapper for the AI SDK that lets our bounded parser read the
 * model's argument text before the SDK does, on every path: the SDK parses a
 * tool call's text with `JSON.parse` (a duplicate key resolved to the last,
 * `1e999` read as `Infinity`, `9007199254740993` read as another number, any
 * depth), and from then on only the parsed value exists. The wrapper sits
 * where the text still does, in the model's own answer.
 */

import { isProxy } from "../../course/src/internal.ts";
import { parseToolArguments } from "../providers/argument-limits.ts";
import type { AiSdkLanguageModel, AiSdkToolSet } from "./ai-sdk-module.ts";
import {
  AI_SDK_REFUSED_TEXT_REASON,
  aiSdkRepairs,
  holdsPrototypeKey,
} from "./repair-ai-sdk-tool-call.ts";

/** A tool call part of a model's answer, as far as the wrapper reads it. */
interface ToolCallPart {
  readonly type: "tool-call";
  readonly toolName?: unknown;
  readonly input?: unknown;
  readonly providerExecuted?: unknown;
}

/** The model methods the wrapper calls, and what it reads of their answers. */
interface ModelLike {
  readonly specificationVersion?: unknown;
  readonly provider?: unknown;
  readonly modelId?: unknown;
  readonly supportedUrls?: unknown;
  doGenerate(options: unknown): PromiseLike<{ readonly content?: unknown }>;
  doStream(options: unknown): PromiseLike<{ readonly stream?: unknown }>;
}

/** An own data property's value: a getter on a part or the tool set is never run. */
function ownValue(holder: unknown, key: string): unknown {
  if (typeof holder !== "object" || holder === null || isProxy(holder)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(holder, key);
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
}

/** Our bridged Tools among `tools`, by the name the model calls them. */
function servedByName(tools: unknown): ReadonlyMap<string, object> {
  const byName = new Map<string, object>();
  if (typeof tools !== "object" || tools === null || isProxy(tools)) return byName;
  for (const name of Object.keys(tools)) {
    const tool = ownValue(tools, name);
    if (aiSdkRepairs.serves(tool)) byName.set(name, tool as object);
  }
  return byName;
}

/**
 * The part as the SDK should see it: a call of one of our Tools whose text
 * our parser refuses, or accepts with a key the SDK's parser refuses, becomes
 * the same call with the stand-in as its text; every other part is itself.
 */
async function repairPart(part: unknown, byName: ReadonlyMap<string, object>): Promise<unknown> {
  if (ownValue(part, "type") !== "tool-call") return part;
  const call = part as ToolCallPart;
  // A call the provider ran itself is not one of ours.
  if (ownValue(call, "providerExecuted") === true) return part;
  const name = ownValue(call, "toolName");
  const text = ownValue(call, "input");
  if (typeof name !== "string" || typeof text !== "string") return part;
  const tool = byName.get(name);
  if (tool === undefined) return part;
  // The SDK reads empty text as {} (a call of a Tool without parameters): that is the SDK's rule.
  if (text.trim() === "") return part;
  const parsed = parseToolArguments(text);
  if (parsed.ok && !holdsPrototypeKey(parsed.value)) return part;
  const stand = await aiSdkRepairs.hold(
    tool,
    parsed.ok ? AI_SDK_REFUSED_TEXT_REASON : parsed.reason,
  );
  return stand === undefined ? part : { ...(part as object), input: stand };
}

/** The content list with each part repaired; the very list when nothing changed. */
async function repairContent(
  content: unknown,
  byName: ReadonlyMap<string, object>,
): Promise<unknown> {
  if (!Array.isArray(content) || isProxy(content)) return content;
  let repaired: unknown[] | undefined;
  for (let index = 0; index < content.length; index += 1) {
    const part: unknown = content[index];
    const fixed = await repairPart(part, byName);
    if (fixed === part) continue;
    repaired ??= content.slice();
    repaired[index] = fixed;
  }
  return repaired ?? content;
}

function checkModel(model: unknown): asserts model is ModelLike {
  if (
    typeof model !== "object" ||
    model === null ||
    typeof (model as { doGenerate?: unknown }).doGenerate !== "function" ||
    typeof (model as { doStream?: unknown }).doStream !== "function"
  ) {
    throw new TypeError(
      "repairAiSdkModel needs a language model object (one with doGenerate and doStream); resolve a model named by a string first",
    );
  }
}

/**
 * Wraps an AI SDK language model so that toolbound's bounded parser reads
 * the argument text of every call of one of `tools` (made by `toAiSdkTools`)
 * before the SDK's own parse, in `generateText`, `streamText` and agents
 * alike: in each answer (`doGenerate`'s content, and each `tool-call` part of
 * `doStream`'s stream), a call whose text `parseToolArguments` refuses (not
 * JSON, past 1,000,000 characters or 64 levels, a duplicate key, a lone
 * surrogate, a number beyond a double or one it cannot hold exactly, not an
 * object), or whose text holds a key the SDK's parser refuses (a `__proto__`
 * key, a `constructor` holding `prototype`), reaches the SDK with the
 * stand-in `{"__toolbound_repair":"<seal>:<reason>"}` as its text, and the
 * Tool answers it with `TOOL_ARGUMENTS_INVALID` and our reason, without
 * running. So the SDK never parses such text: deep text never reaches its
 * recursive copies, and its approval, `refineToolInput` and history see the
 * stand-in. Empty text is left to the SDK, which reads it as `{}`. Every other
 * part, call and method passes through unchanged; the streamed
 * `tool-input-delta` parts still carry the text as the model wrote it to the
 * stream's reader. Throws a TypeError for a model without `doGenerate` and
 * `doStream` (a model named by a string: resolve it first).
 *
 * @example
 * const tools = await toAiSdkTools(registry);
 * const result = await generateText({
 *   model: repairAiSdkModel(openai("gpt-5"), tools),
 *   tools,
 *   repairToolCall: repairAiSdkToolCall,
 *   prompt: "Add 20 and 22.",
 * });
 */
export function repairAiSdkModel(
  model: AiSdkLanguageModel,
  tools: AiSdkToolSet,
): AiSdkLanguageModel {
  checkModel(model);
  const byName = servedByName(tools);
  const wrapped = {
    // What the SDK reads of a model besides its two methods, read once, as its own wrapper does.
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doGenerate(options: unknown) {
      const result = await model.doGenerate(options);
      const content = await repairContent(result.content, byName);
      return content === result.content ? result : { ...result, content };
    },
    async doStream(options: unknown) {
      const result = await model.doStream(options);
      const stream = result.stream;
      if (!(stream instanceof ReadableStream)) return result;
      const repair = new TransformStream<unknown, unknown>({
        async transform(part, controller) {
          controller.enqueue(await repairPart(part, byName));
        },
      });
      return { ...result, stream: stream.pipeThrough(repair) };
    },
  };
  return wrapped as unknown as AiSdkLanguageModel;
}
