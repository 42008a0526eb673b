/**
 * A Tool's image, PDF and audio through each official provider SDK: the
 * worked example steps run a `chart` Tool that returns `toolContent`, and the
 * request each SDK then serializes (recorded by a scripted `fetch`) carries
 * the parts in that provider's own shapes.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type Content, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { describe, expect, test } from "vitest";
import { defineTool, ToolRegistry, toolContent } from "../../course/src/index.ts";
import { anthropicStep } from "../../examples/anthropic-step.ts";
import { geminiStep } from "../../examples/gemini-step.ts";
import { openAIChatStep } from "../../examples/openai-chat-step.ts";
import { openAIResponsesStep } from "../../examples/openai-responses-step.ts";
import { base64, PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../support/parts.ts";
import {
  anthropicMessage,
  chatCompletion,
  chatToolCall,
  functionCallItem,
  functionCallPart,
  geminiResponse,
  outputMessage,
  responsesResponse,
  textBlock,
  toolUseBlock,
} from "../support/providers.ts";
import { converse, scriptedFetch, sent } from "../support/scripted-fetch.ts";

const PDF = SIGNED_SAMPLES["application/pdf"] as Uint8Array;
const WAV = SIGNED_SAMPLES["audio/wav"] as Uint8Array;
const PDF_BASE64 = base64(PDF);

/** A Tool that renders a chart: text, a 1x1 PNG, a named PDF and a WAV clip. */
const chart = defineTool({
  name: "chart",
  description: "Render the chart.",
  validate: (input) => ({ ok: true, value: input }),
  execute: async () =>
    toolContent([
      { type: "text", text: "Rendered." },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
      { type: "file", data: PDF, mimeType: "application/pdf", name: "chart.pdf" },
      { type: "audio", data: WAV, mimeType: "audio/wav" },
    ]),
});

const CONTENT = [
  "Rendered.",
  "[image: image/png, 70 bytes]",
  `[file: chart.pdf, application/pdf, ${PDF.length} bytes]`,
  `[audio: audio/wav, ${WAV.length} bytes]`,
].join("\n");

const registry = new ToolRegistry([chart]);
const signal = new AbortController().signal;

describe("each provider's recorded request for a result with an image", () => {
  test("openai-chat: the tool message holds the text, one user message right after holds the media", async () => {
    const { fetch, bodies } = scriptedFetch([
      chatCompletion({ content: null, tool_calls: [chatToolCall("call_1", "chart", "{}")] }),
      chatCompletion({ content: "A single pixel." }, "stop"),
    ]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: "user", content: "Chart?" },
    ];
    expect(await converse(() => openAIChatStep(client, registry, messages, signal))).toBe(
      "A single pixel.",
    );
    expect(sent(bodies[1], "messages").slice(2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: CONTENT },
      {
        role: "user",
        content: [
          { type: "text", text: 'Attachments of the tool result for call "call_1", in order:' },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_1X1_BASE64}` } },
          {
            type: "file",
            file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: "chart.pdf" },
          },
          { type: "input_audio", input_audio: { data: base64(WAV), format: "wav" } },
        ],
      },
    ]);
  });

  test("openai-responses: function_call_output with an output list", async () => {
    const { fetch, bodies } = scriptedFetch([
      responsesResponse([functionCallItem("call_1", "chart", "{}")]),
      responsesResponse([outputMessage("A single pixel.")]),
    ]);
    const client = new OpenAI({ apiKey: "test", fetch, maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Chart?" }];
    expect(await converse(() => openAIResponsesStep(client, registry, input, signal))).toBe(
      "A single pixel.",
    );
    expect(sent(bodies[1], "input").at(-1)).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "Rendered." },
        { type: "input_image", image_url: `data:image/png;base64,${PNG_1X1_BASE64}` },
        {
          type: "input_file",
          file_data: `data:application/pdf;base64,${PDF_BASE64}`,
          filename: "chart.pdf",
        },
        { type: "input_text", text: `[audio: audio/wav, ${WAV.length} bytes]` },
      ],
    });
  });

  test("anthropic: tool_result blocks with an image and a document", async () => {
    const { fetch, bodies } = scriptedFetch([
      anthropicMessage([textBlock("Charting."), toolUseBlock("toolu_1", "chart", {})]),
      anthropicMessage([textBlock("A single pixel.")], "end_turn"),
    ]);
    const client = new Anthropic({ apiKey: "test", fetch, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Chart?" }];
    expect(await converse(() => anthropicStep(client, registry, messages, signal))).toBe(
      "A single pixel.",
    );
    expect(sent(bodies[1], "messages").at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          is_error: false,
          content: [
            { type: "text", text: "Rendered." },
            {
              type: "image",
              source: { type: "base64", media_type: "image/png", data: PNG_1X1_BASE64 },
            },
            {
              type: "document",
              source: { type: "base64", media_type: "application/pdf", data: PDF_BASE64 },
              title: "chart.pdf",
            },
            { type: "text", text: `[audio: audio/wav, ${WAV.length} bytes]` },
          ],
        },
      ],
    });
  });

  test("gemini: functionResponse with inline-data parts", async () => {
    const { fetch, bodies } = scriptedFetch([
      geminiResponse([functionCallPart("chart", {}, "fc-1")]),
      geminiResponse([{ text: "A single pixel." }]),
    ]);
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { fetch } });
    const contents: Content[] = [{ role: "user", parts: [{ text: "Chart?" }] }];
    expect(await converse(() => geminiStep(ai, registry, contents, signal))).toBe(
      "A single pixel.",
    );
    expect(sent(bodies[1], "contents").at(-1)).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "fc-1",
            name: "chart",
            response: { output: CONTENT },
            parts: [
              { inlineData: { mimeType: "image/png", data: PNG_1X1_BASE64 } },
              { inlineData: { mimeType: "application/pdf", data: PDF_BASE64 } },
            ],
          },
        },
      ],
    });
  });
});
