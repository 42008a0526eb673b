/**
 * Checking a model's arguments against another MCP server's `inputSchema`
 * before any request is sent, with Ajv (the validator the MCP SDK itself
 * uses), loaded on first use: an optional peer of `toolbound/mcp`.
 */

import type { ErrorObject, KeywordDefinition, Options, ValidateFunction } from "ajv";
import { cutText, oneLine } from "./bounded-text.ts";
import { useDependencyMacros } from "./dependency-macros.ts";
import type { PatternEngine } from "./linear-patterns.ts";
import {
  CompileAccount,
  MAX_SCHEMA_COMPILE_COST,
  PatternWorkExceeded,
  SCHEMA_OBJECT_COST,
} from "./pattern-budgets.ts";
import { errorLine } from "./schema-error-line.ts";
import {
  MAX_CHECK_STEPS,
  meteredSchema,
  SchemaWorkExceeded,
  STEP_KEYWORD,
  StepMeter,
  weighValues,
} from "./schema-meter.ts";
import { schemaShape } from "./schema-structure.ts";
import { UNIQUE_KEYWORD, uniqueItemsCheck } from "./unique-items.ts";
import { MAX_CHECKED_DEPTH, nestsDeeperThan } from "./value-depth.ts";

/** The Ajv classes by dialect, loaded once. */
interface AjvClasses {
  readonly draft07: new (options: Options) => AjvLike;
  readonly draft2019: new (options: Options) => AjvLike;
  readonly draft2020: new (options: Options) => AjvLike;
}

interface AjvLike {
  compile(schema: object): ValidateFunction;
  addKeyword(definition: KeywordDefinition): unknown;
  removeKeyword(keyword: string): unknown;
  /** Ajv's keyword rules in the order its code applies them, grouped by the type they apply to. */
  readonly RULES?: {
    readonly rules: readonly {
      readonly type?: string;
      readonly rules: readonly { readonly keyword: string }[];
    }[];
  };
}

/**
 * The first keyword Ajv applies to a value of any type, for the step keyword
 * to go before it: a subschema that fails at an earlier keyword (an `anyOf`
 * whose every branch fails at once) would not be counted, and a chain of
 * them applied 2^20 objects in 0.8 s for one step.
 */
function firstRule(validator: AjvLike): string | undefined {
  return validator.RULES?.rules.find((group) => group.type === undefined)?.rules[0]?.keyword;
}

let loaded: Promise<AjvClasses> | undefined;

/**
 * Loads Ajv (draft-07, 2019-09 and 2020-12 dialects), or rejects with an
 * Error that says how to install it.
 *
 * @example
 * const ajv = await loadAjv();
 */
export function loadAjv(): Promise<AjvClasses> {
  loaded ??= Promise.all([
    import("ajv"),
    import("ajv/dist/2019.js"),
    import("ajv/dist/2020.js"),
  ]).then(
    ([draft07, draft2019, draft2020]) => ({
      draft07: draft07.Ajv,
      draft2019: draft2019.Ajv2019,
      draft2020: draft2020.Ajv2020,
    }),
    (thrown: unknown) => {
      loaded = undefined;
      throw new Error(
        "fromMcpClient checks arguments with the optional peer dependency ajv (8.x, which the MCP SDK also uses); install it with: npm install ajv",
        { cause: thrown },
      );
    },
  );
  return loaded;
}

// Validation stops at the first error (bounded work, bounded message); formats
// are annotations, as JSON Schema 2020-12 makes them by default; a schema's own
// mistakes are not refused (servers write loose schemas) and never logged.
const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: false,
  validateSchema: false,
  validateFormats: false,
  logger: false,
  // The arguments are checked as they are: never coerced, filled in or pruned.
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  // A server's schema compiles in time about linear in its objects: a `$ref` is compiled
  // once, not pasted into every place that uses it (100 references to a 100-property
  // definition, 6.6 KB of schema, took 2.2 s pasted), and the code optimizer, whose passes
  // grow faster than the code (2,000 properties: 1.4 s with it, 0.3 s without), is off.
  inlineRefs: false,
  code: { optimize: false },
  // A long `required` or `enum` is checked in a loop rather than written out name by name
  // (245 lists of 199 names: over a second to compile written out).
  loopRequired: 16,
  loopEnum: 16,
};

/** The dialect a schema declares with `$schema`; MCP's default, 2020-12, when it declares none. */
function dialectOf(schema: Readonly<Record<string, unknown>>): keyof AjvClasses {
  const declared = schema.$schema;
  if (typeof declared !== "string") return "draft2020";
  if (/draft-0[4-7]/.test(declared)) return "draft07";
  if (declared.includes("2019-09")) return "draft2019";
  return "draft2020";
}

/**
 * The deepest a server's schema may nest its objects (maps such as
 * `properties` included): 128, some 64 levels of subschemas.
 */
const MAX_SCHEMA_DEPTH = 128;

/**
 * The deepest a server's schema may nest its objects and arrays together:
 * 256, room for the arrays between 128 levels of objects (`allOf: [...]`).
 * Values such as a `const` of arrays nest without objects, and 3,000 levels
 * of them ran the engine out of stack while Ajv compiled the schema.
 */
const MAX_SCHEMA_NESTING = 256;

/** What one check of a value found: valid, the first error, or work past a budget. */
type Verdict =
  | { readonly kind: "valid" }
  | { readonly kind: "invalid"; readonly error: ErrorObject | undefined }
  | { readonly kind: "too-long"; readonly against: "patterns"; readonly why: string }
  | {
      readonly kind: "too-long";
      readonly against: "schema";
      readonly why: string;
      /** The values checked, when so few that only the schema's `$ref`s can explain the work. */
      readonly multiplied: number | undefined;
    }
  /** The value nests past {@link MAX_CHECKED_DEPTH}, or (`stack`) the check ran out of the engine's stack. */
  | { readonly kind: "too-deep"; readonly stack: boolean };

/**
 * How many times over a schema must apply its objects, on average, to each
 * value before its work is put down to the schema: without `$ref`, a schema
 * applies each of its objects at most once to each value.
 */
const MULTIPLIED = 10;

/** A compiled schema's check, or why the schema cannot be used. */
type CompiledSchema =
  | { readonly ok: true; readonly check: (value: unknown) => Verdict }
  | { readonly ok: false; readonly reason: string };

/**
 * Compiles a server's `schema` in the dialect it declares, in an Ajv instance
 * of its own (so one Tool's `$id` or `$ref` never meets another's), within
 * its compile budget ({@link MAX_SCHEMA_COMPILE_COST}: its objects, paid for
 * before Ajv reads it, then its patterns) and what is left of `listing`'s,
 * when given. Each check counts the schema objects it applies (see
 * schema-meter.ts) and runs the patterns within their budgets. With
 * `boundsDepth`, a value is measured first when the check would follow it
 * down (see value-depth.ts); a check that runs out of the engine's stack is a
 * verdict either way.
 */
function compileSchema(
  ajv: AjvClasses,
  schema: Readonly<Record<string, unknown>>,
  regExp: PatternEngine | undefined,
  listing: CompileAccount | undefined,
  boundsDepth: boolean,
): CompiledSchema {
  let validate: ValidateFunction;
  let schemaWeight = 1;
  let measureDepth = false;
  const meter = new StepMeter();
  try {
    // Each schema gets a compile budget of its own (and draws on its listing's, when given),
    // whichever engine runs its patterns: its objects are paid for before Ajv reads it.
    const schemaAccount = new CompileAccount(MAX_SCHEMA_COMPILE_COST, "the schema");
    const accounts = listing === undefined ? [schemaAccount] : [schemaAccount, listing];
    const shape = schemaShape(schema, MAX_SCHEMA_COMPILE_COST / SCHEMA_OBJECT_COST);
    // Ajv's code nests as the objects do, and the engine cannot compile code nested a few
    // hundred deep (500 levels overflowed its stack after 0.3 s of compiling).
    if (shape.depth > MAX_SCHEMA_DEPTH) {
      throw new Error(`its objects nest ${shape.depth} deep, over ${MAX_SCHEMA_DEPTH}`);
    }
    if (shape.nesting > MAX_SCHEMA_NESTING) {
      throw new Error(
        `its objects and arrays nest ${shape.nesting} deep, over ${MAX_SCHEMA_NESTING}`,
      );
    }
    // Arguments are not measured: the core refuses them past the same depth.
    measureDepth = boundsDepth && shape.followsValues;
    const cost = shape.objects * SCHEMA_OBJECT_COST + shape.crowding;
    for (const account of accounts) account.charge(cost, undefined);
    const options =
      regExp === undefined
        ? AJV_OPTIONS
        : { ...AJV_OPTIONS, code: { ...AJV_OPTIONS.code, regExp } };
    const dialect = dialectOf(schema);
    const validator = new ajv[dialect](options);
    useDependencyMacros(validator, dialect !== "draft07");
    // Each application of a schema object counts: `$ref` can apply one exponentially often.
    const first = firstRule(validator);
    validator.addKeyword({
      keyword: STEP_KEYWORD,
      schemaType: "number",
      errors: false,
      // Counted before any other keyword of the object can fail it.
      ...(first === undefined ? {} : { before: first }),
      validate: meter.step,
    });
    validator.addKeyword({
      keyword: UNIQUE_KEYWORD,
      type: "array",
      schemaType: "boolean",
      errors: true,
      validate: uniqueItemsCheck((steps) => meter.add(steps)),
    });
    const metered = meteredSchema(schema);
    schemaWeight = metered.weight;
    const compiling = regExp?.compiling;
    validate =
      compiling === undefined
        ? validator.compile(metered.schema as object)
        : compiling(() => validator.compile(metered.schema as object), accounts);
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : "the schema could not be compiled";
    return { ok: false, reason: cutText(oneLine(message), 200, () => "…") };
  }
  // An $async schema answers with a Promise; the boundary validates synchronously, before effects.
  if ((validate as { $async?: unknown }).$async === true) {
    return { ok: false, reason: "an $async schema cannot be checked before the call" };
  }
  // The engine compiles the generated code on its first run, and a schema of a couple of
  // thousand nested subschemas overflows its stack there, again on every call (0.7 s each):
  // run once now, on a value that costs nothing to check, and refuse such a schema.
  try {
    validate(null);
  } catch (thrown) {
    if (thrown instanceof RangeError) {
      return { ok: false, reason: `its checking code nests too deeply to run (${thrown.message})` };
    }
  }
  const metered = regExp?.metered;
  return {
    ok: true,
    check: (value) => {
      // A check that follows the value down recurses once per level of it: bounded first.
      if (measureDepth && nestsDeeperThan(value, MAX_CHECKED_DEPTH)) {
        return { kind: "too-deep", stack: false };
      }
      let valid: boolean;
      // Each check gets the whole step and pattern budgets, whatever else ran in this turn.
      meter.steps = 0;
      try {
        valid =
          metered === undefined
            ? validate(value) === true
            : metered(() => validate(value) === true);
      } catch (thrown) {
        if (thrown instanceof SchemaWorkExceeded) {
          // The values' weight times the schema's far under the steps taken: the schema's
          // definitions apply each other many times over (2^60 times for `{ "x": 1 }`).
          const few = MAX_CHECK_STEPS / MULTIPLIED / Math.max(schemaWeight, 1);
          const { values, weight } = weighValues(value, few);
          const multiplied = weight <= few ? values : undefined;
          return { kind: "too-long", against: "schema", why: thrown.message, multiplied };
        }
        // The engine's stack ran out: `$ref` chains at every level, a value past what was
        // measured, or the platform's RegExp backtracking on a long string (patterns: "native").
        if (thrown instanceof RangeError) return { kind: "too-deep", stack: true };
        if (!(thrown instanceof PatternWorkExceeded)) throw thrown;
        return { kind: "too-long", against: "patterns", why: thrown.message };
      }
      return valid ? { kind: "valid" } : { kind: "invalid", error: validate.errors?.[0] };
    },
  };
}

/**
 * What {@link compileArgumentCheck} returns: a synchronous check, or why the schema cannot be used.
 *
 * @example
 * const compiled: ArgumentCheck = compileArgumentCheck(ajv, schema, await linearTimePatterns());
 * if (!compiled.ok) console.error(compiled.reason);
 */
export type ArgumentCheck =
  | { readonly ok: true; readonly check: (input: unknown) => string | undefined }
  | { readonly ok: false; readonly reason: string };

/** Why a value could not be checked when the engine's stack ran out (see compileSchema). */
const OUT_OF_STACK = "its check runs out of the engine's stack";

/** A compiled schema's check that answers undefined when valid, else what `answer` says of the verdict. */
function answering(
  compiled: CompiledSchema,
  answer: (verdict: Exclude<Verdict, { readonly kind: "valid" }>) => string,
): ArgumentCheck {
  if (!compiled.ok) return compiled;
  return {
    ok: true,
    check: (value) => {
      const verdict = compiled.check(value);
      return verdict.kind === "valid" ? undefined : answer(verdict);
    },
  };
}

/**
 * Compiles a Tool's `inputSchema` (see {@link compileSchema} for the
 * budgets). The check answers undefined for valid arguments, else one line
 * (at most {@link MAX_ARGUMENT_ERROR_CHARACTERS} code points) about the
 * first error, or that the arguments take too long to check; it throws
 * (the Tool's validation fails) when the schema's `$ref`s multiply its work
 * on arguments of a few values (see {@link MULTIPLIED}), or when the check
 * runs out of the engine's stack (the arguments are within the core's depth
 * bound, so their depth is not measured again). A schema Ajv
 * cannot compile (a `$ref` to another document, an `$async` schema, a
 * malformed keyword, a pattern `regExp` refuses) or over a budget is
 * answered with the reason. `regExp` runs the schema's patterns (see
 * linear-patterns.ts); undefined: the platform's RegExp.
 *
 * @example
 * const compiled = compileArgumentCheck(await loadAjv(), { type: "object", required: ["path"] }, await linearTimePatterns());
 * compiled.ok && compiled.check({}); // "arguments must have required property 'path'"
 */
export function compileArgumentCheck(
  ajv: AjvClasses,
  schema: Readonly<Record<string, unknown>>,
  regExp: PatternEngine | undefined,
  listing?: CompileAccount,
): ArgumentCheck {
  return answering(compileSchema(ajv, schema, regExp, listing, false), (verdict) => {
    if (verdict.kind === "invalid") return errorLine(verdict.error, "arguments");
    if (verdict.kind === "too-deep") {
      // Arguments are within the core's depth bound (so not measured here): the stack ran out
      // on the schema's `$ref` chains, or on the platform's backtracking (patterns: "native").
      throw new Error(`the Tool's input schema cannot check these arguments: ${OUT_OF_STACK}`);
    }
    if (verdict.against === "patterns") {
      return `arguments take too long to check against the Tool's patterns (${verdict.why}); send shorter or fewer strings`;
    }
    if (verdict.multiplied !== undefined) {
      // The server's schema is at fault, not the arguments: the Tool's validation fails.
      throw new Error(
        `the Tool's input schema cannot check ${verdict.multiplied} values within ${MAX_CHECK_STEPS} steps: its definitions apply each other many times over`,
      );
    }
    return `arguments take too long to check against the Tool's schema (${verdict.why}); send fewer values`;
  });
}

/**
 * Compiles a Tool's `outputSchema`, within the same budgets as its input
 * schema (and its listing's). The check answers undefined for structured
 * content that matches, else why not, as one line: the server's fault, for
 * the Tool's failure. Against a schema with a `$ref` or `uniqueItems`, content
 * nested past {@link MAX_CHECKED_DEPTH} is refused before Ajv runs on it, and
 * a check that runs out of the engine's stack is answered too.
 *
 * @example
 * const compiled = compileOutputCheck(await loadAjv(), { type: "object", required: ["sum"] }, undefined);
 * compiled.ok && compiled.check({}); // "the server's structured content does not match the Tool's output schema: structuredContent must have required property 'sum'"
 */
export function compileOutputCheck(
  ajv: AjvClasses,
  schema: Readonly<Record<string, unknown>>,
  regExp: PatternEngine | undefined,
  listing?: CompileAccount,
): ArgumentCheck {
  return answering(compileSchema(ajv, schema, regExp, listing, true), (verdict) => {
    if (verdict.kind === "invalid") {
      return `the server's structured content does not match the Tool's output schema: ${errorLine(verdict.error, "structuredContent")}`;
    }
    if (verdict.kind === "too-long") {
      return `the server's structured content takes too long to check against the Tool's output schema (${verdict.why})`;
    }
    return verdict.stack
      ? `the server's structured content cannot be checked against the Tool's output schema: ${OUT_OF_STACK}`
      : `the server's structured content nests over ${MAX_CHECKED_DEPTH} levels deep, too deep to check against the Tool's output schema`;
  });
}

/**
 * Compiles any schema within the same budgets, for a validator of our own
 * (see bounded-validator.ts). The check answers undefined for a value that
 * matches, else one line in Ajv's words (`data/sum must be number`), or that
 * it takes too long to check, nests too deep to check (past
 * {@link MAX_CHECKED_DEPTH}, against a schema with a `$ref` or `uniqueItems`)
 * or runs out of the engine's stack.
 *
 * @example
 * const compiled = compileValueCheck(await loadAjv(), { type: "number" }, undefined);
 * compiled.ok && compiled.check("1"); // "data must be number"
 */
export function compileValueCheck(
  ajv: AjvClasses,
  schema: Readonly<Record<string, unknown>>,
  regExp: PatternEngine | undefined,
  listing?: CompileAccount,
): ArgumentCheck {
  return answering(compileSchema(ajv, schema, regExp, listing, true), (verdict) => {
    if (verdict.kind === "invalid") return errorLine(verdict.error, "data");
    if (verdict.kind === "too-long") return `checking it takes too long (${verdict.why})`;
    return verdict.stack
      ? `it cannot be checked: ${OUT_OF_STACK}`
      : `it nests over ${MAX_CHECKED_DEPTH} levels deep, too deep to check`;
  });
}
