/**
 * The MCP SDK client's own JSON Schema validator, bounded as `fromMcpClient`
 * bounds its checks. The SDK's `client.listTools()` compiles every Tool's
 * `outputSchema` with it, and `client.callTool()` checks each result's
 * `structuredContent` with it; with the SDK's default, a hostile server's
 * output schema holds the event loop as long as it likes.
 */

import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { compileValueCheck, loadAjv } from "./json-schema-check.ts";
import { linearTimePatterns } from "./linear-patterns.ts";
import { CompileAccount, MAX_LISTING_COMPILE_COST } from "./pattern-budgets.ts";

/**
 * Options of {@link boundedJsonSchemaValidator}.
 *
 * @example
 * const options: BoundedJsonSchemaValidatorOptions = { patterns: "native" };
 */
export interface BoundedJsonSchemaValidatorOptions {
  /** What runs the schemas' patterns: RE2JS (`"linear-time"`, the default) or the platform's RegExp. */
  readonly patterns?: "linear-time" | "native";
}

/**
 * Resolves with a validator for the MCP SDK client's `jsonSchemaValidator`
 * option that compiles and checks as `fromMcpClient` does: each schema within
 * `MAX_SCHEMA_COMPILE_COST` (its objects paid for before Ajv reads it), the
 * schemas compiled in one synchronous run (the SDK compiles a whole listing
 * in one) within `MAX_LISTING_COMPILE_COST` together, each check within
 * `MAX_CHECK_STEPS` and the patterns' budgets, on RE2JS unless `patterns:
 * "native"`. A schema it cannot compile or bound makes `getValidator` throw,
 * saying why (the SDK's `listTools()` then rejects); a check past a bound
 * answers invalid: `checking it takes too long (…)`, or, for a value nested
 * past `MAX_CHECKED_DEPTH` against a schema with a `$ref` or `uniqueItems`,
 * `it nests over 256 levels deep, too deep to check` (`it cannot be checked:
 * its check runs out of the engine's stack` when the stack runs out anyway).
 * Loads Ajv (and RE2JS)
 * once; rejects with a TypeError for a bad option.
 *
 * @example
 * const client = new Client(
 *   { name: "my-agent", version: "1.0.0" },
 *   { jsonSchemaValidator: await boundedJsonSchemaValidator() },
 * );
 */
export async function boundedJsonSchemaValidator(
  options: BoundedJsonSchemaValidatorOptions = {},
): Promise<jsonSchemaValidator> {
  const patterns = options.patterns ?? "linear-time";
  if (patterns !== "linear-time" && patterns !== "native") {
    throw new TypeError('boundedJsonSchemaValidator: patterns must be "linear-time" or "native"');
  }
  const [ajv, regExp] = await Promise.all([
    loadAjv(),
    patterns === "native" ? undefined : linearTimePatterns(),
  ]);
  // The schemas compiled in one synchronous run share one budget: the SDK compiles every
  // output schema of a listing in one loop, with nothing else running between them.
  let listing: CompileAccount | undefined;
  const currentListing = (): CompileAccount => {
    if (listing === undefined) {
      listing = new CompileAccount(
        MAX_LISTING_COMPILE_COST,
        "the server's schemas, all Tools together,",
      );
      queueMicrotask(() => {
        listing = undefined;
      });
    }
    return listing;
  };
  return {
    getValidator<T>(schema: unknown) {
      const compiled = compileValueCheck(
        ajv,
        schema as Readonly<Record<string, unknown>>,
        regExp,
        currentListing(),
      );
      if (!compiled.ok) throw new Error(`the schema cannot be checked: ${compiled.reason}`);
      const { check } = compiled;
      return (input: unknown) => {
        const error = check(input);
        return error === undefined
          ? { valid: true, data: input as T, errorMessage: undefined }
          : { valid: false, data: undefined, errorMessage: error };
      };
    },
  };
}
