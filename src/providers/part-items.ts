/**
 * A result's parts in each provider's own shapes: Anthropic's `tool_result`
 * blocks, the OpenAI Responses output list, Gemini's function response
 * parts, and the attachments OpenAI Chat Completions takes only in a user
 * message. What a provider cannot take in a tool result stays the line
 * `content` already holds for it, so the model still reads that it was there.
 */

import type { ToolResultImageType, ToolResultPart } from "../../course/src/index.ts";
import { ArrayPrototype, freeze } from "../../course/src/internal.ts";
import { addData } from "./own-data.ts";
import { dataUrl, fileText, partLine } from "./result-parts.ts";

type BinaryPart = Exclude<ToolResultPart, { type: "text" }>;

// Captured when this module loads: a Tool runs in this process and may replace
// `JSON.stringify` afterwards, to make the attachments' label name another call.
const nativeStringify = JSON.stringify;

/**
 * An Anthropic text block.
 *
 * @example
 * const block: AnthropicTextBlock = { type: "text", text: "The chart:" };
 */
export interface AnthropicTextBlock {
  readonly type: "text";
  readonly text: string;
}

/**
 * An Anthropic image block with a base64 source.
 *
 * @example
 * const block: AnthropicImageBlock = { type: "image", source: { type: "base64", media_type: "image/png", data } };
 */
export interface AnthropicImageBlock {
  readonly type: "image";
  readonly source: {
    readonly type: "base64";
    readonly media_type: ToolResultImageType;
    readonly data: string;
  };
}

/**
 * An Anthropic document block: a PDF as base64, or plain text; `title` is the file's name.
 *
 * @example
 * const block: AnthropicDocumentBlock = { type: "document", source: { type: "text", media_type: "text/plain", data: "notes" } };
 */
export interface AnthropicDocumentBlock {
  readonly type: "document";
  readonly source:
    | { readonly type: "base64"; readonly media_type: "application/pdf"; readonly data: string }
    | { readonly type: "text"; readonly media_type: "text/plain"; readonly data: string };
  readonly title?: string;
}

/**
 * A block of an Anthropic `tool_result` with parts.
 *
 * @example
 * const blocks: AnthropicToolResultContent[] = [{ type: "text", text: "The chart:" }];
 */
export type AnthropicToolResultContent =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock;

/**
 * An item of an OpenAI Responses `function_call_output` output list.
 *
 * @example
 * const item: OpenAIResponsesOutputItem = { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=" };
 */
export type OpenAIResponsesOutputItem =
  | { readonly type: "input_text"; readonly text: string }
  | { readonly type: "input_image"; readonly image_url: string }
  | { readonly type: "input_file"; readonly file_data: string; readonly filename: string };

/**
 * A Gemini function response part: inline bytes with their MIME type.
 *
 * @example
 * const part: GeminiFunctionResponseBlob = { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } };
 */
export interface GeminiFunctionResponseBlob {
  readonly inlineData: { readonly mimeType: string; readonly data: string };
}

/**
 * A part of an OpenAI Chat Completions user message that carries tool-result attachments.
 *
 * @example
 * const part: OpenAIChatAttachmentPart = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
 */
export type OpenAIChatAttachmentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image_url"; readonly image_url: { readonly url: string } }
  | {
      readonly type: "file";
      readonly file: { readonly file_data: string; readonly filename: string };
    }
  | {
      readonly type: "input_audio";
      readonly input_audio: { readonly data: string; readonly format: "wav" | "mp3" };
    };

/** Maps each part, in order, leaving out what `make` answers undefined for; frozen. */
function mapParts<T>(
  parts: readonly ToolResultPart[],
  make: (part: ToolResultPart, index: number) => T | undefined,
): T[] {
  const list: T[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const item = make(parts[index] as ToolResultPart, index);
    if (item !== undefined) addData(list, ArrayPrototype, list.length, item);
  }
  return freeze(list) as T[];
}

/** A file's name, or one made from its position and type when the Tool gave none. */
function fileName(part: Extract<ToolResultPart, { type: "file" }>, index: number): string {
  if (part.name !== undefined) return part.name;
  return `part-${index + 1}.${part.mimeType === "application/pdf" ? "pdf" : "txt"}`;
}

/**
 * Anthropic `tool_result` content: text blocks (empty text left out, as
 * Anthropic refuses empty text blocks), `image` blocks with a base64 source,
 * `document` blocks for PDF (base64) and plain text (a text source), and the
 * placeholder line as text for audio, which Anthropic takes nowhere.
 */
export function anthropicContent(parts: readonly ToolResultPart[]): AnthropicToolResultContent[] {
  return mapParts<AnthropicToolResultContent>(parts, (part) => {
    if (part.type === "text") {
      return part.text === "" ? undefined : freeze({ type: "text", text: part.text });
    }
    if (part.type === "image") {
      const source = freeze({
        type: "base64",
        media_type: part.mimeType,
        data: part.data,
      } as const);
      return freeze({ type: "image", source });
    }
    if (part.type === "audio") return freeze({ type: "text", text: partLine(part) });
    const source =
      part.mimeType === "application/pdf"
        ? freeze({ type: "base64", media_type: "application/pdf", data: part.data } as const)
        : freeze({ type: "text", media_type: "text/plain", data: fileText(part) } as const);
    const block = { type: "document" as const, source };
    return freeze(part.name === undefined ? block : { ...block, title: part.name });
  });
}

/**
 * The OpenAI Responses output list: `input_text` (empty text left out),
 * `input_image` with a `data:` URL, `input_file` with a `data:` URL and a
 * file name, and the placeholder line as `input_text` for audio, which a
 * function call output cannot hold.
 */
export function responsesOutput(parts: readonly ToolResultPart[]): OpenAIResponsesOutputItem[] {
  return mapParts<OpenAIResponsesOutputItem>(parts, (part, index) => {
    if (part.type === "text") {
      return part.text === "" ? undefined : freeze({ type: "input_text", text: part.text });
    }
    if (part.type === "image") return freeze({ type: "input_image", image_url: dataUrl(part) });
    if (part.type === "audio") return freeze({ type: "input_text", text: partLine(part) });
    return freeze({
      type: "input_file",
      file_data: dataUrl(part),
      filename: fileName(part, index),
    });
  });
}

/** Whether Gemini takes `mimeType` inside a function response. */
function geminiTakes(mimeType: string): boolean {
  return (
    mimeType === "image/png" ||
    mimeType === "image/jpeg" ||
    mimeType === "image/webp" ||
    mimeType === "application/pdf" ||
    mimeType === "text/plain"
  );
}

/**
 * Gemini function response parts: each image (PNG, JPEG, WebP) and file (PDF,
 * plain text) as inline data. Text parts are not among them (they are in the
 * response's `output`, the result's content), nor GIF images and audio, which
 * Gemini does not take in a function response (their lines are in `output`).
 */
export function geminiParts(parts: readonly ToolResultPart[]): GeminiFunctionResponseBlob[] {
  return mapParts<GeminiFunctionResponseBlob>(parts, (part) => {
    if (part.type === "text" || !geminiTakes(part.mimeType)) return undefined;
    return freeze({ inlineData: freeze({ mimeType: part.mimeType, data: part.data }) });
  });
}

/** The audio formats a Chat Completions user message takes. */
function chatAudioFormat(part: BinaryPart): "wav" | "mp3" | undefined {
  if (part.mimeType === "audio/wav") return "wav";
  return part.mimeType === "audio/mpeg" ? "mp3" : undefined;
}

/**
 * The attachments of one result for a Chat Completions user message: a text
 * part naming the call, then each image as `image_url` (a `data:` URL), each
 * PDF as a `file` part, each plain-text file as a text part holding its text,
 * and WAV and MP3 audio as `input_audio`; what Chat takes nowhere (OGG and
 * FLAC audio) is left out (its line is in the tool message). Empty when the
 * result has nothing to attach.
 */
export function chatAttachments(
  toolCallId: string,
  parts: readonly ToolResultPart[],
): OpenAIChatAttachmentPart[] {
  const media = mapParts<OpenAIChatAttachmentPart>(parts, (part, index) => {
    if (part.type === "text") return undefined;
    if (part.type === "image")
      return freeze({ type: "image_url", image_url: freeze({ url: dataUrl(part) }) });
    if (part.type === "audio") {
      const format = chatAudioFormat(part);
      return format === undefined
        ? undefined
        : freeze({ type: "input_audio", input_audio: freeze({ data: part.data, format }) });
    }
    if (part.mimeType === "text/plain") {
      return freeze({ type: "text", text: `${partLine(part)}\n${fileText(part)}` });
    }
    return freeze({
      type: "file",
      file: freeze({ file_data: dataUrl(part), filename: fileName(part, index) }),
    });
  });
  if (media.length === 0) return media;
  const label = freeze({
    type: "text" as const,
    text: `Attachments of the tool result for call ${nativeStringify(toolCallId)}, in order:`,
  });
  // By index, never through an iterator someone may have replaced.
  const list: OpenAIChatAttachmentPart[] = [label];
  for (let index = 0; index < media.length; index += 1) {
    addData(list, ArrayPrototype, index + 1, media[index]);
  }
  return freeze(list) as OpenAIChatAttachmentPart[];
}
