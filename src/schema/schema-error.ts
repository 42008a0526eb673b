/**
 * SchemaToolError: the one error class of the schema adapter. Its codes are
 * closed and documented, and each names who has to fix what.
 */

import { freeze, hasOwn, jsonStringify, stringSlice } from "./schema-intrinsics.ts";

/**
 * Codes of {@link SchemaToolError}, with who causes each:
 * - `INVALID_SCHEMA` (the Tool author): `schemaTool` got something that is not a
 *   Standard Schema v1 (a raw TypeBox schema must go through `fromTypeBox`), or
 *   `fromTypeBox` got a schema TypeBox cannot compile or that is not plain JSON.
 * - `MISSING_JSON_SCHEMA` (the Tool author): the schema has no Standard JSON
 *   Schema interface (valibot) and no `parameters` option was given.
 * - `JSON_SCHEMA_FAILED` (the Tool author): the schema library could not write
 *   JSON Schema for the schema (zod's `z.date()`, say), or the JSON Schema it
 *   wrote, or the explicit `parameters`, is not a plain JSON object.
 * - `INVALID_PROVIDER_REQUEST` (the integrator): `toProviderTools` got something
 *   that is not a ToolRegistry, an unknown format, or invalid options.
 * - `INVALID_TOOL_NAME` (the Tool author or integrator): a Tool's name breaks the
 *   chosen provider's name rule.
 * - `UNSUPPORTED_SCHEMA_CONSTRUCT` (the Tool author): a Tool's JSON Schema uses
 *   something the provider format cannot express (a root that is not an object;
 *   for Gemini `$ref`, `oneOf`, map-like objects and the like).
 * - `STRICT_MODE_UNSUPPORTED` (the Tool author or integrator): OpenAI strict mode
 *   was asked for and the schema cannot be rewritten to the strict subset.
 */
export type SchemaToolErrorCode =
  | "INVALID_SCHEMA"
  | "MISSING_JSON_SCHEMA"
  | "JSON_SCHEMA_FAILED"
  | "INVALID_PROVIDER_REQUEST"
  | "INVALID_TOOL_NAME"
  | "UNSUPPORTED_SCHEMA_CONSTRUCT"
  | "STRICT_MODE_UNSUPPORTED";

/** Options of a {@link SchemaToolError}: the underlying failure and the Tool concerned. */
export interface SchemaToolErrorOptions {
  readonly cause?: unknown;
  readonly toolName?: string;
}

/**
 * Thrown by `schemaTool`, `fromTypeBox` and `toProviderTools` at definition or
 * export time (never while a Tool call runs). The instance is frozen.
 *
 * @example
 * try {
 *   toProviderTools(registry, "openai-chat");
 * } catch (error) {
 *   if (error instanceof SchemaToolError && error.code === "INVALID_TOOL_NAME") console.error(error.toolName);
 * }
 */
export class SchemaToolError extends Error {
  override readonly name = "SchemaToolError";
  /** Which rule failed; see {@link SchemaToolErrorCode}. */
  readonly code: SchemaToolErrorCode;
  /** The Tool concerned, when there is one. */
  readonly toolName: string | undefined;

  constructor(code: SchemaToolErrorCode, message: string, options: SchemaToolErrorOptions = {}) {
    // Own options and the captured freeze: these errors are made after Tools ran (a refusal
    // of the provider tool list), and a `cause` or `toolName` planted on Object.prototype
    // would otherwise be read from options that lack their own.
    const cause = hasOwn(options, "cause") ? options.cause : undefined;
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.toolName = hasOwn(options, "toolName") ? options.toolName : undefined;
    freeze(this);
  }
}

const MAX_NAME_CHARACTERS = 80;

/**
 * Names a Tool in a message: `Tool "name"`, the name JSON-quoted and cut at 80
 * characters, so a hostile name cannot flood or forge a message.
 *
 * @example
 * describeTool("read_file"); // 'Tool "read_file"'
 */
export function describeTool(name: unknown): string {
  if (typeof name !== "string") return "Tool";
  // Captured `slice` and `stringify`: a refusal names its Tool after Tools ran.
  const short =
    name.length > MAX_NAME_CHARACTERS ? `${stringSlice(name, 0, MAX_NAME_CHARACTERS)}…` : name;
  return `Tool ${jsonStringify(short)}`;
}
