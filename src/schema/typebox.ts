/**
 * The TypeBox entry point (`toolbound/schema/typebox`): wraps a TypeBox 1.x
 * schema as a Standard Schema with Standard JSON Schema output, checked by
 * TypeBox's compiled validator. It is a separate entry so that only projects
 * that import it need the `typebox` package: TypeBox 1.x ships ES modules only,
 * and loading it synchronously from `toolbound/schema` would need `require()` of
 * ES modules, which Node.js enables only from 20.19 and 22.12.
 */

import type { Static, TSchema } from "typebox";
import { Compile } from "typebox/compile";
import { type CourseJsonObject, snapshotJsonObject } from "../../course/src/index.ts";
import { SchemaToolError } from "./schema-error.ts";
import type {
  StandardJSONSchemaV1Converter,
  StandardSchemaV1,
  StandardSchemaV1Props,
  StandardSchemaV1Result,
} from "./standard-schema.ts";
import { type TypeBoxErrorRecord, typeboxIssues } from "./typebox-issues.ts";

/**
 * Options of {@link fromTypeBox}.
 * - `coerce`: convert values toward the schema before checking (TypeBox's
 *   `Convert`: `"42"` to `42` for a number, and so on), on a copy of the
 *   arguments. Default `false`: the arguments are checked as the model sent them.
 */
export interface FromTypeBoxOptions {
  readonly coerce?: boolean;
}

/** A TypeBox schema seen as a Standard Schema that can also write its JSON Schema. */
export interface TypeBoxStandardSchema<Output> extends StandardSchemaV1<Output, Output> {
  readonly "~standard": StandardSchemaV1Props<Output, Output> & {
    readonly jsonSchema: StandardJSONSchemaV1Converter;
  };
}

/**
 * Compiles a TypeBox 1.x schema once and returns it as a Standard Schema for
 * `schemaTool`: validation runs the compiled checker (never a per-call
 * compile), issues are reported per path (`left: must be number (received
 * string)`, one issue per missing or unknown key), and the JSON Schema is the
 * TypeBox schema itself as plain JSON. Throws SchemaToolError INVALID_SCHEMA
 * when TypeBox cannot compile the schema or the schema is not plain JSON.
 *
 * @example
 * import { Type } from "typebox";
 * const read = schemaTool({
 *   name: "read_file",
 *   description: "Read a text file.",
 *   schema: fromTypeBox(Type.Object({ path: Type.String() }, { additionalProperties: false })),
 *   execute: async ({ path }) => ({ path }),
 * });
 */
export function fromTypeBox<Schema extends TSchema>(
  schema: Schema,
  options: FromTypeBoxOptions = {},
): TypeBoxStandardSchema<Static<Schema>> {
  const coerce = options.coerce === true;
  let jsonSchema: CourseJsonObject;
  try {
    jsonSchema = snapshotJsonObject(schema, "TypeBox schema", "INVALID_TOOL_DEFINITION");
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : "it is not plain JSON";
    throw new SchemaToolError("INVALID_SCHEMA", reason, { cause });
  }
  let validator: ReturnType<typeof Compile<Schema>>;
  try {
    validator = Compile(schema);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : "it threw";
    throw new SchemaToolError("INVALID_SCHEMA", `TypeBox could not compile the schema: ${reason}`, {
      cause,
    });
  }

  const validate = (value: unknown): StandardSchemaV1Result<Static<Schema>> => {
    // Convert may write into what it converts: it gets a copy, never the frozen arguments.
    const candidate = coerce ? validator.Convert(structuredClone(value)) : value;
    if (validator.Check(candidate)) return { value: candidate as Static<Schema> };
    const errors = validator.Errors(candidate) as readonly TypeBoxErrorRecord[];
    return { issues: typeboxIssues(errors, candidate) };
  };
  const writeJsonSchema = (): Record<string, unknown> => jsonSchema;
  return Object.freeze({
    "~standard": Object.freeze({
      version: 1 as const,
      vendor: "typebox",
      validate,
      jsonSchema: Object.freeze({ input: writeJsonSchema, output: writeJsonSchema }),
    }),
  });
}
