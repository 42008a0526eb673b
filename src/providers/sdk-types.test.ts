/**
 * Type-level tests against the official SDKs (checked by `tsc` in
 * `npm run typecheck`, part of `npm test`): what the round trip writes is
 * assignable to each SDK's request parameters. Only types are imported: no
 * SDK loads at run time.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type {
  Content,
  FunctionDeclaration,
  FunctionResponsePart,
  GenerateContentConfig,
  GenerateContentParameters,
  Part,
} from "@google/genai";
import type OpenAI from "openai";
import { describe, expect, expectTypeOf, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import { add } from "../../examples/tools.ts";
import {
  type AnthropicToolResultContent,
  type AnthropicToolResultMessage,
  type GeminiFunctionResponseBlob,
  type GeminiFunctionResponsePart,
  type GeminiToolResultContent,
  type OpenAIChatAttachmentMessage,
  type OpenAIChatToolMessage,
  type OpenAIResponsesFunctionCallOutput,
  type OpenAIResponsesOutputItem,
  toProviderTools,
  toToolResultMessages,
} from "./index.ts";

type ChatParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type ResponsesParams = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type AnthropicParams = Anthropic.Messages.MessageCreateParamsNonStreaming;

describe("our items are the SDKs' request items", () => {
  test("each result item is assignable to its SDK's type", () => {
    expectTypeOf<OpenAIChatToolMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionToolMessageParam>();
    expectTypeOf<OpenAIChatToolMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam>();
    expectTypeOf<OpenAIResponsesFunctionCallOutput>().toExtend<OpenAI.Responses.ResponseInputItem.FunctionCallOutput>();
    expectTypeOf<OpenAIResponsesFunctionCallOutput>().toExtend<OpenAI.Responses.ResponseInputItem>();
    expectTypeOf<AnthropicToolResultMessage>().toExtend<Anthropic.MessageParam>();
    expectTypeOf<
      AnthropicToolResultMessage["content"][number]
    >().toExtend<Anthropic.ToolResultBlockParam>();
    expectTypeOf<GeminiToolResultContent>().toExtend<Content>();
    expectTypeOf<GeminiFunctionResponsePart>().toExtend<Part>();
  });

  test("the items of a result with parts are the SDKs' multi-part shapes", () => {
    expectTypeOf<AnthropicToolResultContent>().toExtend<
      Exclude<Anthropic.ToolResultBlockParam["content"], string | undefined>[number]
    >();
    expectTypeOf<OpenAIResponsesOutputItem>().toExtend<OpenAI.Responses.ResponseFunctionCallOutputItem>();
    expectTypeOf<OpenAIChatAttachmentMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionUserMessageParam>();
    expectTypeOf<OpenAIChatAttachmentMessage>().toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam>();
    expectTypeOf<GeminiFunctionResponseBlob>().toExtend<FunctionResponsePart>();
    // Parts are not free-form: a text part is no image block, an image no Responses text.
    expectTypeOf<{ type: "image"; data: string }>().not.toExtend<AnthropicToolResultContent>();
    expectTypeOf<OpenAIResponsesOutputItem>().not.toExtend<OpenAI.Responses.ResponseInputTextContent>();
  });

  test("a format's items are not another format's: the check can fail", () => {
    expectTypeOf<OpenAIChatToolMessage>().not.toExtend<OpenAI.Responses.ResponseInputItem>();
    expectTypeOf<OpenAIResponsesFunctionCallOutput>().not.toExtend<OpenAI.Chat.Completions.ChatCompletionMessageParam>();
    expectTypeOf<AnthropicToolResultMessage>().not.toExtend<OpenAI.Chat.Completions.ChatCompletionToolMessageParam>();
    expectTypeOf<GeminiToolResultContent>().not.toExtend<Anthropic.MessageParam>();
  });

  test("the round trip's values fit each SDK's create parameters, the Tool list included", () => {
    const registry = new ToolRegistry([add]);
    const results = [] as Parameters<typeof toToolResultMessages>[1];
    const chat: ChatParams = {
      model: "gpt-4.1",
      messages: [
        { role: "user", content: "1 + 2?" },
        ...toToolResultMessages("openai-chat", results),
      ],
      tools: [...toProviderTools(registry, "openai-chat", { strict: true })],
    };
    const responses: ResponsesParams = {
      model: "gpt-4.1",
      input: [...toToolResultMessages("openai-responses", results)],
      tools: [...toProviderTools(registry, "openai-responses", { strict: true })],
    };
    const anthropic: AnthropicParams = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [...toToolResultMessages("anthropic", results)],
      tools: [...toProviderTools(registry, "anthropic")],
    };
    const declarations: FunctionDeclaration[] = [...toProviderTools(registry, "gemini")];
    const config: GenerateContentConfig = { tools: [{ functionDeclarations: declarations }] };
    const gemini: GenerateContentParameters = {
      model: "gemini-2.5-flash",
      contents: [...toToolResultMessages("gemini", results)],
      config,
    };
    expect([chat, responses, anthropic, gemini].map((params) => params.model)).toHaveLength(4);
  });

  test("the frozen arrays are readonly, so they are spread into the SDK's mutable parameters", () => {
    const registry = new ToolRegistry([add]);
    // @ts-expect-error: a readonly array is not the SDK's mutable array type.
    const tools: ChatParams["tools"] = toProviderTools(registry, "openai-chat");
    // @ts-expect-error: a readonly array is not the SDK's mutable array type.
    const messages: ChatParams["messages"] = toToolResultMessages("openai-chat", []);
    expect([tools, messages].every(Object.isFrozen)).toBe(true);
  });
});
