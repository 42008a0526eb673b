/**
 * A scripted stand-in for a model provider: a Pi stream function that answers
 * each turn with the next scripted assistant message, records the context Pi
 * sent it, and reports an aborted turn the way Pi's stream contract asks
 * (a final message with stop reason "aborted", never a throw).
 */

import {
  type AgentEvent,
  type AgentLoopConfig,
  type AgentMessage,
  type AgentTool,
  runAgentLoop,
  type StreamFn,
} from "@earendil-works/pi-agent-core";
import {
  type AssistantMessage,
  type Context,
  createAssistantMessageEventStream,
  type Message,
  type Model,
  type ToolCall,
  type ToolResultMessage,
  type UserMessage,
} from "@earendil-works/pi-ai";

export const scriptedModel: Model<"scripted"> = {
  id: "scripted-1",
  name: "Scripted model",
  api: "scripted",
  provider: "scripted",
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 4_096,
};

const noUsage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** An assistant message from the scripted model. */
export function assistant(
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: scriptedModel.api,
    provider: scriptedModel.provider,
    model: scriptedModel.id,
    usage: noUsage,
    stopReason,
    timestamp: Date.now(),
  };
}

/** A Tool call block as a provider would stream it. */
export function toolCall(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

/** The closing turn: plain text, no Tool calls. */
export const finalAnswer = (): AssistantMessage =>
  assistant([{ type: "text", text: "done" }], "stop");

/** A stream function that plays `turns` in order and records every request. */
export function scriptedStream(turns: readonly AssistantMessage[]): {
  streamFn: StreamFn;
  requests: Context[];
} {
  const requests: Context[] = [];
  const streamFn: StreamFn = (_model, context, options) => {
    requests.push({ messages: structuredClone(context.messages) });
    const stream = createAssistantMessageEventStream();
    if (options?.signal?.aborted) {
      const message = assistant([], "aborted");
      message.errorMessage = "Request was aborted";
      stream.push({ type: "error", reason: "aborted", error: message });
      return stream;
    }
    const next = turns[requests.length - 1] ?? finalAnswer();
    stream.push({ type: "start", partial: { ...next, content: [] } });
    const reason = next.stopReason === "toolUse" ? "toolUse" : "stop";
    stream.push({ type: "done", reason, message: next });
    return stream;
  };
  return { streamFn, requests };
}

/** Keeps the messages a provider understands, as a Pi application's `convertToLlm` does. */
export const convertToLlm = (messages: AgentMessage[]): Message[] =>
  messages.filter(
    (message): message is Message =>
      message.role === "user" || message.role === "assistant" || message.role === "toolResult",
  );

export const userPrompt = (text: string): UserMessage => ({
  role: "user",
  content: text,
  timestamp: Date.now(),
});

/** One run of Pi's own agent loop over `tools`, driven by the scripted turns. */
export async function runPi(options: {
  tools: AgentTool[];
  turns: readonly AssistantMessage[];
  signal?: AbortSignal;
  toolExecution?: AgentLoopConfig["toolExecution"];
}): Promise<{ events: AgentEvent[]; messages: AgentMessage[]; requests: Context[] }> {
  const { streamFn, requests } = scriptedStream(options.turns);
  const events: AgentEvent[] = [];
  const config: AgentLoopConfig = {
    model: scriptedModel,
    convertToLlm,
    ...(options.toolExecution === undefined ? {} : { toolExecution: options.toolExecution }),
  };
  const messages = await runAgentLoop(
    [userPrompt("go")],
    { systemPrompt: "", messages: [], tools: options.tools },
    config,
    (event) => {
      events.push(event);
    },
    options.signal,
    streamFn,
  );
  return { events, messages, requests };
}

/** The tool-result messages of a run, in transcript order. */
export const toolResults = (messages: AgentMessage[]): ToolResultMessage[] =>
  messages.filter((message): message is ToolResultMessage => message.role === "toolResult");

/** The text a Tool result shows the model. */
export const textOf = (message: ToolResultMessage): string =>
  message.content
    .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
    .join("\n");
