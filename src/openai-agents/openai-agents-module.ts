/**
 * OpenAI Agents JS (0.20) as the adapter sees it: the one function it calls,
 * `tool()`, loaded on first use by a dynamic `import()` (importing
 * `toolbound/openai-agents` loads nothing of the SDK), and the SDK's own
 * types, imported as types only.
 */

// `@openai/agents-core` is an optional peer, absent from this package's own
// install: where it is missing these types are `any`; the interop suite maps
// them to the real package, so `tsc` checks the adapter against the installed
// version.
// biome-ignore lint/suspicious/noTsIgnore: @ts-expect-error would fail wherever the SDK is installed.
// @ts-ignore
import type * as AgentsCore from "@openai/agents-core";

/**
 * A JSON Schema object as the SDK's `tool()` takes it for `parameters`.
 *
 * @example
 * const parameters = { type: "object", properties: {}, required: [], additionalProperties: false } as OpenAIAgentsJsonSchema;
 */
export type OpenAIAgentsJsonSchema = AgentsCore.JsonObjectSchema<
  Record<string, Record<string, unknown>>
>;

/**
 * One of the SDK's structured tool outputs: text, an image or a file.
 *
 * @example
 * const output: OpenAIAgentsToolOutput = { type: "image", image: { data: pngBase64, mediaType: "image/png" } };
 */
export type OpenAIAgentsToolOutput =
  | AgentsCore.ToolOutputText
  | AgentsCore.ToolOutputImage
  | AgentsCore.ToolOutputFileContent;

/**
 * A function tool made by the SDK's `tool()` with a JSON Schema, whose result
 * is a string, or a list of structured outputs for a result with parts.
 *
 * @example
 * const [echo]: OpenAIAgentsFunctionTool[] = await toOpenAIAgentsTools(registry);
 */
export type OpenAIAgentsFunctionTool = AgentsCore.FunctionTool<
  unknown,
  OpenAIAgentsJsonSchema,
  string | OpenAIAgentsToolOutput[]
>;

/**
 * The SDK's `Model` interface: what an `Agent` asks for each turn.
 *
 * @example
 * const model: OpenAIAgentsModel = repairOpenAIAgentsModel(new OpenAIResponsesModel(client, "gpt-5"), tools);
 */
export type OpenAIAgentsModel = AgentsCore.Model;

/**
 * The SDK's `tool(options)` function.
 *
 * @example
 * const { tool }: { tool: OpenAIAgentsToolFactory } = await loadOpenAIAgents();
 */
export type OpenAIAgentsToolFactory = typeof AgentsCore.tool;

/**
 * What the adapter takes from the SDK.
 *
 * @example
 * const sdk: OpenAIAgentsModule = await loadOpenAIAgents();
 */
export interface OpenAIAgentsModule {
  readonly tool: OpenAIAgentsToolFactory;
}

type Importer = () => Promise<{ readonly tool?: unknown }>;

// The core package first; `@openai/agents` re-exports it, for installs that
// resolve only the package the application named.
const SOURCES: readonly (readonly [string, Importer])[] = [
  // biome-ignore lint/suspicious/noTsIgnore: as above, the SDK may be absent when this is type-checked.
  // @ts-ignore
  ["@openai/agents-core", () => import("@openai/agents-core")],
  // biome-ignore lint/suspicious/noTsIgnore: as above.
  // @ts-ignore
  ["@openai/agents", () => import("@openai/agents")],
];

/**
 * Takes `tool` from the first source that loads; throws an Error naming the
 * missing peer when none does. Exported for tests, which pass their own sources.
 *
 * @example
 * const { tool } = await importOpenAIAgents([["@openai/agents-core", () => import("@openai/agents-core")]]);
 */
export async function importOpenAIAgents(
  sources: readonly (readonly [string, Importer])[],
): Promise<OpenAIAgentsModule> {
  const failures: unknown[] = [];
  for (const [name, load] of sources) {
    let module: { readonly tool?: unknown };
    try {
      module = await load();
    } catch (cause) {
      failures.push(cause);
      continue;
    }
    if (typeof module.tool !== "function") {
      throw new Error(`the installed ${name} has no tool(): toolbound/openai-agents needs 0.20`);
    }
    return { tool: module.tool as OpenAIAgentsToolFactory };
  }
  throw new Error(
    "toolbound/openai-agents needs OpenAI Agents JS: install the optional peer @openai/agents-core (or @openai/agents) 0.20 beside toolbound",
    { cause: new AggregateError(failures, "no source of tool() could be loaded") },
  );
}

let loaded: Promise<OpenAIAgentsModule> | undefined;

/**
 * Loads `tool` from `@openai/agents-core` (or else `@openai/agents`) once;
 * later calls share the first load (a failed load is retried).
 *
 * @example
 * const { tool } = await loadOpenAIAgents();
 */
export function loadOpenAIAgents(): Promise<OpenAIAgentsModule> {
  if (loaded === undefined) {
    loaded = importOpenAIAgents(SOURCES);
    loaded.catch(() => {
      loaded = undefined;
    });
  }
  return loaded;
}
