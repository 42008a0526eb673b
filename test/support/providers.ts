/**
 * Test support for the provider round trip (not part of the published
 * surface): responses in each provider's documented shape, written out in
 * full, and a registry whose Tools record what they were given.
 */

import { defineTool, ToolRegistry } from "../../course/src/index.ts";

/** A registry with `work` (echoes its arguments) and `add`; `executed` records each run's arguments. */
export function recordingRegistry() {
  const executed: unknown[] = [];
  const registry = new ToolRegistry([
    defineTool({
      name: "work",
      description: "Echoes its arguments.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async (input) => {
        executed.push(input);
        return input;
      },
    }),
    defineTool({
      name: "add",
      description: "Adds two numbers.",
      validate: (input) => {
        const { left, right } = input as { left?: unknown; right?: unknown };
        return typeof left === "number" && typeof right === "number"
          ? { ok: true, value: { left, right } }
          : { ok: false, error: "left and right must be numbers" };
      },
      execute: async ({ left, right }) => {
        executed.push({ left, right });
        return { sum: left + right };
      },
    }),
  ]);
  return { registry, executed };
}

/** The content of an error result, as the boundary writes it. */
export const errorContent = (code: string, message: string) =>
  JSON.stringify({ error: { code, message } });

// --- OpenAI Chat Completions ---

/** A `tool_calls` entry of a chat completion message. */
export const chatToolCall = (id: string, name: string, args: string) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

/** A chat completion with one choice. */
export function chatCompletion(
  message: { content: string | null; tool_calls?: unknown[]; refusal?: string | null },
  finishReason = "tool_calls",
) {
  return {
    id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
    object: "chat.completion",
    created: 1_741_570_283,
    model: "gpt-4o-2024-08-06",
    choices: [
      {
        index: 0,
        message: { role: "assistant", refusal: null, annotations: [], ...message },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
    service_tier: "default",
    system_fingerprint: "fp_fc9f1d7035",
  };
}

// --- OpenAI Responses ---

/** A `function_call` output item. */
export const functionCallItem = (
  callId: string,
  name: string,
  args: string,
  status = "completed",
) => ({
  type: "function_call",
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: args,
  status,
});

/** An assistant message output item holding text. */
export const outputMessage = (text: string) => ({
  type: "message",
  id: "msg_67ccd3acc8d48190a77525dc6de64b4104becb25c45c1d41",
  status: "completed",
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [] }],
});

/** A Responses API response. */
export function responsesResponse(output: unknown[], status = "completed") {
  return {
    id: "resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b",
    object: "response",
    created_at: 1_741_476_542,
    status,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    model: "gpt-4.1-2025-04-14",
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: { input_tokens: 36, output_tokens: 87, total_tokens: 123 },
  };
}

// --- Anthropic Messages ---

/** A `tool_use` content block. */
export const toolUseBlock = (id: string, name: string, input: unknown) => ({
  type: "tool_use",
  id,
  name,
  input,
  caller: { type: "direct" },
});

/** A text content block. */
export const textBlock = (text: string) => ({ type: "text", text, citations: null });

/** An Anthropic assistant message. */
export function anthropicMessage(content: unknown[], stopReason = "tool_use") {
  return {
    id: "msg_01Aq9w938a90dw8q",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 472, output_tokens: 89 },
  };
}

// --- Gemini ---

/** A `functionCall` part; Gemini may leave `id` out. */
export const functionCallPart = (name: string, args?: unknown, id?: string) => ({
  functionCall: {
    name,
    ...(args === undefined ? {} : { args }),
    ...(id === undefined ? {} : { id }),
  },
});

/** A Gemini `GenerateContentResponse` as JSON, with one candidate. */
export function geminiResponse(parts: unknown[], finishReason = "STOP") {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }],
    usageMetadata: { promptTokenCount: 64, candidatesTokenCount: 18, totalTokenCount: 82 },
    modelVersion: "gemini-2.5-flash",
    responseId: "7o3aaPj2NqLnz7IPk6KTsQk",
  };
}

/** The formats whose argument text is JSON text, with a response holding one call per text. */
export const TEXT_FORMATS = [
  [
    "openai-chat",
    (texts: readonly string[]) =>
      chatCompletion({
        content: null,
        tool_calls: texts.map((text, index) => chatToolCall(`call_${index}`, "work", text)),
      }),
  ],
  [
    "openai-responses",
    (texts: readonly string[]) =>
      responsesResponse(
        texts.map((text, index) => functionCallItem(`call_${index}`, "work", text)),
      ),
  ],
] as const;

/** The formats whose arguments arrive parsed, with a response holding one call per value. */
export const VALUE_FORMATS = [
  [
    "anthropic",
    (values: readonly unknown[]) =>
      anthropicMessage(values.map((value, index) => toolUseBlock(`toolu_${index}`, "work", value))),
  ],
  [
    "gemini",
    (values: readonly unknown[]) =>
      geminiResponse(values.map((value, index) => functionCallPart("work", value, `fc-${index}`))),
  ],
] as const;

/** Catches what `run` throws (failing when it throws nothing). */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
