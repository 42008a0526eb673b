/**
 * The worked examples in `examples/`, run against the official SDK clients
 * with a scripted `fetch` in place of the network: each provider's client
 * serializes our Tools and results and parses the scripted responses itself,
 * so these runs show the round trip working through the real SDKs.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type Content, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import { anthropicStep } from "../../examples/anthropic-step.ts";
import { geminiStep } from "../../examples/gemini-step.ts";
import { openAIChatStep } from "../../examples/openai-chat-step.ts";
import { openAIResponsesStep } from "../../examples/openai-responses-step.ts";
import tools from "../../examples/tools.ts";
import { toProviderTools } from "../../src/providers/index.ts";
import {
  anthropicMessage,
  chatCompletion,
  chatToolCall,
  errorContent,
  functionCallItem,
  functionCallPart,
  geminiResponse,
  outputMessage,
  responsesResponse,
  textBlock,
  toolUseBlock,
} from "../support/providers.ts";
import { converse, scriptedFetch, sent } from "../support/scripted-fetch.ts";

const SUM = '{"sum":42}';
const BROKEN = errorContent(
  "TOOL_ARGUMENTS_INVALID",
  "arguments are not valid JSON at position 11: unexpected end of input",
);

describe("each example completes a two-turn conversation through its SDK", () => {
  const registry = new ToolRegistry(tools);
  const signal = new AbortController().signal;

  test("openai-chat", async () => {
    const { fetch, bodies } = scriptedFetch([
      chatCompletion({
        content: null,
        tool_calls: [
          chatToolCall("call_1", "add", '{"left":20,"right":22}'),
          chatToolCall("call_2", "add", '{"left":20,'),
        ],
      }),
      chatCompletion({ content: "20 + 22 = 42." }, "stop"),
    ]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: "user", content: "What is 20 + 22?" },
    ];
    expect(await converse(() => openAIChatStep(client, registry, messages, signal))).toBe(
      "20 + 22 = 42.",
    );
    expect(bodies[0]?.tools).toEqual(toProviderTools(registry, "openai-chat"));
    expect(sent(bodies[1], "messages").slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: SUM },
      { role: "tool", tool_call_id: "call_2", content: BROKEN },
    ]);
  });

  test("openai-responses", async () => {
    const { fetch, bodies } = scriptedFetch([
      responsesResponse([
        functionCallItem("call_1", "add", '{"left":20,"right":22}'),
        functionCallItem("call_2", "add", '{"left":20,'),
      ]),
      responsesResponse([outputMessage("20 + 22 = 42.")]),
    ]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: "user", content: "What is 20 + 22?" },
    ];
    expect(await converse(() => openAIResponsesStep(client, registry, input, signal))).toBe(
      "20 + 22 = 42.",
    );
    expect(bodies[0]?.tools).toEqual(toProviderTools(registry, "openai-responses"));
    expect(sent(bodies[1], "input").slice(3)).toEqual([
      { type: "function_call_output", call_id: "call_1", output: SUM },
      { type: "function_call_output", call_id: "call_2", output: BROKEN },
    ]);
  });

  test("anthropic", async () => {
    const { fetch, bodies } = scriptedFetch([
      anthropicMessage([
        textBlock("Adding."),
        toolUseBlock("toolu_1", "add", { left: 20, right: 22 }),
        toolUseBlock("toolu_2", "add", { left: 20 }),
      ]),
      anthropicMessage([textBlock("20 + 22 = 42.")], "end_turn"),
    ]);
    const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What is 20 + 22?" }];
    expect(await converse(() => anthropicStep(client, registry, messages, signal))).toBe(
      "20 + 22 = 42.",
    );
    expect(bodies[0]?.tools).toEqual(toProviderTools(registry, "anthropic"));
    expect(sent(bodies[1], "messages").slice(2)).toEqual([
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: SUM, is_error: false },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: errorContent("TOOL_ARGUMENTS_INVALID", "right must be a number"),
            is_error: true,
          },
        ],
      },
    ]);
  });

  test("gemini (calls without ids)", async () => {
    const { fetch, bodies } = scriptedFetch([
      geminiResponse([
        functionCallPart("add", { left: 20, right: 22 }),
        functionCallPart("add", { left: 20 }),
      ]),
      geminiResponse([{ text: "20 + 22 = 42." }]),
    ]);
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { fetch } });
    const contents: Content[] = [{ role: "user", parts: [{ text: "What is 20 + 22?" }] }];
    expect(await converse(() => geminiStep(ai, registry, contents, signal))).toBe("20 + 22 = 42.");
    expect(bodies[0]?.tools).toEqual([
      { functionDeclarations: toProviderTools(registry, "gemini") },
    ]);
    expect(sent(bodies[1], "contents").slice(2)).toEqual([
      {
        role: "user",
        parts: [
          { functionResponse: { name: "add", response: { output: SUM } } },
          {
            functionResponse: {
              name: "add",
              response: {
                error: errorContent("TOOL_ARGUMENTS_INVALID", "right must be a number"),
              },
            },
          },
        ],
      },
    ]);
  });
});
