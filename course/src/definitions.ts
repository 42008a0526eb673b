/**
 * Tool definitions: the one-read, frozen snapshot that `defineTool` returns and
 * that `ToolRegistry` stores.
 */

import { contractError, isOwnedContractError } from "./errors.js";
import { apply, freeze, isProxy, NativeWeakSet, weakSetAdd, weakSetHas } from "./intrinsics.js";
import { snapshotJsonObject } from "./json-snapshot.js";
import {
  type OutputBudget,
  readOutputBudget,
  readTruncate,
  refuseDefinitionField,
  type TruncateStrategy,
} from "./output-budget.js";
import { type OutputFormat, readFormat } from "./output-format.js";
import type { ToolOutputFields } from "./output-settings.js";
import { isNonBlankString, type OwnField, readOwnField } from "./own-fields.js";
import { isMarkable, MarkHost } from "./private-marks.js";
import type {
  CourseJsonObject,
  CourseTool,
  CourseToolExecutionContext,
  CourseToolValidation,
} from "./protocol.js";

/**
 * A Tool definition after `defineTool`: frozen, its functions stable wrappers
 * around the originals captured at definition time.
 */
export type RegisteredCourseTool<Input = unknown, Output = unknown> = CourseTool<Input, Output> & {
  /** The JSON Schema of the Tool's arguments, deep-frozen, when the definition had one. */
  readonly parameters?: CourseJsonObject;
  /** The Tool's own output budget, frozen, when the definition had one. */
  readonly outputBudget?: OutputBudget;
  /** The Tool's own truncation strategy, when the definition had one. */
  readonly truncate?: TruncateStrategy;
  /** The Tool's own output format, when the definition had one. */
  readonly format?: OutputFormat;
};

/**
 * A Tool definition as `defineTool` accepts it: the course's four fields and
 * optional ones: `parameters` (the JSON Schema a model provider needs),
 * `outputBudget`, `truncate` and `format` (this Tool's output settings, which
 * a call's own settings override and which override the registry's).
 */
export type ToolDefinition<Input = unknown, Output = unknown> = CourseTool<Input, Output> & {
  readonly parameters?: CourseJsonObject;
  readonly outputBudget?: OutputBudget;
  readonly truncate?: TruncateStrategy;
  readonly format?: OutputFormat;
};

/**
 * Any Tool definition, whatever its input and output types; what the registry
 * accepts. (`CourseTool<unknown>` would not do: a Tool is invariant in `Input`.)
 */
export type AnyCourseTool = {
  readonly name: string;
  readonly description: string;
  readonly validate: (input: unknown) => CourseToolValidation<unknown>;
  readonly execute: (input: never, context: CourseToolExecutionContext) => Promise<unknown>;
  readonly parameters?: CourseJsonObject;
  readonly outputBudget?: OutputBudget;
  readonly truncate?: TruncateStrategy;
  readonly format?: OutputFormat;
};

/** Snapshots this module made; registering one again reuses it as it is. */
const snapshots = new NativeWeakSet<object>();

/** The output fields of a snapshot, kept with it (see toolOutputFields and private-marks.ts). */
class OutputFieldsMark extends MarkHost {
  readonly #fields: ToolOutputFields | undefined;

  constructor(snapshot: object, fields: ToolOutputFields | undefined) {
    super(snapshot);
    this.#fields = fields;
  }

  static fieldsOf(value: unknown): ToolOutputFields | undefined {
    return isMarkable(value) && #fields in value ? value.#fields : undefined;
  }
}

/** True when `value` is a frozen definition snapshot made by `defineTool`. */
export function isDefinitionSnapshot(value: unknown): value is RegisteredCourseTool {
  return weakSetHas(snapshots, value);
}

function readField(definition: object, key: string, label: string): unknown {
  let field: OwnField;
  try {
    field = readOwnField(definition, key);
  } catch (thrown) {
    // A user's throw is never rethrown as it is, even a genuine ToolContractError.
    throw contractError("INVALID_TOOL_DEFINITION", `${label} field "${key}" threw when read`, {
      cause: thrown,
    });
  }
  if (!field.found) {
    throw contractError(
      "INVALID_TOOL_DEFINITION",
      `${label} must have "${key}" as an own field (inherited fields are not read)`,
    );
  }
  return field.value;
}

function requireFunction(
  value: unknown,
  key: string,
  label: string,
): (...args: never[]) => unknown {
  if (typeof value !== "function") {
    throw contractError("INVALID_TOOL_DEFINITION", `${label} field "${key}" must be a function`);
  }
  if (isProxy(value)) {
    throw contractError("INVALID_TOOL_DEFINITION", `${label} field "${key}" must not be a Proxy`);
  }
  return value as (...args: never[]) => unknown;
}

/** Reads an optional own field once; absent and `undefined` are alike. */
function readOptionalField(definition: object, key: string, label: string): unknown {
  let field: OwnField;
  try {
    field = readOwnField(definition, key);
  } catch (thrown) {
    throw contractError("INVALID_TOOL_DEFINITION", `${label} field "${key}" threw when read`, {
      cause: thrown,
    });
  }
  return field.found ? field.value : undefined;
}

/**
 * Checks a definition's `outputBudget`. Its reading runs no user code (a
 * Proxy or an object on a custom prototype is refused first, getters are
 * caught), but a throw that is not our own refusal is still never rethrown as
 * it is: it becomes INVALID_TOOL_DEFINITION with the thrown value as `cause`.
 */
function readBudgetField(value: unknown, refuse: (message: string) => never) {
  try {
    return readOutputBudget(value, "outputBudget", refuse);
  } catch (thrown) {
    if (isOwnedContractError(thrown)) throw thrown;
    throw contractError("INVALID_TOOL_DEFINITION", "outputBudget could not be read", {
      cause: thrown,
    });
  }
}

/** Reads the optional `parameters` field once and snapshots it as deep-frozen plain JSON. */
function readParameters(definition: object, label: string): CourseJsonObject | undefined {
  const value = readOptionalField(definition, "parameters", label);
  if (value === undefined) return undefined;
  return snapshotJsonObject(value, `${label} parameters`, "INVALID_TOOL_DEFINITION");
}

/**
 * Reads the four own fields of a definition once each, in the order name,
 * description, validate, execute (then the optional `parameters`,
 * `outputBudget`, `truncate` and `format`), and returns a frozen copy whose functions
 * call the captured originals with `this` undefined.
 */
export function snapshotDefinition(definition: unknown, label: string): RegisteredCourseTool {
  if (isDefinitionSnapshot(definition)) return definition;
  if (typeof definition !== "object" || definition === null) {
    throw contractError("INVALID_TOOL_DEFINITION", `${label} must be an object`);
  }
  if (isProxy(definition)) {
    throw contractError("INVALID_TOOL_DEFINITION", `${label} must not be a Proxy`);
  }
  const name = readField(definition, "name", label);
  if (!isNonBlankString(name)) {
    throw contractError("INVALID_TOOL_DEFINITION", `${label} name must be a non-blank string`);
  }
  const description = readField(definition, "description", label);
  if (!isNonBlankString(description)) {
    throw contractError(
      "INVALID_TOOL_DEFINITION",
      `${label} description must be a non-blank string`,
    );
  }
  const validate = requireFunction(readField(definition, "validate", label), "validate", label);
  const execute = requireFunction(readField(definition, "execute", label), "execute", label);
  const parameters = readParameters(definition, label);
  const refuse = refuseDefinitionField(label);
  const outputBudget = readBudgetField(
    readOptionalField(definition, "outputBudget", label),
    refuse,
  );
  const truncate = readTruncate(
    readOptionalField(definition, "truncate", label),
    "truncate",
    refuse,
  );
  const format = readFormat(readOptionalField(definition, "format", label), "format", refuse);
  const functions = {
    validate: (input: unknown) =>
      apply(validate, undefined, [input]) as CourseToolValidation<unknown>,
    execute: (input: unknown, context: CourseToolExecutionContext) =>
      apply(execute, undefined, [input, context]) as Promise<unknown>,
  };
  // Without the optional fields the snapshot has exactly the course's four fields.
  const snapshot: RegisteredCourseTool = {
    name,
    description,
    ...functions,
    ...(parameters === undefined ? {} : { parameters }),
    ...(outputBudget === undefined ? {} : { outputBudget }),
    ...(truncate === undefined ? {} : { truncate }),
    ...(format === undefined ? {} : { format }),
  };
  // Kept beside the snapshot once, so a call resolves its output settings without
  // reading the snapshot's fields again; none at all is kept as undefined, so a call of a
  // Tool without them, on a registry and with options without them, skips resolving.
  const fields =
    outputBudget === undefined && truncate === undefined && format === undefined
      ? undefined
      : freeze({ outputBudget, truncate, format });
  new OutputFieldsMark(snapshot, fields);
  weakSetAdd(snapshots, freeze(snapshot));
  return snapshot;
}

/**
 * The output fields of a Tool snapshot `defineTool` made, as it read them (all
 * three own fields, each possibly undefined); undefined for a snapshot that
 * set none of them, and for undefined (no Tool).
 *
 * @example
 * toolOutputFields(defineTool({ ...echo, truncate: "tail" })); // { outputBudget: undefined, truncate: "tail", format: undefined }
 * toolOutputFields(defineTool(echo)); // undefined
 */
export function toolOutputFields(
  tool: RegisteredCourseTool | undefined,
): ToolOutputFields | undefined {
  return OutputFieldsMark.fieldsOf(tool);
}

/**
 * Snapshots a Tool definition: four own fields read once each, functions
 * wrapped, the result frozen. Optional own fields are read after them:
 * `parameters` (a JSON Schema object, deep-frozen), `outputBudget` (frozen),
 * `truncate` and `format`. Later changes to `definition` change nothing.
 * Throws ToolContractError INVALID_TOOL_DEFINITION for an inherited or missing
 * field, a getter that throws, a blank name or description, or a validator or
 * executor that is not a function.
 *
 * @example
 * const echo = defineTool({
 *   name: "echo",
 *   description: "Repeat the text.",
 *   validate: (input) =>
 *     typeof input === "object" && input !== null && typeof (input as { text?: unknown }).text === "string"
 *       ? { ok: true, value: input as { text: string } }
 *       : { ok: false, error: "text must be a string" },
 *   execute: async ({ text }) => ({ text }),
 * });
 */
export function defineTool<Input, Output>(
  definition: ToolDefinition<Input, Output>,
): RegisteredCourseTool<Input, Output> {
  return snapshotDefinition(definition, "Tool definition") as RegisteredCourseTool<Input, Output>;
}
