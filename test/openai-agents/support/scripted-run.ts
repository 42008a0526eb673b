/**
 * One agent run of OpenAI Agents JS's own loop with the SDK's `ScriptedModel`
 * (from `@openai/agents-core/testing`, no network): turn 1 asks for the
 * scripted function calls, turn 2 answers "done". Tests read what the model
 * received in its next request.
 */

import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type RunItem,
  Runner,
  type Tool,
} from "@openai/agents-core";
import {
  assistantMessage,
  functionCall,
  type RecordedModelCall,
  ScriptedModel,
} from "@openai/agents-core/testing";

/** One call the model asks for: its id, the Tool's name and the arguments (an object, or raw JSON text). */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly args: string | Record<string, unknown>;
}

/** A call the model asks for. */
export function call(
  id: string,
  args: string | Record<string, unknown>,
  name = "echo",
): ScriptedCall {
  return { id, name, args };
}

/** Run modes of the SDK's runner the suite uses. */
export type Mode = "run" | "streamed run";

/** What one run left: the model's recorded calls, the final output or the rejection. */
export interface AgentsRun {
  readonly calls: readonly RecordedModelCall[];
  readonly finalOutput: unknown;
  readonly error: unknown;
  readonly cancelled: boolean;
  /** The function call results the run recorded (none when it rejected). */
  readonly recorded: readonly RecordedOutput[];
}

// Tracing off: no span processor runs, nothing is exported anywhere.
const runner = new Runner({ tracingDisabled: true });

/** What a run passes besides the tools and the calls. */
export interface RunSettings {
  readonly signal?: AbortSignal;
  /** Wraps the scripted model before the agent gets it. */
  readonly wrapModel?: (model: Model) => Model;
}

/**
 * Runs an agent with `tools` whose model asks for `calls` in one turn, then
 * says "done". A rejection (or a failed stream) is returned as `error`.
 *
 * @example
 * const run = await runAgent("run", tools, [call("call-1", { text: "hi" })]);
 * toolOutputs(run.calls[1]?.request); // what the model read on turn 2
 */
export async function runAgent(
  mode: Mode,
  tools: Tool[],
  calls: readonly ScriptedCall[],
  { signal, wrapModel }: RunSettings = {},
): Promise<AgentsRun> {
  const model = new ScriptedModel([
    calls.map((one) => functionCall(one.name, one.args, { callId: one.id })),
    [assistantMessage("done")],
  ]);
  const agent = new Agent({
    name: "Scripted",
    instructions: "Use the tools.",
    model: wrapModel === undefined ? model : wrapModel(model),
    tools,
  });
  const options = signal === undefined ? {} : { signal };
  const failed = (error: unknown, cancelled: boolean): AgentsRun => ({
    calls: model.calls,
    finalOutput: undefined,
    error,
    cancelled,
    recorded: [],
  });
  if (mode === "run") {
    try {
      const result = await runner.run(agent, "go", options);
      return {
        calls: model.calls,
        finalOutput: result.finalOutput,
        error: undefined,
        cancelled: false,
        recorded: recordedOutputs(result.newItems),
      };
    } catch (error) {
      return failed(error, false);
    }
  }
  const result = await runner.run(agent, "go", { ...options, stream: true });
  try {
    for await (const _event of result) {
      // Drained: the run advances as its events are read.
    }
    await result.completed;
  } catch (error) {
    return failed(error, result.cancelled);
  }
  return {
    calls: model.calls,
    // A cancelled run has no final output (and the SDK warns when it is read).
    finalOutput: result.cancelled ? undefined : result.finalOutput,
    error: result.error ?? undefined,
    cancelled: result.cancelled,
    recorded: recordedOutputs(result.newItems),
  };
}

/** A function call result the run recorded in its items, with its status. */
export interface RecordedOutput {
  readonly callId: string;
  readonly status: string | undefined;
  readonly text: unknown;
}

function recordedOutputs(items: readonly RunItem[]): RecordedOutput[] {
  const recorded: RecordedOutput[] = [];
  for (const item of items) {
    if (item.type !== "tool_call_output_item" || item.rawItem.type !== "function_call_result")
      continue;
    const output = item.rawItem.output as { readonly text?: unknown } | string;
    recorded.push({
      callId: item.rawItem.callId,
      status: item.rawItem.status,
      text: typeof output === "string" ? output : output.text,
    });
  }
  return recorded;
}

/** A function call's result as the model reads it on a later turn. */
export interface SeenOutput {
  readonly callId: string;
  readonly text: unknown;
}

/**
 * The function call results a request carries, in the order of its input.
 *
 * @example
 * toolOutputs(run.calls[1]?.request); // [{ callId: "call-1", text: '{"echoed":"hi"}' }]
 */
export function toolOutputs(request: Readonly<ModelRequest> | undefined): SeenOutput[] {
  const input = request?.input;
  if (!Array.isArray(input)) return [];
  const seen: SeenOutput[] = [];
  for (const item of input as AgentInputItem[]) {
    if (item.type !== "function_call_result") continue;
    const output = item.output as { readonly type?: string; readonly text?: unknown } | string;
    seen.push({
      callId: item.callId,
      text: typeof output === "string" ? output : output.type === "text" ? output.text : output,
    });
  }
  return seen;
}
