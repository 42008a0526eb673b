/**
 * `toToolResultMessages`: the boundary's result messages in, the provider's
 * own next-request items out, so that the model reads exactly the bounded
 * content the boundary wrote, linked to its call, with the error flag the
 * provider understands.
 */

import type { CourseToolResultMessage, ToolResultPart } from "../../course/src/index.ts";
import {
  ArrayPrototype,
  freeze,
  getOwnPropertyDescriptor,
  hasOwn,
  isArray,
  isFrozen,
  isNonBlankString,
  isProxy,
  mapGet,
  mapSet,
  NativeMap,
  NativeTypeError,
  stringCharCodeAt,
  stringSlice,
} from "../../course/src/internal.ts";
import { describeFound } from "./describe-found.ts";
import { isInventedId } from "./invented-ids.ts";
import { addData } from "./own-data.ts";
import {
  type AnthropicToolResultContent,
  anthropicContent,
  chatAttachments,
  type GeminiFunctionResponseBlob,
  geminiParts,
  type OpenAIChatAttachmentPart,
  type OpenAIResponsesOutputItem,
  responsesOutput,
} from "./part-items.ts";
import { readResultParts } from "./result-parts.ts";
import { assertRoundTripFormat, type RoundTripFormat } from "./round-trip-formats.ts";

/** An OpenAI Chat Completions tool message (`messages` of the next request). */
export interface OpenAIChatToolMessage {
  readonly role: "tool";
  readonly tool_call_id: string;
  readonly content: string;
}

/**
 * The user message that carries a round's images, PDFs, plain-text files and
 * audio after its tool messages: Chat Completions takes them in user
 * messages only. `content` is frozen; typed as a mutable array for the SDK.
 */
export interface OpenAIChatAttachmentMessage {
  readonly role: "user";
  readonly content: OpenAIChatAttachmentPart[];
}

/**
 * An OpenAI Responses API `function_call_output` item (`input` of the next
 * request): `output` is the content, or, for a result with parts, the output
 * list (frozen; typed as a mutable array for the SDK).
 */
export interface OpenAIResponsesFunctionCallOutput {
  readonly type: "function_call_output";
  readonly call_id: string;
  readonly output: string | OpenAIResponsesOutputItem[];
}

/**
 * An Anthropic `tool_result` content block: `content` is the result's content,
 * or, for a result with parts, its blocks (frozen; typed as a mutable array
 * for the SDK).
 */
export interface AnthropicToolResultBlock {
  readonly type: "tool_result";
  readonly tool_use_id: string;
  readonly content: string | AnthropicToolResultContent[];
  readonly is_error: boolean;
}

/**
 * An Anthropic user message holding one `tool_result` block per result
 * (`messages` of the next request). `content` is frozen; it is typed as a
 * mutable array only because the SDK's parameter types do not take readonly
 * arrays.
 */
export interface AnthropicToolResultMessage {
  readonly role: "user";
  readonly content: AnthropicToolResultBlock[];
}

/**
 * What Gemini reads as a function's answer: `{ output }` for a success and
 * `{ error }` for an error result, as Gemini's `FunctionResponse.response`
 * documents, each holding the result's content unchanged.
 */
export type GeminiFunctionResponseBody = { readonly output: string } | { readonly error: string };

/**
 * A Gemini `functionResponse` part; `id` only when Gemini issued the call's
 * id, `parts` only for a result with images or files Gemini takes.
 */
export type GeminiFunctionResponsePart = {
  readonly functionResponse: {
    readonly id?: string;
    readonly name: string;
    readonly response: GeminiFunctionResponseBody;
    readonly parts?: GeminiFunctionResponseBlob[];
  };
};

/**
 * A Gemini user content holding one `functionResponse` part per result
 * (`contents` of the next request). `parts` is frozen; it is typed as a
 * mutable array only because the SDK's parameter types do not take readonly
 * arrays.
 */
export interface GeminiToolResultContent {
  readonly role: "user";
  readonly parts: GeminiFunctionResponsePart[];
}

/**
 * The item each format's next request gets from {@link toToolResultMessages}.
 *
 * @example
 * const items: readonly ToolResultMessageShapes["anthropic"][] = toToolResultMessages("anthropic", results);
 */
export interface ToolResultMessageShapes {
  readonly "openai-chat": OpenAIChatToolMessage | OpenAIChatAttachmentMessage;
  readonly "openai-responses": OpenAIResponsesFunctionCallOutput;
  readonly anthropic: AnthropicToolResultMessage;
  readonly gemini: GeminiToolResultContent;
}

/** The fields of one result message, checked. */
interface CheckedResult {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: string;
  readonly isError: boolean;
  readonly parts: readonly ToolResultPart[] | undefined;
}

const EXPECTED =
  "a frozen result message (from executeToolCall, executeToolCalls or toolResultMessage)";

class ResultReader {
  constructor(readonly format: RoundTripFormat) {}

  refuse(what: string): never {
    throw new NativeTypeError(`toToolResultMessages("${this.format}"): ${what}`);
  }

  /** An own data field; an accessor or an absent field is refused without running anything. */
  data(target: object, key: string, at: string): unknown {
    const descriptor = getOwnPropertyDescriptor(target, key);
    if (descriptor === undefined || !hasOwn(descriptor, "value")) {
      this.refuse(`${at}.${key} must be an own data field of ${EXPECTED}`);
    }
    return descriptor.value;
  }

  result(value: unknown, at: string): CheckedResult {
    if (typeof value !== "object" || value === null || isProxy(value) || !isFrozen(value)) {
      const found =
        typeof value === "object" && value !== null && !isProxy(value)
          ? "an object that is not frozen"
          : describeFound(value);
      this.refuse(`${at} must be ${EXPECTED}; found ${found}`);
    }
    const id = this.data(value, "id", at);
    const role = this.data(value, "role", at);
    const toolCallId = this.data(value, "toolCallId", at);
    const toolName = this.data(value, "toolName", at);
    const content = this.data(value, "content", at);
    const isError = this.data(value, "isError", at);
    if (role !== "toolResult") this.refuse(`${at}.role must be "toolResult"`);
    if (!isNonBlankString(toolCallId)) this.refuse(`${at}.toolCallId must be a non-blank string`);
    if (id !== `tool-result-${toolCallId}`) {
      this.refuse(`${at}.id must be "tool-result-" followed by its toolCallId`);
    }
    if (!isNonBlankString(toolName)) this.refuse(`${at}.toolName must be a non-blank string`);
    if (typeof content !== "string") this.refuse(`${at}.content must be a string`);
    if (typeof isError !== "boolean") this.refuse(`${at}.isError must be a boolean`);
    const parts = readResultParts(value, at, isError, (what) => this.refuse(what));
    return { toolCallId, toolName, content, isError, parts };
  }

  /** Every result, read by index; refuses a second answer to one call. */
  results(results: unknown): CheckedResult[] {
    if (typeof results !== "object" || results === null || isProxy(results) || !isArray(results)) {
      this.refuse(`results must be an array of result messages; found ${describeFound(results)}`);
    }
    const length = this.data(results, "length", "results") as number;
    const checked: CheckedResult[] = [];
    const firstIndex = new NativeMap<string, number>();
    for (let index = 0; index < length; index += 1) {
      const at = `results[${index}]`;
      const descriptor = getOwnPropertyDescriptor(results, `${index}`);
      const value =
        descriptor !== undefined && hasOwn(descriptor, "value") ? descriptor.value : undefined;
      const result = this.result(value, at);
      const earlier = mapGet(firstIndex, result.toolCallId);
      if (earlier !== undefined) {
        this.refuse(`results[${earlier}] and ${at} answer the same call id`);
      }
      mapSet(firstIndex, result.toolCallId, index);
      addData(checked, ArrayPrototype, index, result);
    }
    return checked;
  }
}

/**
 * The longest Tool name a Gemini `functionResponse` echoes, in UTF-16 code
 * units: 64, Gemini's own limit for a function name, so a longer name is one
 * the model made up.
 */
export const GEMINI_RESPONSE_NAME_MAX_CHARACTERS = 64;

/** The name a Gemini answer carries: the Tool's name, or its first 64 code units, never half a pair. */
function geminiName(name: string): string {
  if (name.length <= GEMINI_RESPONSE_NAME_MAX_CHARACTERS) return name;
  // A made-up name of a megabyte must not travel back whole in every later request.
  const last = stringCharCodeAt(name, GEMINI_RESPONSE_NAME_MAX_CHARACTERS - 1);
  const end =
    last >= 0xd800 && last <= 0xdbff
      ? GEMINI_RESPONSE_NAME_MAX_CHARACTERS - 1
      : GEMINI_RESPONSE_NAME_MAX_CHARACTERS;
  return stringSlice(name, 0, end);
}

/** The id an OpenAI format answers with: the call's, or "" for one readToolCalls made up for a blank id. */
function openAIId(result: CheckedResult): string {
  return isInventedId(result.toolCallId) ? "" : result.toolCallId;
}

function geminiPart(result: CheckedResult): GeminiFunctionResponsePart {
  const response: GeminiFunctionResponseBody = freeze(
    result.isError ? { error: result.content } : { output: result.content },
  );
  const name = geminiName(result.toolName);
  // An id readToolCalls made up is not Gemini's: Gemini pairs such answers with calls by order.
  const blobs = result.parts === undefined ? [] : geminiParts(result.parts);
  const withParts = blobs.length === 0 ? {} : { parts: blobs };
  const functionResponse = isInventedId(result.toolCallId)
    ? freeze({ name, response, ...withParts })
    : freeze({ id: result.toolCallId, name, response, ...withParts });
  return freeze({ functionResponse });
}

function frozenList<T>(items: readonly CheckedResult[], make: (result: CheckedResult) => T): T[] {
  const list: T[] = [];
  for (let index = 0; index < items.length; index += 1) {
    addData(list, ArrayPrototype, index, make(items[index] as CheckedResult));
  }
  return freeze(list) as T[];
}

/**
 * Chat Completions: one tool message per result (its content), then, when any
 * result has attachments, one user message holding them all, in call order.
 */
function chatMessages(checked: readonly CheckedResult[]): ToolResultMessageShapes["openai-chat"][] {
  const messages: ToolResultMessageShapes["openai-chat"][] = frozenList(checked, (result) =>
    freeze({ role: "tool" as const, tool_call_id: openAIId(result), content: result.content }),
  );
  const attachments: OpenAIChatAttachmentPart[] = [];
  for (let index = 0; index < checked.length; index += 1) {
    const result = checked[index] as CheckedResult;
    if (result.parts === undefined) continue;
    const parts = chatAttachments(result.toolCallId, result.parts);
    for (let at = 0; at < parts.length; at += 1) {
      addData(attachments, ArrayPrototype, attachments.length, parts[at]);
    }
  }
  if (attachments.length === 0) return messages;
  const user = freeze({
    role: "user" as const,
    content: freeze(attachments) as OpenAIChatAttachmentPart[],
  });
  const all: ToolResultMessageShapes["openai-chat"][] = [];
  for (let index = 0; index < messages.length; index += 1) {
    addData(all, ArrayPrototype, index, messages[index]);
  }
  addData(all, ArrayPrototype, messages.length, user);
  return freeze(all) as ToolResultMessageShapes["openai-chat"][];
}

/**
 * Writes the boundary's result messages as the items the provider's next
 * request takes, in the order given, content unchanged, and answers them as a
 * frozen array of frozen items; spread it after the assistant turn:
 * - `openai-chat`: one `{ role: "tool", tool_call_id, content }` per result;
 * - `openai-responses`: one `{ type: "function_call_output", call_id, output }` per result;
 *   for a call whose id the server left blank (`readToolCalls` made one up),
 *   the id is written blank again (`""`);
 * - `anthropic`: one user message, `{ role: "user", content: [...] }`, with a
 *   `{ type: "tool_result", tool_use_id, content, is_error }` block per result;
 * - `gemini`: one user content, `{ role: "user", parts: [...] }`, with a
 *   `{ functionResponse: { id, name, response } }` part per result, where
 *   `response` is `{ output: content }`, or `{ error: content }` for an error
 *   result. `id` is left out for an id `readToolCalls` made up
 *   (`gemini-call-<index>-<token>`), which Gemini never issued; an id Gemini
 *   sent goes back whatever it looks like. `name` is the Tool name, cut to
 *   its first 64 UTF-16 code units (never half a surrogate pair): Gemini's
 *   own limit, so only a name the model made up is ever cut.
 * The other formats carry no name, only the call's id.
 * No results answer an empty array, for every format.
 *
 * A result with `parts` (from `toolContent`) carries them natively:
 * - `anthropic`: the block's `content` is a list of `text`, `image` (base64
 *   source) and `document` blocks (a PDF as base64, plain text as a text
 *   source, `title` the file's name); audio stays its line, as text;
 * - `openai-responses`: `output` is a list of `input_text`, `input_image` and
 *   `input_file` items (`data:` URLs); audio stays its line, as `input_text`;
 * - `gemini`: `functionResponse.parts` holds PNG, JPEG and WebP images, PDFs
 *   and plain-text files as `inlineData`; `response.output` is the content,
 *   whose lines name every part (GIF and audio are not attached);
 * - `openai-chat`: tool messages take text only, so each keeps its content,
 *   and one user message after the round's tool messages carries every
 *   result's images (`image_url`), PDFs (`file`), plain-text files (as text)
 *   and WAV or MP3 audio (`input_audio`), each result's after a text part
 *   naming its call.
 *
 * Throws a TypeError, naming what was wrong, for an unknown format and for
 * anything but an array of frozen result messages as the boundary writes them
 * (own data fields, `role: "toolResult"`, `id` of `tool-result-<toolCallId>`,
 * string `content`, boolean `isError`, `parts` as `toolContent` results carry
 * them and never on an error result), or two results for one call id.
 *
 * @example
 * const results = await executeToolCalls(registry, readToolCalls("anthropic", message), signal);
 * messages.push({ role: "assistant", content: message.content }, ...toToolResultMessages("anthropic", results));
 */
export function toToolResultMessages<Format extends RoundTripFormat>(
  format: Format,
  results: readonly CourseToolResultMessage[],
): readonly ToolResultMessageShapes[Format][] {
  assertRoundTripFormat(format, "toToolResultMessages");
  const reader = new ResultReader(format);
  const checked = reader.results(results);
  let items: readonly ToolResultMessageShapes[RoundTripFormat][];
  switch (format as RoundTripFormat) {
    case "openai-chat":
      items = chatMessages(checked);
      break;
    case "openai-responses":
      items = frozenList(checked, (result) =>
        freeze({
          type: "function_call_output" as const,
          call_id: openAIId(result),
          output: result.parts === undefined ? result.content : responsesOutput(result.parts),
        }),
      );
      break;
    case "anthropic": {
      const blocks = frozenList(checked, (result) =>
        freeze({
          type: "tool_result" as const,
          tool_use_id: result.toolCallId,
          content: result.parts === undefined ? result.content : anthropicContent(result.parts),
          is_error: result.isError,
        }),
      );
      items =
        blocks.length === 0
          ? freeze([])
          : freeze([freeze({ role: "user" as const, content: blocks })]);
      break;
    }
    case "gemini": {
      const parts = frozenList(checked, geminiPart);
      items = parts.length === 0 ? freeze([]) : freeze([freeze({ role: "user" as const, parts })]);
      break;
    }
  }
  return items as readonly ToolResultMessageShapes[Format][];
}
