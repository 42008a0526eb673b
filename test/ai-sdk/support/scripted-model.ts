/**
 * A scripted model for the AI SDK's own loops: the SDK's `MockLanguageModelV4`
 * from `ai/test`, answering each step with the next scripted turn (Tool calls,
 * then a closing text), through `doGenerate` for `generateText` and `doStream`
 * for `streamText`. Tests read what the SDK sent the model in its next call.
 */

import {
  generateText,
  isStepCount,
  type LanguageModel,
  streamText,
  type ToolCallRepairFunction,
  type ToolSet,
} from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";

/** One call the model asks for: its id, the Tool's name and the raw JSON text of the arguments. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly input: string;
}

/** The call options the SDK passed to the model on one step. */
export type ModelCallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type StreamPart = GenerateResult["content"][number] | { readonly type: string };

const usage: GenerateResult["usage"] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A call the model asks for; arguments given as an object are written as JSON. */
export function call(id: string, args: unknown, name = "echo"): ScriptedCall {
  return { id, name, input: typeof args === "string" ? args : JSON.stringify(args) };
}

/** One `doGenerate` answer: the calls, or the closing text "done" when there are none. */
export function generateTurn(calls: readonly ScriptedCall[]): GenerateResult {
  if (calls.length === 0) {
    return {
      content: [{ type: "text", text: "done" }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    };
  }
  return {
    content: calls.map((one) => ({
      type: "tool-call" as const,
      toolCallId: one.id,
      toolName: one.name,
      input: one.input,
    })),
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

function streamTurn(calls: readonly ScriptedCall[]): { stream: ReadableStream<never> } {
  const parts: StreamPart[] = [{ type: "stream-start", warnings: [] } as StreamPart];
  if (calls.length === 0) {
    parts.push(
      { type: "text-start", id: "text-1" } as StreamPart,
      { type: "text-delta", id: "text-1", delta: "done" } as StreamPart,
      { type: "text-end", id: "text-1" } as StreamPart,
    );
  }
  for (const one of calls) {
    parts.push({ type: "tool-call", toolCallId: one.id, toolName: one.name, input: one.input });
  }
  const unified = calls.length === 0 ? "stop" : "tool-calls";
  parts.push({ type: "finish", finishReason: { unified, raw: unified }, usage } as StreamPart);
  return { stream: convertArrayToReadableStream(parts as never[]) };
}

/** The two loops of the SDK the suite runs: `generateText` and `streamText`. */
export type Loop = "generateText" | "streamText";

/** What one run of a loop left: the model's calls, the run's text or rejection, and stream part types. */
export interface LoopRun {
  readonly calls: readonly ModelCallOptions[];
  readonly text: string | undefined;
  readonly error: unknown;
  readonly partTypes: readonly string[];
}

/** What a run passes to the loop besides the model, the tools and the prompt. */
export interface LoopSettings {
  readonly abortSignal?: AbortSignal;
  readonly repairToolCall?: ToolCallRepairFunction<ToolSet>;
  /** Wraps the scripted model before the loop gets it (as `repairAiSdkModel` does). */
  readonly wrapModel?: (model: MockLanguageModelV4) => LanguageModel;
  /** More of the loop's own options (an approval policy, input refinements), passed as they are. */
  readonly more?: Readonly<Record<string, unknown>>;
}

/**
 * Runs `loop` with `tools` against a model that answers step 1 with `calls`
 * (all in one step) and step 2 with the text "done"; at most three steps.
 * A rejection (or a failed stream) is returned as `error`, not thrown.
 *
 * @example
 * const run = await runLoop("generateText", tools, [call("call-1", { text: "hi" })]);
 * toolOutputs(run.calls[1]); // what the model read on step 2
 */
export async function runLoop(
  loop: Loop,
  tools: ToolSet,
  calls: readonly ScriptedCall[],
  { abortSignal, repairToolCall, wrapModel, more }: LoopSettings = {},
): Promise<LoopRun> {
  const turns = [calls, []];
  const model = new MockLanguageModelV4({
    doGenerate: turns.map(generateTurn),
    doStream: turns.map(streamTurn),
  });
  const settings = {
    model: wrapModel === undefined ? model : wrapModel(model),
    tools,
    prompt: "go",
    stopWhen: isStepCount(3),
    ...(abortSignal === undefined ? {} : { abortSignal }),
    ...(repairToolCall === undefined ? {} : { repairToolCall }),
    ...more,
  };
  if (loop === "generateText") {
    try {
      const result = await generateText(settings);
      return { calls: model.doGenerateCalls, text: result.text, error: undefined, partTypes: [] };
    } catch (error) {
      return { calls: model.doGenerateCalls, text: undefined, error, partTypes: [] };
    }
  }
  const partTypes: string[] = [];
  // streamText reports stream errors to onError as well; the parts and the rejection say it all.
  const result = streamText({ ...settings, onError: () => {} });
  try {
    for await (const part of result.fullStream) partTypes.push(part.type);
    return { calls: model.doStreamCalls, text: await result.text, error: undefined, partTypes };
  } catch (error) {
    return { calls: model.doStreamCalls, text: undefined, error, partTypes };
  }
}

/** A Tool result as the model reads it on a later step. */
export interface SeenOutput {
  readonly toolCallId: string;
  readonly type: string;
  readonly value: unknown;
}

/**
 * The Tool results the model received in one call, in the order the prompt
 * holds them (the last tool message's parts).
 *
 * @example
 * toolOutputs(run.calls[1]); // [{ toolCallId: "call-1", type: "text", value: '{"echoed":"hi"}' }]
 */
export function toolOutputs(options: ModelCallOptions | undefined): SeenOutput[] {
  const message = options?.prompt.findLast((entry) => entry.role === "tool");
  if (message === undefined || message.role !== "tool") return [];
  const seen: SeenOutput[] = [];
  for (const part of message.content) {
    if (part.type !== "tool-result") continue;
    const output = part.output as { readonly type: string; readonly value?: unknown };
    seen.push({ toolCallId: part.toolCallId, type: output.type, value: output.value });
  }
  return seen;
}
