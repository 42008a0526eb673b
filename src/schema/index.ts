/**
 * `toolbound/schema`: Tools defined from schemas (zod, valibot, arktype, or
 * TypeBox through `toolbound/schema/typebox`), validation messages a model can
 * act on, and the registry's Tools in each model provider's request shape.
 * Imports no schema library: they are optional peers.
 */

export { toGeminiSchema } from "./gemini-schema.ts";
export type { SchemaIssue } from "./issues.ts";
export {
  formatIssuePath,
  formatIssues,
  SCHEMA_MAX_ISSUE_CHARACTERS,
  SCHEMA_MAX_REPORTED_ISSUES,
} from "./issues.ts";
export { dropNullOptionals, dropsStrictNulls } from "./null-optionals.ts";
export { toOpenAIStrictSchema } from "./openai-strict.ts";
export type { ProviderFormat, ProviderNameRule } from "./provider-names.ts";
export { assertToolName, PROVIDER_NAME_RULES } from "./provider-names.ts";
export type {
  AnthropicTool,
  GeminiFunctionDeclaration,
  McpTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
  ProviderToolShapes,
  ProviderToolsOptions,
} from "./provider-tools.ts";
export { toProviderTools } from "./provider-tools.ts";
export type { SchemaToolErrorCode, SchemaToolErrorOptions } from "./schema-error.ts";
export { SchemaToolError } from "./schema-error.ts";
export type { SchemaToolOptions } from "./schema-tool.ts";
export { schemaTool } from "./schema-tool.ts";
export type {
  InferSchemaOutput,
  StandardJSONSchemaV1Converter,
  StandardJSONSchemaV1Options,
  StandardSchemaV1,
  StandardSchemaV1Failure,
  StandardSchemaV1Issue,
  StandardSchemaV1PathSegment,
  StandardSchemaV1Props,
  StandardSchemaV1Result,
  StandardSchemaV1Success,
  StandardSchemaV1Types,
} from "./standard-schema.ts";
