/**
 * Tool-name rules of each provider format, checked before a Tool list is
 * exported so that a bad name fails here, with the Tool and the rule named,
 * rather than as an opaque provider error mid-conversation.
 */

import { deepFreeze } from "./json-schema.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";

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

const compiled = new Map<string, RegExp>();

function matcher(pattern: string): RegExp {
  let regExp = compiled.get(pattern);
  if (regExp === undefined) {
    regExp = new RegExp(pattern);
    compiled.set(pattern, regExp);
  }
  return regExp;
}

const FORMATS = Object.keys(PROVIDER_NAME_RULES).join(", ");

/** A bad argument in a message: a string JSON-quoted and cut, anything else by its type. */
function describeArgument(value: unknown): string {
  if (typeof value === "string") {
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
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
  if (typeof format !== "string" || !Object.hasOwn(PROVIDER_NAME_RULES, format)) {
    throw new SchemaToolError(
      "INVALID_PROVIDER_REQUEST",
      `assertToolName format must be one of ${FORMATS}; found ${describeArgument(format)}`,
    );
  }
  const rule = PROVIDER_NAME_RULES[format];
  if (typeof name !== "string") {
    throw new SchemaToolError(
      "INVALID_TOOL_NAME",
      `Tool name must be a string to meet the ${rule.provider} rule; found ${describeArgument(name)}`,
    );
  }
  if (matcher(rule.pattern).test(name)) return;
  throw new SchemaToolError(
    "INVALID_TOOL_NAME",
    `${describeTool(name)}: name breaks the ${rule.provider} rule ${rule.pattern} (${rule.rule})`,
    { toolName: name },
  );
}
