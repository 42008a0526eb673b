/**
 * `toolbound/providers`: the provider round trip for OpenAI (Chat Completions
 * and Responses), Anthropic and Gemini. `toProviderTools` sends the Tool list,
 * `readToolCalls` turns the model's response into calls (argument text
 * bounded before it is parsed), `executeToolCalls` runs them, and
 * `toToolResultMessages` writes the results in the provider's next-request
 * shape. Loads no SDK: the shapes are read as data.
 */

export { toProviderTools } from "../schema/provider-tools.ts";
export type { ArgumentLimitOptions, ToolArgumentsParse } from "./argument-limits.ts";
export { parseToolArguments } from "./argument-limits.ts";
export {
  PROVIDER_ARGUMENTS_MAX_CHARACTERS,
  PROVIDER_ARGUMENTS_MAX_DEPTH,
} from "./argument-parser.ts";
export type {
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicToolResultContent,
  GeminiFunctionResponseBlob,
  OpenAIChatAttachmentPart,
  OpenAIResponsesOutputItem,
} from "./part-items.ts";
export type { ReadToolCallsOptions } from "./read-tool-calls.ts";
export { PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS, readToolCalls } from "./read-tool-calls.ts";
export type { RoundTripFormat } from "./round-trip-formats.ts";
export type {
  AnthropicToolResultBlock,
  AnthropicToolResultMessage,
  GeminiFunctionResponseBody,
  GeminiFunctionResponsePart,
  GeminiToolResultContent,
  OpenAIChatAttachmentMessage,
  OpenAIChatToolMessage,
  OpenAIResponsesFunctionCallOutput,
  ToolResultMessageShapes,
} from "./tool-result-messages.ts";
export { toToolResultMessages } from "./tool-result-messages.ts";
