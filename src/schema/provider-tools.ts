/**
 * toProviderTools: the registry's Tools in a model provider's own request
 * shape, in registry order, deep-frozen, with each provider's name rule
 * checked and each Tool's JSON Schema converted where the provider needs it.
 */

import type { CourseJsonObject, ToolRegistry } from "../../course/src/index.ts";
import { addSlot, isToolRegistry, lookupTool, registryNames } from "../../course/src/internal.ts";
import { toGeminiSchema } from "./gemini-schema.ts";
import { deepFreeze, ownField } from "./json-schema.ts";
import { toOpenAIStrictSchema } from "./openai-strict.ts";
import {
  assertToolName,
  PROVIDER_FORMAT_LIST,
  PROVIDER_NAME_RULES,
  type ProviderFormat,
} from "./provider-names.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";
import { hasOwn, MISSING, ownDataValue, readOwnValue } from "./schema-intrinsics.ts";

/** An OpenAI Chat Completions tool: `tools: [...]` of a chat request. */
export interface OpenAIChatTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: CourseJsonObject;
    readonly strict?: true;
  };
}

/** An OpenAI Responses API function tool; `strict` is always written (the API defaults it to true). */
export interface OpenAIResponsesTool {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: CourseJsonObject;
  readonly strict: boolean;
}

/**
 * An Anthropic Messages API tool. The schema's root is always `type: "object"`
 * (checked when the list is written), which the SDK's `Tool` type requires.
 */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: CourseJsonObject & { readonly type: "object" };
}

/** A Gemini function declaration (wrap the list as `tools: [{ functionDeclarations }]`). */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description: string;
  readonly parameters?: CourseJsonObject;
}

/** An MCP tool as `tools/list` returns it. */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: CourseJsonObject;
}

/** The Tool shape each format writes. */
export interface ProviderToolShapes {
  readonly "openai-chat": OpenAIChatTool;
  readonly "openai-responses": OpenAIResponsesTool;
  readonly anthropic: AnthropicTool;
  readonly gemini: GeminiFunctionDeclaration;
  readonly mcp: McpTool;
}

/**
 * Options of {@link toProviderTools}.
 * - `strict` (OpenAI formats only): rewrite each schema to OpenAI's strict
 *   subset and mark the Tool strict; see `toOpenAIStrictSchema`. Default `false`.
 */
export interface ProviderToolsOptions {
  readonly strict?: boolean;
}

/** The schema of a Tool that declares no parameters. */
const EMPTY_OBJECT: CourseJsonObject = deepFreeze({ type: "object", properties: {} });

function request(message: string): SchemaToolError {
  return new SchemaToolError("INVALID_PROVIDER_REQUEST", message);
}

function readStrict(format: ProviderFormat, options: unknown): boolean {
  if (options === undefined) return false;
  if (typeof options !== "object" || options === null) {
    throw request("toProviderTools options must be an object");
  }
  // An own field only, read once: a `strict` a Tool planted on Object.prototype would turn
  // strict mode on (or make the call throw) for a host that passed `{}`.
  const strict = readOwnValue(options, "strict");
  if (strict === MISSING || strict === undefined || strict === false) return false;
  if (strict !== true) throw request("toProviderTools option strict must be a boolean");
  if (format !== "openai-chat" && format !== "openai-responses") {
    throw request(`toProviderTools option strict applies to the OpenAI formats, not ${format}`);
  }
  return true;
}

function toolShape(
  format: ProviderFormat,
  name: string,
  description: string,
  schema: CourseJsonObject,
  strict: boolean,
): ProviderToolShapes[ProviderFormat] {
  switch (format) {
    case "openai-chat": {
      const parameters = strict ? toOpenAIStrictSchema(schema, name) : schema;
      return {
        type: "function",
        function: strict
          ? { name, description, parameters, strict: true }
          : { name, description, parameters },
      };
    }
    case "openai-responses": {
      const parameters = strict ? toOpenAIStrictSchema(schema, name) : schema;
      return { type: "function", name, description, parameters, strict };
    }
    case "anthropic":
      // toProviderTools refused every root that is not type "object" before this point.
      return {
        name,
        description,
        input_schema: schema as CourseJsonObject & { readonly type: "object" },
      };
    case "gemini": {
      const parameters = toGeminiSchema(schema, name);
      return parameters === undefined ? { name, description } : { name, description, parameters };
    }
    case "mcp":
      return { name, description, inputSchema: schema };
  }
}

/**
 * Writes the registry's Tools, in registry order, as the chosen provider's
 * request shape: `openai-chat` `{ type: "function", function: { name,
 * description, parameters, strict? } }`, `openai-responses` `{ type:
 * "function", name, description, parameters, strict }`, `anthropic` `{ name,
 * description, input_schema }`, `gemini` `{ name, description, parameters? }`
 * (converted to Gemini's OpenAPI subset, see `toGeminiSchema`) and `mcp`
 * `{ name, description, inputSchema }`. A Tool without `parameters` gets the
 * empty-object schema. The result is deep-frozen. Throws SchemaToolError:
 * INVALID_PROVIDER_REQUEST (not a ToolRegistry, unknown format, bad options),
 * INVALID_TOOL_NAME (a name breaks the provider's rule),
 * UNSUPPORTED_SCHEMA_CONSTRUCT (a root that is not `type: "object"`, or what
 * Gemini cannot express) or STRICT_MODE_UNSUPPORTED.
 *
 * @example
 * const tools = toProviderTools(registry, "openai-responses", { strict: true });
 * await openai.responses.create({ model, input, tools });
 */
export function toProviderTools<Format extends ProviderFormat>(
  registry: ToolRegistry,
  format: Format,
  options?: ProviderToolsOptions,
): readonly ProviderToolShapes[Format][] {
  // The private brand, not `instanceof`: an object made from ToolRegistry.prototype has no
  // Tools, and a Tool may have given ToolRegistry a `Symbol.hasInstance` of its own.
  if (!isToolRegistry(registry)) throw request("toProviderTools needs a ToolRegistry");
  if (typeof format !== "string" || !hasOwn(PROVIDER_NAME_RULES, format)) {
    throw request(`toProviderTools format must be one of ${PROVIDER_FORMAT_LIST}`);
  }
  const strict = readStrict(format, options);
  // Through the private map, by index, into slots defined here: a host sends this list on
  // every turn, after Tools ran, and a Tool that replaced the registry's `names` or `get`, the
  // array iterator or `push` would decide what the model is told. The conversions below and
  // the freeze use captured built-ins for the same reason (see schema-intrinsics.ts).
  const names = registryNames(registry);
  const tools: ProviderToolShapes[Format][] = [];
  for (let index = 0; index < names.length; index += 1) {
    const tool = lookupTool(registry, names[index] as string);
    if (tool === undefined) continue;
    assertToolName(tool.name, format);
    // Own fields only: a `parameters` or `type` a Tool planted on Object.prototype would give
    // a Tool without parameters its schema, or pass a root without `type: "object"`.
    const parameters = ownDataValue(tool, "parameters") as CourseJsonObject | undefined;
    const schema = parameters ?? EMPTY_OBJECT;
    if (ownField(schema, "type") !== "object") {
      throw new SchemaToolError(
        "UNSUPPORTED_SCHEMA_CONSTRUCT",
        `${describeTool(tool.name)}: parameters must have type "object" at the root (arguments are always a JSON object)`,
        { toolName: tool.name },
      );
    }
    const shape = toolShape(format, tool.name, tool.description, schema, strict);
    addSlot(tools, tools.length, shape as ProviderToolShapes[Format]);
  }
  return deepFreeze(tools);
}
