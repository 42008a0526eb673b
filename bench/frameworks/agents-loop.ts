/**
 * One `Runner.run` of OpenAI Agents JS's own loop (two turns: one asking for
 * the scripted function calls, then a closing message) with a minimal model
 * that answers from the request, over the SDK's native echo tool or over
 * ours through `toOpenAIAgentsTools`.
 */

import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  type Tool,
  tool,
  Usage,
} from "@openai/agents-core";
import { z } from "zod";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { toOpenAIAgentsTools } from "../../src/openai-agents/index.ts";
import { type EchoInput, echoDefinition } from "../echo-tool.ts";
import { ECHO_PARAMETERS } from "./ai-sdk-loop.ts";

/**
 * A model that asks for `count` echo calls while the request holds no
 * function results, then answers "done"; `seen` keeps the results of the
 * last request that had some (for the sanity checks). No network, no state
 * across runs.
 */
class EchoModel implements Model {
  readonly seen: { outputs: unknown[] } = { outputs: [] };
  readonly #calls: ModelResponse;
  readonly #done: ModelResponse;

  constructor(count: number) {
    this.#calls = {
      usage: new Usage(),
      output: Array.from({ length: count }, (_, slot) => ({
        type: "function_call" as const,
        callId: `call-echo-${slot}`,
        name: "echo",
        arguments: JSON.stringify({ text: `hello ${slot}`, slot }),
        status: "completed" as const,
      })),
    };
    this.#done = {
      usage: new Usage(),
      output: [
        {
          type: "message",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "done" }],
        },
      ],
    };
    if (count === 0) this.#calls = this.#done;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = Array.isArray(request.input) ? (request.input as AgentInputItem[]) : [];
    const results = input.filter((item) => item.type === "function_call_result");
    if (results.length === 0) return this.#calls;
    this.seen.outputs = results.map((item) => item.output);
    return this.#done;
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the benchmark runs the non-streamed loop");
  }
}

/** The echo tool written the way OpenAI Agents users write one: a zod schema (strict) and `execute`. */
export function nativeEchoTools(output: (input: EchoInput) => unknown): Tool[] {
  return [
    tool({
      name: "echo",
      description: "Echo the text back.",
      parameters: z.object({ text: z.string(), slot: z.number() }),
      execute: async (input) => output(input),
    }),
  ];
}

/** The same echo Tool as ours, handed to the SDK through `toOpenAIAgentsTools`. */
export async function ourEchoTools(output: (input: EchoInput) => unknown): Promise<Tool[]> {
  const echo = defineTool({
    ...echoDefinition,
    execute: async (input: EchoInput) => output(input),
    parameters: ECHO_PARAMETERS,
  });
  return toOpenAIAgentsTools(new ToolRegistry([echo]));
}

/** Runs one agent run and resolves with the function results the model read on turn 2. */
export type AgentsRun = () => Promise<unknown[]>;

// Tracing off: no span processor runs.
const runner = new Runner({ tracingDisabled: true });

/**
 * Builds a runner for a complete agent run over `tools` whose first turn asks
 * for `count` echo calls (none: a plain answer).
 *
 * @example
 * const outputs = await agentsRun(tools, 100)(); // 100 function results
 */
export function agentsRun(tools: Tool[], count: number): AgentsRun {
  return async () => {
    const model = new EchoModel(count);
    const agent = new Agent({ name: "Echo", instructions: "Echo.", model, tools });
    await runner.run(agent, "Echo a hundred times.", { maxTurns: 2 });
    return model.seen.outputs;
  };
}
