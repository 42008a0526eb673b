/**
 * A model wrapper for OpenAI Agents that lets our boundary answer argument
 * text the SDK's runner would refuse itself: the runner parses a function
 * call's arguments before any tool sees them and answers text that is not JSON
 * with its own fixed message, so our `TOOL_ARGUMENTS_INVALID` reason has to
 * be put in place before the runner reads the model's response.
 */

import { isProxy } from "../../course/src/internal.ts";
import { PendingRepairs } from "../frameworks/pending-repairs.ts";
import { parseToolArguments } from "../providers/argument-limits.ts";
import type { OpenAIAgentsModel } from "./openai-agents-module.ts";

/**
 * The bridged Tools of `toOpenAIAgentsTools`, the only ones the wrapper
 * serves, each with the seal of the stand-ins of its repaired calls.
 */
export const openAIAgentsRepairs = new PendingRepairs();

type ModelRequest = Parameters<OpenAIAgentsModel["getResponse"]>[0];
type ModelResponse = Awaited<ReturnType<OpenAIAgentsModel["getResponse"]>>;
type RetryAdviceRequest = Parameters<NonNullable<OpenAIAgentsModel["getRetryAdvice"]>>[0];
type StreamEvent =
  ReturnType<OpenAIAgentsModel["getStreamedResponse"]> extends AsyncIterable<infer E> ? E : never;

/** An own data property's value: a getter on an item is never run. */
function ownValue(holder: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(holder, key);
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
}

/** Our bridged Tools among `tools`, by the name the model calls them. */
function servedByName(tools: readonly unknown[]): ReadonlyMap<string, object> {
  const byName = new Map<string, object>();
  for (const tool of tools) {
    if (!openAIAgentsRepairs.serves(tool)) continue;
    const name = ownValue(tool as object, "name");
    if (typeof name === "string") byName.set(name, tool as object);
  }
  return byName;
}

/**
 * The item as the runner should see it: a function call of one of our Tools
 * whose text our parser refuses becomes the same call with a stand-in as its
 * arguments, our reason sealed in it for the Tool's `execute`; every other
 * item is itself. The call id plays no part: ids may repeat.
 */
async function repairItem(item: unknown, byName: ReadonlyMap<string, object>): Promise<unknown> {
  if (typeof item !== "object" || item === null || isProxy(item)) return item;
  // A namespaced call is not one of ours: toolNamespace() copies a tool, and the copy is not served.
  if (ownValue(item, "type") !== "function_call" || ownValue(item, "namespace") !== undefined) {
    return item;
  }
  const name = ownValue(item, "name");
  const text = ownValue(item, "arguments");
  if (typeof name !== "string" || typeof text !== "string") return item;
  const tool = byName.get(name);
  if (tool === undefined) return item;
  const parsed = parseToolArguments(text);
  if (parsed.ok) return item;
  const stand = await openAIAgentsRepairs.hold(tool, parsed.reason);
  return stand === undefined ? item : { ...item, arguments: stand };
}

/** The output list with each item repaired; the very list when nothing changed. */
async function repairOutput<T>(output: T, byName: ReadonlyMap<string, object>): Promise<T> {
  if (!Array.isArray(output) || isProxy(output)) return output;
  let repaired: unknown[] | undefined;
  for (let index = 0; index < output.length; index += 1) {
    const item: unknown = output[index];
    const fixed = await repairItem(item, byName);
    if (fixed === item) continue;
    repaired ??= output.slice();
    repaired[index] = fixed;
  }
  return (repaired ?? output) as T;
}

function checkModel(model: unknown): asserts model is OpenAIAgentsModel {
  const methods = ["getResponse", "getStreamedResponse"];
  if (
    typeof model !== "object" ||
    model === null ||
    methods.some((method) => typeof (model as Record<string, unknown>)[method] !== "function")
  ) {
    throw new TypeError(
      "repairOpenAIAgentsModel needs a Model object (one with getResponse and getStreamedResponse)",
    );
  }
}

/**
 * Wraps an OpenAI Agents `Model` so that argument text the SDK's runner would
 * refuse with its own message reaches our boundary instead: in each response
 * (`getResponse`, and the `response_done` event of `getStreamedResponse`), a
 * function call of one of `tools` made by `toOpenAIAgentsTools` whose
 * argument text toolbound's bounded parser refuses (not JSON, longer than
 * 1,000,000 characters, deeper than 64, duplicate keys, not an object) is
 * handed to the runner with `{"__toolbound_repair":"<seal>:<reason>"}` as its
 * arguments (the parser's reason, sealed for that Tool), and the Tool answers
 * it with our `TOOL_ARGUMENTS_INVALID` result and that reason (which never
 * quotes the text), without running. Nothing is kept in between, so any
 * number of repaired calls each keep their own reason; call ids play no part,
 * so a repeated id cannot mix two calls up; and a call carrying the reserved
 * key without a stand-in sealed for that Tool is refused. Every other
 * item, event and method passes through unchanged. `tools` is read now: pass
 * the same list the Agent gets. Throws a TypeError for a `model` without
 * `getResponse` and `getStreamedResponse`, or `tools` that is not an array.
 *
 * @example
 * const tools = await toOpenAIAgentsTools(registry);
 * const agent = new Agent({
 *   name: "Assistant",
 *   model: repairOpenAIAgentsModel(new OpenAIResponsesModel(new OpenAI(), "gpt-5"), tools),
 *   tools,
 * });
 */
export function repairOpenAIAgentsModel(
  model: OpenAIAgentsModel,
  tools: readonly unknown[],
): OpenAIAgentsModel {
  checkModel(model);
  if (!Array.isArray(tools)) {
    throw new TypeError("repairOpenAIAgentsModel needs the Agent's tools as an array");
  }
  const byName = servedByName(tools);
  const wrapped: OpenAIAgentsModel = {
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      const response = await model.getResponse(request);
      const output = await repairOutput(response.output, byName);
      return output === response.output ? response : { ...response, output };
    },
    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      for await (const event of model.getStreamedResponse(request)) {
        // The runner takes a turn's items from its response_done event alone.
        if (event.type !== "response_done") {
          yield event;
          continue;
        }
        const output = await repairOutput(event.response.output, byName);
        yield output === event.response.output
          ? event
          : { ...event, response: { ...event.response, output } };
      }
    },
  };
  const { getRetryAdvice, supportsPromptModelSelection } = model;
  if (typeof getRetryAdvice === "function") {
    wrapped.getRetryAdvice = (args: RetryAdviceRequest) => getRetryAdvice.call(model, args);
  }
  if (supportsPromptModelSelection !== undefined) {
    return { ...wrapped, supportsPromptModelSelection };
  }
  return wrapped;
}
