/**
 * A synchronous validator from a TypeBox 1.x (or plain JSON Schema) object:
 * compiled once, checks without converting, defaulting or cleaning anything.
 */

import { Compile } from "typebox/compile";
import { type CourseToolValidation, ToolContractError } from "../../course/src/index.ts";

/** At most this many schema errors are named in a rejection; the rest are counted. */
export const PI_ARGUMENT_ERRORS_SHOWN = 5;

/** One schema error as TypeBox reports it; only these two fields are read. */
interface SchemaError {
  readonly instancePath: string;
  readonly message: string;
}

/** The compiled checker's two methods the bridge uses. */
interface CompiledChecker {
  Check(value: unknown): boolean;
  Errors(value: unknown): readonly SchemaError[];
}

/** `/left must be number; / must have required properties right (and 2 more)`. */
function describeErrors(errors: readonly SchemaError[]): string {
  const shown: string[] = [];
  for (let index = 0; index < errors.length && index < PI_ARGUMENT_ERRORS_SHOWN; index += 1) {
    const error = errors[index] as SchemaError;
    const where =
      typeof error.instancePath === "string" && error.instancePath !== ""
        ? error.instancePath
        : "/";
    shown.push(`${where} ${String(error.message)}`);
  }
  if (shown.length === 0) return "arguments do not match the Tool's parameters schema";
  const more = errors.length - shown.length;
  return more > 0 ? `${shown.join("; ")} (and ${more} more)` : shown.join("; ");
}

/**
 * Compiles `schema` once and returns a pure, synchronous validator for it.
 * The value is checked as it is: no conversion of `"20"` to `20`, no defaults,
 * no removal of unknown keys (Pi's own loop converts before it checks; this
 * checker does not). A valid value is passed on unchanged; an invalid one is
 * refused with up to {@link PI_ARGUMENT_ERRORS_SHOWN} schema errors named.
 * Throws ToolContractError INVALID_TOOL_DEFINITION when the schema does not
 * compile.
 *
 * @example
 * const validate = compileTypeBoxChecker(Type.Object({ left: Type.Number() }), "add");
 * validate({ left: "20" }); // { ok: false, error: "/left must be number" }
 */
export function compileTypeBoxChecker(
  schema: object,
  toolName: string,
): (input: unknown) => CourseToolValidation<unknown> {
  let checker: CompiledChecker;
  try {
    checker = Compile(schema) as unknown as CompiledChecker;
  } catch (thrown) {
    throw new ToolContractError(
      "INVALID_TOOL_DEFINITION",
      `Pi Tool "${toolName}" parameters schema does not compile`,
      { cause: thrown },
    );
  }
  return (input: unknown): CourseToolValidation<unknown> => {
    if (checker.Check(input)) return { ok: true, value: input };
    return { ok: false, error: describeErrors(checker.Errors(input)) };
  };
}
