/**
 * For the documentation's provider round trip: the example Tools, a run, each
 * provider's conversation so far, and the clients the second block uses.
 * The network is scripted: `new OpenAI()` sends through the global `fetch`
 * (put back after the run), the other clients through their own.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type Content, GoogleGenAI } from "@google/genai";
import type OpenAI from "openai";
import { ToolRegistry } from "toolbound";
import tools from "../../../examples/tools.ts";
import {
  anthropicMessage,
  chatCompletion,
  chatToolCall,
  functionCallItem,
  functionCallPart,
  geminiResponse,
  responsesResponse,
  toolUseBlock,
} from "../../support/providers.ts";
import { routedFetch, scriptedFetch } from "../scripted-fetch.ts";

process.env.OPENAI_API_KEY = "test";
globalThis.fetch = routedFetch({
  "/chat/completions": chatCompletion({
    content: null,
    tool_calls: [chatToolCall("call_1", "add", '{"left":20,"right":22}')],
  }),
  "/responses": responsesResponse([functionCallItem("call_2", "add", '{"left":1,"right":2}')]),
});
const registry = new ToolRegistry(tools);
const run = new AbortController();
const signal = run.signal;
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: "user", content: "What is 20 + 22?" },
];
const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "What is 1 + 2?" }];
const anthropic = new Anthropic({
  apiKey: "test",
  maxRetries: 0,
  fetch: scriptedFetch([anthropicMessage([toolUseBlock("toolu_1", "add", { left: 1, right: 2 })])])
    .fetch,
});
const anthropicMessages: Anthropic.MessageParam[] = [{ role: "user", content: "What is 1 + 2?" }];
const ai = new GoogleGenAI({
  apiKey: "test",
  httpOptions: {
    fetch: scriptedFetch([geminiResponse([functionCallPart("add", { left: 1, right: 2 })])]).fetch,
  },
});
const contents: Content[] = [{ role: "user", parts: [{ text: "What is 1 + 2?" }] }];
