/**
 * The AI SDK (`ai` 7.x) as the adapter sees it: the one function it calls,
 * `jsonSchema()`, loaded on first use by a dynamic `import()` (importing
 * `toolbound/ai-sdk` loads nothing of the SDK), and the SDK's own types,
 * imported as types only.
 */

// `ai` is an optional peer, absent from this package's own install: where it
// is missing these types are `any`; the interop suite maps them to the real
// package, so `tsc` checks the adapter against the installed version.
// biome-ignore lint/suspicious/noTsIgnore: @ts-expect-error would fail wherever `ai` is installed.
// @ts-ignore
import type { jsonSchema as AiJsonSchema, LanguageModel, Tool, ToolSet } from "ai";

/**
 * The AI SDK's `ToolSet` (`Record<string, Tool>`), as `generateText` and `streamText` take it.
 *
 * @example
 * const tools: AiSdkToolSet = await toAiSdkTools(registry);
 */
export type AiSdkToolSet = ToolSet;

/**
 * The AI SDK's `Tool` type: one entry of a ToolSet.
 *
 * @example
 * const echo: AiSdkTool | undefined = (await toAiSdkTools(registry)).echo;
 */
export type AiSdkTool = Tool;

/**
 * A language model object the AI SDK's loops take (not a model named by a
 * string): `LanguageModel` of `ai` 7.x without its string form.
 *
 * @example
 * const model: AiSdkLanguageModel = repairAiSdkModel(openai("gpt-5"), tools);
 */
export type AiSdkLanguageModel = Exclude<LanguageModel, string>;

/**
 * The AI SDK's `jsonSchema(schema, { validate? })` function.
 *
 * @example
 * const { jsonSchema }: { jsonSchema: AiSdkJsonSchema } = await loadAiSdk();
 */
export type AiSdkJsonSchema = typeof AiJsonSchema;

/**
 * What the adapter takes from the `ai` package.
 *
 * @example
 * const sdk: AiSdkModule = await loadAiSdk();
 */
export interface AiSdkModule {
  readonly jsonSchema: AiSdkJsonSchema;
}

/**
 * Takes `jsonSchema` from what `load` imports; throws an Error naming the
 * missing peer when it fails. Exported for tests, which pass their own `load`.
 *
 * @example
 * const { jsonSchema } = await importAiSdk(() => import("ai"));
 */
export async function importAiSdk(
  load: () => Promise<{ readonly jsonSchema?: unknown }>,
): Promise<AiSdkModule> {
  let module: { readonly jsonSchema?: unknown };
  try {
    module = await load();
  } catch (cause) {
    throw new Error(
      "toolbound/ai-sdk needs the AI SDK: install the optional peer `ai` (7.x) beside toolbound",
      { cause },
    );
  }
  if (typeof module.jsonSchema !== "function") {
    throw new Error(
      "the installed `ai` package has no jsonSchema(): toolbound/ai-sdk needs ai 7.x",
    );
  }
  return { jsonSchema: module.jsonSchema as AiSdkJsonSchema };
}

// biome-ignore lint/suspicious/noTsIgnore: as above, `ai` may be absent when this is type-checked.
// @ts-ignore
const importAi = (): Promise<{ readonly jsonSchema?: unknown }> => import("ai");

let loaded: Promise<AiSdkModule> | undefined;

/**
 * Loads `jsonSchema` from the `ai` package once; later calls share the first
 * load (a failed load is retried). Rejects with an Error naming the missing
 * peer when `ai` is not installed.
 *
 * @example
 * const { jsonSchema } = await loadAiSdk();
 */
export function loadAiSdk(): Promise<AiSdkModule> {
  if (loaded === undefined) {
    loaded = importAiSdk(importAi);
    loaded.catch(() => {
      loaded = undefined;
    });
  }
  return loaded;
}
