/**
 * The `./openai-agents` entry: our registry's Tools as OpenAI Agents JS (0.20)
 * function tools, and `repairOpenAIAgentsModel`, a model wrapper that lets our
 * bounded parser answer argument text the SDK's runner cannot parse.
 * Importing this entry loads nothing of the SDK: `toOpenAIAgentsTools` loads
 * `@openai/agents-core` (or `@openai/agents`) on first use.
 */

export type {
  OpenAIAgentsFunctionTool,
  OpenAIAgentsJsonSchema,
  OpenAIAgentsModel,
  OpenAIAgentsModule,
  OpenAIAgentsToolFactory,
  OpenAIAgentsToolOutput,
} from "./openai-agents-module.ts";
export { repairOpenAIAgentsModel } from "./repair-openai-agents-model.ts";
export type { OpenAIAgentsToolsOptions } from "./to-openai-agents-tools.ts";
export {
  OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA,
  toOpenAIAgentsTools,
} from "./to-openai-agents-tools.ts";
