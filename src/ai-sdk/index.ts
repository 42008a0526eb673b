/**
 * The `./ai-sdk` entry: a bridge between toolbound and the Vercel AI SDK
 * (`ai` 7.x), both ways. `toAiSdkTools` hands our registry's Tools to
 * `generateText` and `streamText`, and `repairAiSdkToolCall` (their
 * `repairToolCall` option) lets our bounded parser answer argument text the
 * SDK cannot parse; `fromAiSdkTool` runs an AI SDK tool behind our boundary.
 * Importing this entry loads nothing of the SDK: `toAiSdkTools` loads `ai` on
 * first use, and the others read what they get structurally.
 */

export type { AiSdkInputSchema } from "./ai-sdk-input-schema.ts";
export { readAiSdkInputSchema } from "./ai-sdk-input-schema.ts";
export type {
  AiSdkJsonSchema,
  AiSdkLanguageModel,
  AiSdkModule,
  AiSdkTool,
  AiSdkToolSet,
} from "./ai-sdk-module.ts";
export type { AiSdkToolLike } from "./from-ai-sdk-tool.ts";
export { fromAiSdkTool } from "./from-ai-sdk-tool.ts";
export { repairAiSdkModel } from "./repair-ai-sdk-model.ts";
export {
  AI_SDK_REFUSED_TEXT_REASON,
  AiSdkUnknownToolError,
  repairAiSdkToolCall,
} from "./repair-ai-sdk-tool-call.ts";
export type { AiSdkContentPart } from "./to-ai-sdk-tools.ts";
export {
  AI_SDK_EMPTY_OBJECT_SCHEMA,
  AiSdkRunStop,
  AiSdkToolResultError,
  toAiSdkTools,
} from "./to-ai-sdk-tools.ts";
