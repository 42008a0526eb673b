/**
 * One agent step with the official OpenAI SDK and the Responses API: the
 * Tools go out with `toProviderTools`, the model's `function_call` items come
 * back through `readToolCalls`, run through `executeToolCalls`, and return as
 * `function_call_output` items from `toToolResultMessages`.
 */

import type OpenAI from "openai";
import type { ToolRegistry } from "../course/src/index.ts";
import { readToolCalls, toProviderTools, toToolResultMessages } from "../src/providers/index.ts";
import { executeToolCalls } from "../src/rounds/index.ts";

/**
 * Sends `input` with the registry's Tools, appends the response's output
 * items and, when the model called Tools, their results. Answers the output
 * text when it called none, else undefined (call it again).
 *
 * @example
 * const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "What is 20 + 22?" }];
 * let answer: string | undefined;
 * for (let step = 0; step < 8 && answer === undefined; step += 1) {
 *   answer = await openAIResponsesStep(new OpenAI(), registry, input, run.signal);
 * }
 */
export async function openAIResponsesStep(
  client: OpenAI,
  registry: ToolRegistry,
  input: OpenAI.Responses.ResponseInputItem[],
  signal: AbortSignal,
  model = "gpt-4.1",
): Promise<string | undefined> {
  const response = await client.responses.create(
    { model, input, tools: [...toProviderTools(registry, "openai-responses")] },
    { signal },
  );
  const calls = readToolCalls("openai-responses", response);
  // The model's own items (reasoning, messages, calls) go back with the results. The
  // API takes its output back as input; the SDK's types list a few output statuses
  // (a computer call's "failed") that its input type lacks, hence the cast.
  input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
  if (calls.length === 0) return response.output_text;
  const results = await executeToolCalls(registry, calls, signal, {
    concurrency: 4,
    timeoutMs: 30_000,
  });
  input.push(...toToolResultMessages("openai-responses", results));
  return undefined;
}
