/**
 * One agent step with the official Gemini SDK (`@google/genai`): the Tools go
 * out as function declarations from `toProviderTools`, the model's
 * `functionCall` parts come back through `readToolCalls` (calls without ids get
 * `gemini-call-<index>-<token>`), run through `executeToolCalls`, and return as one
 * user content of `functionResponse` parts from `toToolResultMessages`.
 */

import type { Content, GoogleGenAI } from "@google/genai";
import type { ToolRegistry } from "../course/src/index.ts";
import { readToolCalls, toProviderTools, toToolResultMessages } from "../src/providers/index.ts";
import { executeToolCalls } from "../src/rounds/index.ts";

/**
 * Sends `contents` with the registry's Tools, appends the model's content
 * (its thought signatures included, unchanged) and, when it called Tools,
 * their results. Answers the model's text when it called none, else undefined
 * (call it again).
 *
 * @example
 * const contents: Content[] = [{ role: "user", parts: [{ text: "What is 20 + 22?" }] }];
 * let answer: string | undefined;
 * for (let step = 0; step < 8 && answer === undefined; step += 1) {
 *   answer = await geminiStep(new GoogleGenAI({}), registry, contents, run.signal);
 * }
 */
export async function geminiStep(
  ai: GoogleGenAI,
  registry: ToolRegistry,
  contents: Content[],
  signal: AbortSignal,
  model = "gemini-2.5-flash",
): Promise<string | undefined> {
  // The SDK rewrites each declaration's `parameters` in place, and toProviderTools
  // answers a deep-frozen list: hand it copies (the schemas themselves are only read).
  const functionDeclarations = toProviderTools(registry, "gemini").map((declaration) => ({
    ...declaration,
  }));
  const response = await ai.models.generateContent({
    model,
    contents,
    config: { tools: [{ functionDeclarations }], abortSignal: signal },
  });
  // Throws a TypeError unless the response has at most one candidate.
  const calls = readToolCalls("gemini", response);
  const content = response.candidates?.[0]?.content;
  if (content !== undefined) contents.push(content);
  if (calls.length === 0) return response.text ?? "";
  const results = await executeToolCalls(registry, calls, signal, {
    concurrency: 4,
    timeoutMs: 30_000,
  });
  contents.push(...toToolResultMessages("gemini", results));
  return undefined;
}
