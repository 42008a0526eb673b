/**
 * The Standard Schema v1 and Standard JSON Schema v1 interfaces, declared here
 * structurally so that no schema library is imported, and the one-time read of
 * a schema's `~standard` property that `schemaTool` relies on.
 */

import { describeTool, SchemaToolError } from "./schema-error.ts";
import { apply } from "./schema-intrinsics.ts";

/** A path segment of an issue: a key, or an object that carries one. */
export interface StandardSchemaV1PathSegment {
  readonly key: PropertyKey;
}

/** One validation problem as a Standard Schema reports it. */
export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | StandardSchemaV1PathSegment> | undefined;
}

/** A successful validation: the (possibly transformed) value. */
export interface StandardSchemaV1Success<Output> {
  readonly value: Output;
  readonly issues?: undefined;
}

/** A failed validation: at least one issue. */
export interface StandardSchemaV1Failure {
  readonly issues: ReadonlyArray<StandardSchemaV1Issue>;
}

/** What `~standard.validate` returns (or, for an asynchronous schema, resolves to). */
export type StandardSchemaV1Result<Output> =
  | StandardSchemaV1Success<Output>
  | StandardSchemaV1Failure;

/** The static input and output types a schema carries for inference. */
export interface StandardSchemaV1Types<Input, Output> {
  readonly input: Input;
  readonly output: Output;
}

/** The `~standard` property of a Standard Schema v1. */
export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
  ) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
  readonly types?: StandardSchemaV1Types<Input, Output> | undefined;
}

/**
 * Any Standard Schema v1: zod 4, valibot 1, arktype 2 and others implement it.
 *
 * @example
 * const schema: StandardSchemaV1<{ left: number }> = z.object({ left: z.number() });
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1Props<Input, Output>;
}

/** Options of a Standard JSON Schema conversion; `target` is the JSON Schema dialect. */
export interface StandardJSONSchemaV1Options {
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | (string & {});
  readonly libraryOptions?: Readonly<Record<string, unknown>> | undefined;
}

/** The `jsonSchema` member of `~standard` (zod 4 and arktype 2 have it). */
export interface StandardJSONSchemaV1Converter {
  readonly input: (options: StandardJSONSchemaV1Options) => Record<string, unknown>;
  readonly output: (options: StandardJSONSchemaV1Options) => Record<string, unknown>;
}

/** The validated type a Standard Schema produces. */
export type InferSchemaOutput<Schema extends StandardSchemaV1> = NonNullable<
  Schema["~standard"]["types"]
>["output"];

/** What `schemaTool` keeps of a schema: captured once, at definition time. */
export interface SchemaSource {
  readonly vendor: string;
  /** Calls the captured `~standard.validate` with its `this`. */
  readonly validate: (value: unknown) => unknown;
  /** Writes the input JSON Schema (draft 2020-12), when the schema can. */
  readonly jsonSchema: (() => unknown) | undefined;
}

function invalid(toolName: unknown, problem: string): never {
  throw new SchemaToolError("INVALID_SCHEMA", `${describeTool(toolName)}: ${problem}`, {
    ...(typeof toolName === "string" ? { toolName } : {}),
  });
}

/** True for an object that carries TypeBox's kind marker or looks like JSON Schema. */
function looksLikeJsonSchema(value: object): boolean {
  return Object.hasOwn(value, "~kind") || Object.hasOwn(value, "type");
}

/**
 * Reads a Standard Schema's `~standard` property once and captures what
 * validation and JSON Schema output need, so later changes to the schema
 * object change nothing. Throws SchemaToolError INVALID_SCHEMA otherwise.
 *
 * @example
 * const source = readStandardSchema(z.object({ left: z.number() }), "add");
 * source.vendor; // "zod"
 */
export function readStandardSchema(schema: unknown, toolName: unknown): SchemaSource {
  // arktype schemas are functions, the others objects.
  if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) {
    return invalid(toolName, "schema must be a Standard Schema v1 (zod, valibot, arktype)");
  }
  const props: unknown = (schema as { readonly "~standard"?: unknown })["~standard"];
  if (typeof props !== "object" || props === null) {
    if (looksLikeJsonSchema(schema)) {
      return invalid(
        toolName,
        "schema looks like a TypeBox or JSON Schema object; wrap a TypeBox schema with fromTypeBox() from the typebox entry point",
      );
    }
    return invalid(toolName, "schema must be a Standard Schema v1 (no ~standard property)");
  }
  const { version, vendor, validate, jsonSchema } = props as {
    readonly version?: unknown;
    readonly vendor?: unknown;
    readonly validate?: unknown;
    readonly jsonSchema?: unknown;
  };
  if (version !== 1) return invalid(toolName, "schema must implement Standard Schema version 1");
  if (typeof validate !== "function") return invalid(toolName, "schema has no ~standard.validate");
  let writeJsonSchema: (() => unknown) | undefined;
  if (typeof jsonSchema === "object" && jsonSchema !== null) {
    const input: unknown = (jsonSchema as { readonly input?: unknown }).input;
    if (typeof input === "function") {
      writeJsonSchema = () => Reflect.apply(input, jsonSchema, [{ target: "draft-2020-12" }]);
    }
  }
  return Object.freeze({
    vendor: typeof vendor === "string" ? vendor : "unknown",
    // The captured apply: this runs on every call, after Tools ran, and a replaced
    // `Reflect.apply` would answer for the schema.
    validate: (value: unknown) => apply(validate, props, [value]),
    jsonSchema: writeJsonSchema,
  });
}
