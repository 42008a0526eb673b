/**
 * `toolbound list <tools-module> [--format <format>]`: the Tool definitions,
 * as toolbound holds them or in a model provider's request shape.
 */

import type { ToolRegistry } from "../../course/src/index.ts";
import {
  PROVIDER_NAME_RULES,
  type ProviderFormat,
  SchemaToolError,
  toProviderTools,
} from "../schema/index.ts";
import { CliError, oneLine } from "./cli-error.ts";

/** The formats `--format` accepts: every format `toProviderTools` writes. */
export const LIST_FORMATS: readonly ProviderFormat[] = Object.freeze(
  Object.keys(PROVIDER_NAME_RULES) as ProviderFormat[],
);

/** The empty-object schema shown for a Tool without `parameters` (what providers receive). */
const NO_PARAMETERS = { type: "object", properties: {} };

/**
 * The text `toolbound list` prints: pretty JSON of the registry's Tools in
 * order. Without a format each Tool is `{ name, description, parameters }`;
 * with one, it is `toProviderTools(registry, format)`. Throws CliError with
 * the SchemaToolError's message when a Tool cannot be written in that format.
 *
 * @example
 * listTools(registry, "anthropic");
 * // '[\n  {\n    "name": "add",\n    "description": …,\n    "input_schema": { … }\n  }, …]'
 */
export function listTools(registry: ToolRegistry, format?: ProviderFormat): string {
  if (format === undefined) {
    const tools = registry.names.map((name) => {
      const tool = registry.get(name);
      return {
        name,
        description: tool?.description,
        parameters: tool?.parameters ?? NO_PARAMETERS,
      };
    });
    return JSON.stringify(tools, null, 2);
  }
  try {
    return JSON.stringify(toProviderTools(registry, format), null, 2);
  } catch (thrown) {
    if (thrown instanceof SchemaToolError) {
      throw new CliError(`cannot list Tools as ${format}: ${oneLine(thrown)}`);
    }
    throw thrown;
  }
}
