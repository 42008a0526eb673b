/**
 * One agent step with the official OpenAI SDK and Chat Completions: the
 * Tools go out with `toProviderTools`, the model's calls come back through
 * `readToolCalls` (argument text bounded before it is parsed), run through
 * `executeToolCalls`, and return as `toToolResultMessages`.
 */

import type OpenAI from "openai";
import type { ToolRegistry } from "../course/src/index.ts";
import { readToolCalls, toProviderTools, toToolResultMessages } from "../src/providers/index.ts";
import { executeToolCalls } from "../src/rounds/index.ts";

/**
 * Sends `messages` with the registry's Tools, appends the assistant's turn
 * and, when it called Tools, their results. Answers the assistant's text when
 * it called none (the conversation is done), else undefined (call it again).
 *
 * @example
 * const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "What is 20 + 22?" }];
 * let answer: string | undefined;
 * for (let step = 0; step < 8 && answer === undefined; step += 1) {
 *   answer = await openAIChatStep(new OpenAI(), registry, messages, run.signal);
 * }
 */
export async function openAIChatStep(
  client: OpenAI,
  registry: ToolRegistry,
  messages: OpenAI.Chat.ChatCompletionMessageParam[],
  signal: AbortSignal,
  model = "gpt-4.1",
): Promise<string | undefined> {
  const completion = await client.chat.completions.create(
    { model, messages, tools: [...toProviderTools(registry, "openai-chat")] },
    { signal },
  );
  // Throws a TypeError unless the completion has exactly one choice.
  const calls = readToolCalls("openai-chat", completion);
  const message = completion.choices[0]?.message;
  if (message === undefined) return "";
  messages.push(message);
  if (calls.length === 0) return message.content ?? message.refusal ?? "";
  const results = await executeToolCalls(registry, calls, signal, {
    concurrency: 4,
    timeoutMs: 30_000,
  });
  messages.push(...toToolResultMessages("openai-chat", results));
  return undefined;
}
