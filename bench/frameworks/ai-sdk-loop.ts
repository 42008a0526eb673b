/**
 * One `generateText` run of the AI SDK's own loop (two steps: a step asking
 * for the scripted Tool calls, then a closing text) with a mock model from
 * `ai/test`, over the SDK's native echo tool or over ours through
 * `toAiSdkTools`.
 */

import { generateText, isStepCount, type ToolSet, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { toAiSdkTools } from "../../src/ai-sdk/index.ts";
import { type EchoInput, echoDefinition } from "../echo-tool.ts";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type CallOptions = Parameters<MockLanguageModelV4["doGenerate"]>[0];

const usage: GenerateResult["usage"] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The JSON Schema of the echo Tool's arguments, as ours advertises it. */
export const ECHO_PARAMETERS = {
  type: "object",
  properties: { text: { type: "string" }, slot: { type: "number" } },
  required: ["text", "slot"],
} as const;

/**
 * A model that asks for `count` echo calls until the prompt holds Tool
 * results, then answers "done"; `seen` keeps the Tool results of the last
 * request that had some (for the sanity checks).
 */
function echoModel(count: number) {
  const calls: GenerateResult = {
    content: Array.from({ length: count }, (_, slot) => ({
      type: "tool-call" as const,
      toolCallId: `call-echo-${slot}`,
      toolName: "echo",
      input: JSON.stringify({ text: `hello ${slot}`, slot }),
    })),
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
  const done: GenerateResult = {
    content: [{ type: "text", text: "done" }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  };
  const seen: { outputs: unknown[] } = { outputs: [] };
  const model = new MockLanguageModelV4({
    doGenerate: async (options: CallOptions) => {
      const results = options.prompt.findLast((message) => message.role === "tool");
      if (results === undefined || results.role !== "tool") return count === 0 ? done : calls;
      seen.outputs = results.content.map((part) =>
        part.type === "tool-result" ? part.output : part,
      );
      return done;
    },
  });
  return { model, seen };
}

/** The echo tool written the way AI SDK users write one: a zod input schema and `execute`. */
export function nativeEchoTools(output: (input: EchoInput) => unknown): ToolSet {
  return {
    echo: tool({
      description: "Echo the text back.",
      inputSchema: z.object({ text: z.string(), slot: z.number() }),
      execute: async (input) => output(input),
    }),
  };
}

/** The same echo Tool as ours, handed to the SDK through `toAiSdkTools`. */
export async function ourEchoTools(output: (input: EchoInput) => unknown): Promise<ToolSet> {
  const echo = defineTool({
    ...echoDefinition,
    execute: async (input: EchoInput) => output(input),
    parameters: ECHO_PARAMETERS,
  });
  return toAiSdkTools(new ToolRegistry([echo]));
}

/** Runs one `generateText` and resolves with the Tool results the model read on step 2. */
export type AiSdkRun = () => Promise<unknown[]>;

/**
 * Builds a runner for a complete `generateText` run over `tools` whose first
 * step asks for `count` echo calls (none: a plain answer).
 *
 * @example
 * const outputs = await aiSdkRun(tools, 100)(); // 100 tool-result outputs
 */
export function aiSdkRun(tools: ToolSet, count: number): AiSdkRun {
  return async () => {
    const { model, seen } = echoModel(count);
    await generateText({ model, tools, prompt: "Echo a hundred times.", stopWhen: isStepCount(2) });
    return seen.outputs;
  };
}
