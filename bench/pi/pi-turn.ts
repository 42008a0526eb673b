/**
 * One assistant turn through Pi's own agent loop, with a scripted stream
 * function in place of a model provider, and the same Tool calls through our
 * `executeToolCall`.
 */

import {
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { echoDefinition } from "../echo-tool.ts";
import type {
  PiAgentTool,
  PiAssistantMessage,
  PiLoopConfig,
  PiMessage,
  PiModules,
  PiStreamFn,
  PiToolCall,
  PiToolResultMessage,
  PiUsage,
} from "./pi-modules.ts";

const ZERO_USAGE: PiUsage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/**
 * The Tool calls of the scripted turn: `count` calls of the echo Tool.
 *
 * @example
 * scriptedCalls(2)[1]; // { type: "toolCall", id: "call-echo-1", name: "echo", arguments: { text: "hello 1", slot: 1 } }
 */
export function scriptedCalls(count: number): PiToolCall[] {
  return Array.from({ length: count }, (_, slot) => ({
    type: "toolCall",
    id: `call-echo-${slot}`,
    name: "echo",
    arguments: { text: `hello ${slot}`, slot },
  }));
}

function assistantMessage(calls: readonly PiToolCall[]): PiAssistantMessage {
  return {
    role: "assistant",
    content: calls.length > 0 ? calls : [{ type: "text", text: "Nothing to do." }],
    api: "scripted",
    provider: "scripted",
    model: "scripted",
    usage: ZERO_USAGE,
    stopReason: calls.length > 0 ? "toolUse" : "stop",
    timestamp: 0,
  };
}

/**
 * A stream function that answers every request with the same assistant
 * message, through Pi's real event-stream class and the minimal protocol a
 * provider must follow (`start`, then `done`).
 */
function scriptedStream(pi: PiModules, calls: readonly PiToolCall[]): PiStreamFn {
  return () => {
    const message = assistantMessage(calls);
    const stream = pi.ai.createAssistantMessageEventStream();
    stream.push({ type: "start", partial: message });
    stream.push({ type: "done", reason: message.stopReason, message });
    return stream;
  };
}

/**
 * The echo Tool written the way Pi expects: a TypeBox schema, and an
 * asynchronous `execute` that returns a text block.
 */
function piEchoTool(pi: PiModules): PiAgentTool {
  const { Type } = pi.typebox;
  return {
    name: "echo",
    label: "Echo",
    description: "Echo the text back.",
    parameters: Type.Object({ text: Type.String(), slot: Type.Number() }),
    execute: async (_toolCallId, params) => ({
      content: [{ type: "text", text: params.text }],
      details: { slot: params.slot },
    }),
  };
}

/** Runs one turn and returns every message the loop produced. */
export type PiTurn = () => Promise<PiMessage[]>;

/**
 * Builds a runner for one complete Pi run: a user prompt, one assistant turn
 * asking for `callCount` echo calls (none: a plain answer), Pi's validation
 * and execution of each call (its default, parallel mode), then stop.
 *
 * @example
 * const turn = piTurn(pi, 100);
 * const messages = await turn(); // prompt, assistant message, 100 Tool results
 */
export function piTurn(pi: PiModules, callCount: number): PiTurn {
  const tool = piEchoTool(pi);
  const streamFn = scriptedStream(pi, scriptedCalls(callCount));
  const config: PiLoopConfig = {
    model: { id: "scripted", provider: "scripted", api: "scripted" },
    convertToLlm: (messages) => messages,
    // One assistant turn, as in the comparison: stop once its Tool results are in.
    shouldStopAfterTurn: () => true,
  };
  const signal = new AbortController().signal;
  const emit = (): void => {};
  return () =>
    pi.agentCore.runAgentLoop(
      [{ role: "user", content: "Echo a hundred times.", timestamp: 0 }],
      { systemPrompt: "", messages: [], tools: [tool] },
      config,
      emit,
      signal,
      streamFn,
    );
}

/**
 * Picks the Tool-result messages out of a Pi run's messages.
 *
 * @example
 * toolResults(await turn()).length; // 100
 */
export function toolResults(messages: readonly PiMessage[]): PiToolResultMessage[] {
  return messages.filter(
    (message): message is PiToolResultMessage => message.role === "toolResult",
  );
}

/**
 * Builds a runner for our side: the same Tool calls, all through
 * `executeToolCall` at once on one signal (Pi's default mode runs them in
 * parallel too).
 *
 * @example
 * const results = await oursBatch(scriptedCalls(100))(); // 100 frozen result messages
 */
export function oursBatch(calls: readonly PiToolCall[]): () => Promise<CourseToolResultMessage[]> {
  const registry = new ToolRegistry([defineTool(echoDefinition)]);
  const signal = new AbortController().signal;
  return () => Promise.all(calls.map((call) => executeToolCall(registry, call, signal)));
}
