/**
 * schemaTool: a Tool defined from a schema. The schema validates the model's
 * arguments synchronously and supplies the Tool's `parameters` JSON Schema.
 */

import {
  type CourseJsonObject,
  type CourseJsonValue,
  type CourseToolExecutionContext,
  type CourseToolValidation,
  defineTool,
  type RegisteredCourseTool,
  snapshotJsonObject,
} from "../../course/src/index.ts";
import { formatIssues, readStandardIssues } from "./issues.ts";
import { dropNullOptionals } from "./null-optionals.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";
import { apply, fieldOf, isNativePromise, NativeError, promiseThen } from "./schema-intrinsics.ts";
import {
  type InferSchemaOutput,
  readStandardSchema,
  type SchemaSource,
  type StandardSchemaV1,
} from "./standard-schema.ts";

/**
 * What `schemaTool` needs.
 * - `schema`: any Standard Schema v1 (zod 4, valibot 1, arktype 2, or a TypeBox
 *   schema wrapped with `fromTypeBox`). It must validate synchronously.
 * - `parameters`: the JSON Schema to advertise. Default: the schema's own
 *   Standard JSON Schema output (zod, arktype, `fromTypeBox`); required for
 *   schemas without one (valibot: pass `toJsonSchema(schema)` from
 *   `@valibot/to-json-schema`). When given, it wins over the schema's output.
 * - `dropNullOptionals`: remove `null` values of optional properties whose
 *   JSON Schema certainly refuses null before validation (what OpenAI strict
 *   mode sends for a field the model leaves out); a null the schema may accept
 *   (`{}`, a `$ref`) stays. Default `false`: arguments reach the schema as sent.
 */
export interface SchemaToolOptions<Schema extends StandardSchemaV1, Output> {
  readonly name: string;
  readonly description: string;
  readonly schema: Schema;
  readonly execute: (
    input: InferSchemaOutput<Schema>,
    context: CourseToolExecutionContext,
  ) => Promise<Output>;
  readonly parameters?: object;
  readonly dropNullOptionals?: boolean;
}

// zod also answers with a Promise when a check throws: it retries asynchronously.
const ASYNC_SCHEMA =
  "the Tool's schema answered with a Promise (an async check, or a check that threw); schemaTool needs a synchronous schema";
const MALFORMED_RESULT = "the Tool's schema returned neither a value nor issues";

const noop = (): void => {};

// The validator runs on every call, after Tools ran in this process: a Tool could replace
// `Reflect.apply` or `Promise.prototype.then`, or plant `then` or `issues` on Object.prototype
// (every answer a thenable, or a failure the model reads). The schema's answer is read as its
// own fields or its class's (see `fieldOf`), by the captured built-ins.

/** A returned Promise or thenable: its rejection is observed, then the call is refused. */
function refuseAsync(result: object): void {
  if (isNativePromise(result)) {
    // The captured `then`: a native Promise is observed by what it was at load.
    promiseThen(result as Promise<unknown>, noop, noop);
    throw new NativeError(ASYNC_SCHEMA);
  }
  let then: unknown;
  try {
    then = fieldOf(result, "then");
  } catch {
    return;
  }
  if (typeof then !== "function") return;
  try {
    apply(then, result, [noop, noop]);
  } catch {
    // A thenable that throws from `then` is refused all the same.
  }
  throw new NativeError(ASYNC_SCHEMA);
}

function readParameters(
  source: SchemaSource,
  explicit: object | undefined,
  toolName: unknown,
): CourseJsonObject {
  const label = describeTool(toolName);
  const owner = typeof toolName === "string" ? { toolName } : {};
  let raw: unknown = explicit;
  if (raw === undefined) {
    if (source.jsonSchema === undefined) {
      throw new SchemaToolError(
        "MISSING_JSON_SCHEMA",
        `${label}: the ${source.vendor} schema cannot write JSON Schema; pass it as the parameters option (for valibot: toJsonSchema(schema) from @valibot/to-json-schema)`,
        owner,
      );
    }
    try {
      raw = source.jsonSchema();
    } catch (cause) {
      throw new SchemaToolError(
        "JSON_SCHEMA_FAILED",
        `${label}: the ${source.vendor} schema could not be written as JSON Schema (${cause instanceof Error ? cause.message : "it threw"}); pass the parameters option`,
        { ...owner, cause },
      );
    }
  }
  let snapshot: CourseJsonObject;
  try {
    snapshot = snapshotJsonObject(raw, `${label} parameters`, "INVALID_TOOL_DEFINITION");
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : "it is not plain JSON";
    throw new SchemaToolError("JSON_SCHEMA_FAILED", `${label}: ${reason}`, { ...owner, cause });
  }
  // The dialect marker is dropped: providers do not need it and some refuse it.
  const { $schema: _dialect, ...rest } = snapshot;
  return rest;
}

/**
 * Defines a Tool from a schema: its validator runs the schema synchronously
 * (issues become `path: message` text the model can act on, see
 * `formatIssues`), and its `parameters` is the schema's JSON Schema (root
 * `$schema` dropped). A schema that validates asynchronously makes each call
 * `TOOL_VALIDATION_FAILED`; nothing is coerced unless the schema says so.
 * Throws SchemaToolError (`INVALID_SCHEMA`, `MISSING_JSON_SCHEMA`,
 * `JSON_SCHEMA_FAILED`) or, for a bad name, description or executor,
 * ToolContractError INVALID_TOOL_DEFINITION.
 *
 * @example
 * const add = schemaTool({
 *   name: "add",
 *   description: "Add two numbers.",
 *   schema: z.object({ left: z.number(), right: z.number() }).strict(),
 *   execute: async ({ left, right }) => ({ sum: left + right }),
 * });
 */
export function schemaTool<Schema extends StandardSchemaV1, Output>(
  options: SchemaToolOptions<Schema, Output>,
): RegisteredCourseTool<InferSchemaOutput<Schema>, Output> {
  const { name, description, schema, execute, parameters, dropNullOptionals: dropNulls } = options;
  const source = readStandardSchema(schema, name);
  const jsonSchema = readParameters(source, parameters, name);
  const prepare =
    dropNulls === true
      ? (input: unknown) => dropNullOptionals(input as CourseJsonValue, jsonSchema)
      : (input: unknown) => input;

  const validate = (input: unknown): CourseToolValidation<InferSchemaOutput<Schema>> => {
    const result = source.validate(prepare(input));
    if (typeof result !== "object" || result === null) throw new NativeError(MALFORMED_RESULT);
    refuseAsync(result);
    const issues = fieldOf(result, "issues");
    if (issues === undefined) {
      return { ok: true, value: fieldOf(result, "value") as InferSchemaOutput<Schema> };
    }
    const read = readStandardIssues(issues, source.vendor);
    return { ok: false, error: formatIssues(read.issues, read.total) };
  };

  return defineTool({ name, description, validate, execute, parameters: jsonSchema });
}
