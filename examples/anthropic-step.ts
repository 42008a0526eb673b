/**
 * One agent step with the official Anthropic SDK: the Tools go out with
 * `toProviderTools`, the model's `tool_use` blocks come back through
 * `readToolCalls`, run through `executeToolCalls`, and return as one user
 * message of `tool_result` blocks from `toToolResultMessages`.
 */

import type Anthropic from "@anthropic-ai/sdk";
import type { ToolRegistry } from "../course/src/index.ts";
import { readToolCalls, toProviderTools, toToolResultMessages } from "../src/providers/index.ts";
import { executeToolCalls } from "../src/rounds/index.ts";

/**
 * Sends `messages` with the registry's Tools, appends the assistant's turn
 * and, when it called Tools, their results. Answers the assistant's text when
 * it called none, else undefined (call it again).
 *
 * @example
 * const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What is 20 + 22?" }];
 * let answer: string | undefined;
 * for (let step = 0; step < 8 && answer === undefined; step += 1) {
 *   answer = await anthropicStep(new Anthropic(), registry, messages, run.signal);
 * }
 */
export async function anthropicStep(
  client: Anthropic,
  registry: ToolRegistry,
  messages: Anthropic.MessageParam[],
  signal: AbortSignal,
  model = "claude-sonnet-4-5",
): Promise<string | undefined> {
  const message = await client.messages.create(
    { model, max_tokens: 4096, messages, tools: [...toProviderTools(registry, "anthropic")] },
    { signal },
  );
  const calls = readToolCalls("anthropic", message);
  messages.push({ role: "assistant", content: message.content });
  if (calls.length === 0) {
    return message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  }
  const results = await executeToolCalls(registry, calls, signal, {
    concurrency: 4,
    timeoutMs: 30_000,
  });
  messages.push(...toToolResultMessages("anthropic", results));
  return undefined;
}
