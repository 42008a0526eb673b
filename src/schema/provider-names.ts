/**
 * Tool-name rules of each provider format, checked before a Tool list is
 * exported so that a bad name fails here, with the Tool and the rule named,
 * rather than as an opaque provider error mid-conversation.
 */

import { deepFreeze } from "./json-schema.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";
import {
  hasOwn,
  jsonStringify,
  mapGet,
  objectKeys,
  regExpTest,
  sealedRegExp,
  stringSlice,
} from "./schema-intrinsics.ts";

/** The request shapes `toProviderTools` writes. */
export type ProviderFormat = "openai-chat" | "openai-responses" | "anthropic" | "gemini" | "mcp";

/** A provider's name rule: the pattern a name must match, and the rule in words. */
export interface ProviderNameRule {
  readonly provider: string;
  readonly pattern: string;
  readonly rule: string;
}

const OPENAI: ProviderNameRule = {
  provider: "OpenAI",
  pattern: "^[a-zA-Z0-9_-]{1,64}$",
  rule: "1 to 64 characters, each a letter, digit, underscore or hyphen",
};

/**
 * The name rule of each format: OpenAI `^[a-zA-Z0-9_-]{1,64}$`, Anthropic
 * `^[a-zA-Z0-9_-]{1,128}$`, Gemini (a letter or underscore first, then letters,
 * digits, `_ . : -`, 64 at most) and MCP (SEP-986: 1 to 128 of `A-Za-z0-9_-.`).
 *
 * @example
 * PROVIDER_NAME_RULES.anthropic.pattern; // "^[a-zA-Z0-9_-]{1,128}$"
 */
export const PROVIDER_NAME_RULES: Readonly<Record<ProviderFormat, ProviderNameRule>> = deepFreeze({
  "openai-chat": OPENAI,
  "openai-responses": OPENAI,
  anthropic: {
    provider: "Anthropic",
    pattern: "^[a-zA-Z0-9_-]{1,128}$",
    rule: "1 to 128 characters, each a letter, digit, underscore or hyphen",
  },
  gemini: {
    provider: "Gemini",
    pattern: "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
    rule: "1 to 64 characters, starting with a letter or underscore, then letters, digits, underscores, dots, colons or hyphens",
  },
  mcp: {
    provider: "MCP",
    pattern: "^[A-Za-z0-9_.-]{1,128}$",
    rule: "1 to 128 characters, each a letter, digit, underscore, hyphen or dot (SEP-986)",
  },
});

/**
 * Each format's pattern, compiled and sealed at load: names are checked on every turn, after
 * Tools ran, and a Tool could replace the `RegExp` constructor, `Map.prototype.get` or the
 * `exec` that `test` calls, and so pass any name.
 */
const MATCHERS = new Map<string, RegExp>();
const FORMAT_NAMES = objectKeys(PROVIDER_NAME_RULES) as ProviderFormat[];
for (let index = 0; index < FORMAT_NAMES.length; index += 1) {
  const format = FORMAT_NAMES[index] as ProviderFormat;
  MATCHERS.set(format, sealedRegExp(new RegExp(PROVIDER_NAME_RULES[format].pattern)));
}

/** The formats, for messages (written once at load): "openai-chat, openai-responses, …". */
export const PROVIDER_FORMAT_LIST = FORMAT_NAMES.join(", ");

/** A bad argument in a message: a string JSON-quoted and cut, anything else by its type. */
function describeArgument(value: unknown): string {
  if (typeof value === "string") {
    return jsonStringify(value.length > 80 ? `${stringSlice(value, 0, 80)}…` : value);
  }
  return value === null ? "null" : typeof value;
}

/**
 * Throws SchemaToolError INVALID_TOOL_NAME, naming the Tool and the rule, when
 * `name` breaks the name rule of `format`, or is not a string (a RegExp test
 * would turn `undefined` into the valid name "undefined"). Throws
 * INVALID_PROVIDER_REQUEST, naming the formats, for an unknown `format`, as
 * `toProviderTools` does: only own keys count, since an inherited one
 * (`"constructor"`) has no pattern and would accept every name.
 *
 * @example
 * assertToolName("read file", "openai-chat");
 * // throws: Tool "read file": name breaks the OpenAI rule ^[a-zA-Z0-9_-]{1,64}$ (1 to 64 characters, …)
 */
export function assertToolName(name: string, format: ProviderFormat): void {
  if (typeof format !== "string" || !hasOwn(PROVIDER_NAME_RULES, format)) {
    throw new SchemaToolError(
      "INVALID_PROVIDER_REQUEST",
      `assertToolName format must be one of ${PROVIDER_FORMAT_LIST}; found ${describeArgument(format)}`,
    );
  }
  const rule = PROVIDER_NAME_RULES[format];
  if (typeof name !== "string") {
    throw new SchemaToolError(
      "INVALID_TOOL_NAME",
      `Tool name must be a string to meet the ${rule.provider} rule; found ${describeArgument(name)}`,
    );
  }
  if (regExpTest(mapGet(MATCHERS, format) as RegExp, name)) return;
  throw new SchemaToolError(
    "INVALID_TOOL_NAME",
    `${describeTool(name)}: name breaks the ${rule.provider} rule ${rule.pattern} (${rule.rule})`,
    { toolName: name },
  );
}
