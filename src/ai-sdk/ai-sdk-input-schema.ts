/**
 * Reads an AI SDK tool's `inputSchema` once, at conversion: a Standard Schema
 * (zod, valibot, arktype) is handed on as it is; a schema made by the SDK's
 * `jsonSchema(schema, { validate })`, or a lazy schema that returns one,
 * becomes a synchronous validator and a deep-frozen JSON Schema.
 */

import {
  type CourseJsonObject,
  type CourseToolValidation,
  snapshotJsonObject,
  ToolContractError,
} from "../../course/src/index.ts";

/** The marker the AI SDK puts on schemas made by `jsonSchema()` (a registered symbol). */
const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

const ASYNC_VALIDATE =
  "the Tool's jsonSchema() validate answered with a Promise; a Tool behind the boundary needs a synchronous validate";
const MALFORMED_RESULT =
  "the Tool's jsonSchema() validate returned neither { success: true, value } nor { success: false, error }";
const NO_REASON = "arguments do not match the Tool's input schema";

/**
 * An input schema, read: a Standard Schema to hand to `schemaTool`, or a validator and its JSON Schema.
 *
 * @example
 * const read: AiSdkInputSchema = readAiSdkInputSchema(z.object({ left: z.number() }), "add");
 * read.kind; // "standard"
 */
export type AiSdkInputSchema =
  | { readonly kind: "standard"; readonly schema: object }
  | {
      readonly kind: "json";
      readonly validate: (input: unknown) => CourseToolValidation<unknown>;
      readonly parameters: CourseJsonObject;
    };

function invalid(toolName: string, problem: string, cause?: unknown): never {
  throw new ToolContractError(
    "INVALID_TOOL_DEFINITION",
    `AI SDK tool "${toolName}" ${problem}`,
    cause === undefined ? undefined : { cause },
  );
}

function read(target: object, key: PropertyKey, toolName: string, what: string): unknown {
  try {
    return Reflect.get(target, key);
  } catch (thrown) {
    return invalid(toolName, `${what} threw when read`, thrown);
  }
}

function hasStandardProps(schema: object): boolean {
  return Reflect.has(schema, "~standard");
}

/** Reads `then` once; a thenable's rejection is observed so that it is never unhandled. */
function isThenable(value: unknown): boolean {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const then: unknown = Reflect.get(value, "then");
  if (typeof then !== "function") return false;
  try {
    Reflect.apply(then, value, [() => {}, () => {}]);
  } catch {
    // A `then` that throws still makes a thenable: refused all the same.
  }
  return true;
}

function reasonOf(error: unknown): string {
  if (typeof error === "string" && error.trim() !== "") return error;
  if (error instanceof Error && error.message.trim() !== "") return error.message;
  return NO_REASON;
}

/** A synchronous validator from the SDK schema's `validate` (called with the schema as `this`). */
function wrapValidate(
  schema: object,
  validate: (value: unknown) => unknown,
): (input: unknown) => CourseToolValidation<unknown> {
  return (input) => {
    const result: unknown = Reflect.apply(validate, schema, [input]);
    if (isThenable(result)) throw new Error(ASYNC_VALIDATE);
    if (typeof result !== "object" || result === null) throw new Error(MALFORMED_RESULT);
    const success: unknown = Reflect.get(result, "success");
    if (success === true) return { ok: true, value: Reflect.get(result, "value") };
    if (success === false) return { ok: false, error: reasonOf(Reflect.get(result, "error")) };
    throw new Error(MALFORMED_RESULT);
  };
}

function readJsonSchema(schema: object, toolName: string): AiSdkInputSchema {
  const validate = read(schema, "validate", toolName, "inputSchema.validate");
  if (validate === undefined) {
    return invalid(
      toolName,
      "inputSchema is a jsonSchema() without a validate function, so nothing could check the model's arguments before effects: pass jsonSchema(schema, { validate }) or a Standard Schema (zod, valibot, arktype)",
    );
  }
  if (typeof validate !== "function")
    return invalid(toolName, "inputSchema.validate must be a function");
  const raw = read(schema, "jsonSchema", toolName, "inputSchema.jsonSchema");
  let pending: boolean;
  try {
    pending = isThenable(raw);
  } catch (thrown) {
    return invalid(toolName, "inputSchema.jsonSchema threw when read", thrown);
  }
  if (pending) {
    return invalid(
      toolName,
      "inputSchema.jsonSchema is a Promise; its JSON Schema must be at hand when converted",
    );
  }
  const snapshot = snapshotJsonObject(
    raw,
    `AI SDK tool "${toolName}" inputSchema.jsonSchema`,
    "INVALID_TOOL_DEFINITION",
  );
  // The dialect marker is dropped, as schemaTool does: providers do not need it.
  const { $schema: _dialect, ...parameters } = snapshot;
  return {
    kind: "json",
    validate: wrapValidate(schema, validate as (value: unknown) => unknown),
    // The rest is a fresh top-level object: frozen like everything below it.
    parameters: Object.freeze(parameters),
  };
}

/**
 * Reads `inputSchema` once. A Standard Schema (zod 3.24+ and 4, valibot,
 * arktype; it has `~standard`) is returned for `schemaTool`; a schema from the
 * SDK's `jsonSchema()` (or a lazy schema, a function returning one, called
 * once here) gives a validator that calls its `validate` synchronously (a
 * Promise from it makes the call `TOOL_VALIDATION_FAILED`) and its JSON Schema
 * deep-frozen. Throws ToolContractError INVALID_TOOL_DEFINITION, naming the
 * tool and the problem, for anything else, a `jsonSchema()` without
 * `validate`, a JSON Schema given as a Promise, or one that is not plain JSON.
 *
 * @example
 * const read = readAiSdkInputSchema(jsonSchema(schema, { validate }), "add");
 * if (read.kind === "json") read.validate({ left: 1 });
 */
export function readAiSdkInputSchema(inputSchema: unknown, toolName: string): AiSdkInputSchema {
  if (
    (typeof inputSchema !== "object" && typeof inputSchema !== "function") ||
    inputSchema === null
  ) {
    return invalid(
      toolName,
      "inputSchema must be a zod or Standard Schema, or a jsonSchema() schema",
    );
  }
  if (hasStandardProps(inputSchema)) return { kind: "standard", schema: inputSchema };
  let schema: unknown = inputSchema;
  if (typeof inputSchema === "function") {
    // A lazy schema, as the SDK's lazySchema() makes: called once, like the SDK does.
    try {
      schema = Reflect.apply(inputSchema, undefined, []);
    } catch (thrown) {
      return invalid(toolName, "inputSchema (a lazy schema) threw when called", thrown);
    }
  }
  if (
    typeof schema !== "object" ||
    schema === null ||
    read(schema, AI_SDK_SCHEMA, toolName, "inputSchema") !== true
  ) {
    return invalid(
      toolName,
      "inputSchema must be a zod or Standard Schema, or a jsonSchema() schema",
    );
  }
  return readJsonSchema(schema, toolName);
}
