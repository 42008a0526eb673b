/**
 * The `./openai-agents` entry: our registry's Tools as OpenAI Agents JS (0.20)
 * function tools. Importing this entry loads nothing of the SDK:
 * `toOpenAIAgentsTools` loads `@openai/agents-core` (or `@openai/agents`) on
 * first use.
 */

export type {
  OpenAIAgentsFunctionTool,
  OpenAIAgentsJsonSchema,
  OpenAIAgentsModule,
  OpenAIAgentsToolFactory,
} from "./openai-agents-module.ts";
export type { OpenAIAgentsToolsOptions } from "./to-openai-agents-tools.ts";
export {
  OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA,
  toOpenAIAgentsTools,
} from "./to-openai-agents-tools.ts";
