/**
 * The bounded serializer: turns a Tool's output into transcript text without
 * running any of the output's code, and with work bounded by fixed budgets.
 * The walk itself is in `output-walk.ts`, configured cuts in `output-draft.ts`.
 */

import { freeze, hasOwn, isProxy, mathMax, NativeTypeError } from "./intrinsics.js";
import { firstCodePoints } from "./json-text.js";
import {
  type OutputBudget,
  readOutputBudget,
  readTruncate,
  type TruncateStrategy,
} from "./output-budget.js";
import { type CutStrategy, draftFrom, draftOutput } from "./output-draft.js";
import { type OutputFormat, readFormat, structuredStyle } from "./output-format.js";
import {
  liveHasOwn,
  runWalk,
  Walk,
  type WalkLimits,
  type WalkResult,
  walkValue,
} from "./output-walk.js";
import { MISSING, readOwnValue } from "./own-fields.js";

/** Final `content` cap in Unicode code points, the truncation marker included. */
export const COURSE_TOOL_OUTPUT_CAP_CHARACTERS = 4096;
/** Appended once, at the end, whenever anything was cut. */
export const COURSE_TOOL_TRUNCATION_MARKER = "\n[Tool output truncated]";
/** Deepest nesting of objects and arrays the serializer enters. */
export const COURSE_TOOL_SERIALIZATION_MAX_DEPTH = 32;
/** Values visited, the root included. */
export const COURSE_TOOL_SERIALIZATION_MAX_NODES = 128;
/** Array slots plus enumerated keys (inherited enumerable keys included), summed over the output. */
export const COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES = 256;
/** Code points consumed from keys, strings and BigInt text, summed over the output. */
export const COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS = 4096;
/** A BigInt is written only when its magnitude is below 2 ** this. */
export const COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS = 4096;

const MARKER_CODE_POINTS = 24; // "\n[Tool output truncated]"
const KEPT_BEFORE_MARKER = COURSE_TOOL_OUTPUT_CAP_CHARACTERS - MARKER_CODE_POINTS;

/** The course's budgets. */
export const COURSE_LIMITS: WalkLimits = freeze({
  maxCharacters: COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  maxDepth: COURSE_TOOL_SERIALIZATION_MAX_DEPTH,
  maxNodes: COURSE_TOOL_SERIALIZATION_MAX_NODES,
  maxEntries: COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  maxStringCharacters: COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS,
  maxBigIntBits: COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS,
});

/** The serializer's verdict: text (possibly truncated), or why the output was refused. */
export type SerializedOutput =
  | { readonly ok: true; readonly content: string; readonly truncated: boolean }
  | { readonly ok: false; readonly message: string };

/** The course's cut: the first 4072 code points written, then the course's marker. */
export function courseResult(result: WalkResult): SerializedOutput {
  if (result.kind === "refused") return { ok: false, message: result.message };
  if (result.kind === "whole") return { ok: true, content: result.content, truncated: false };
  return { ok: true, content: courseCut(result.walk), truncated: true };
}

function courseCut(walk: Walk): string {
  // `written` counts the code points of `out`: a walk cut early (by depth, say) keeps it all.
  const kept =
    walk.written <= KEPT_BEFORE_MARKER ? walk.out : firstCodePoints(walk.out, KEPT_BEFORE_MARKER);
  return kept + COURSE_TOOL_TRUNCATION_MARKER;
}

/** A serialization that failed, with why. */
export type SerializationRefused = Extract<SerializedOutput, { readonly ok: false }>;

/**
 * What `serializeToolOutput(value)` answers, without its result object when
 * it succeeds: the content (possibly cut, with the course's marker), or the
 * refusal. The path of every call with nothing configured, so it makes
 * neither a walk result nor a serialized one.
 */
export function courseContent(value: unknown): string | SerializationRefused {
  const walk = new Walk(liveHasOwn, COURSE_LIMITS);
  const refusal = runWalk(walk, value);
  if (refusal !== undefined) return { ok: false, message: refusal };
  return walk.limit === undefined ? walk.out : courseCut(walk);
}

/**
 * Serializes a Tool's output deterministically and within every budget.
 * Never runs a getter, `toJSON` or a collection method, nor any trap of a
 * Proxy value; the only user code it may reach is one `getPrototypeOf` trap
 * of a Proxy *prototype* (read once, then refused; see `containers.ts`) and
 * the global `Object.hasOwn`, called once per key yielded by `for…in` (the
 * course counts these calls). A budget truncates (with the marker, once), an
 * unsupported value is refused. Without `options`, the course's budgets and
 * marker; with them, a configured budget (see {@link SerializeOptions}); a bad
 * option is a TypeError naming it. It throws only what that one trap or a
 * patched `Object.hasOwn` throws (`executeToolCall` turns such a throw into
 * `TOOL_OUTPUT_SERIALIZATION_FAILED`).
 *
 * @example
 * serializeToolOutput({ b: 1, a: [true, null] }); // { ok: true, content: '{"a":[true,null],"b":1}', truncated: false }
 * serializeToolOutput(log, { outputBudget: { maxCharacters: 50_000 }, truncate: "tail" });
 */
export function serializeToolOutput(value: unknown, options?: SerializeOptions): SerializedOutput {
  if (options === undefined) return courseResult(walkValue(value, COURSE_LIMITS, liveHasOwn));
  // Read by index: destructuring would run the live array iterator (see exoticKind).
  const read = readSerializeOptions(options);
  const draft = draftOutput(value, read[0], read[1], read[2]);
  if (draft.kind === "refused") return { ok: false, message: draft.message };
  if (draft.kind === "whole") return { ok: true, content: draft.content, truncated: false };
  return { ok: true, content: draft.finish(undefined), truncated: true };
}

/**
 * Settings for {@link serializeToolOutput} outside a call: a budget (see
 * `limitsFrom` for the fields left out; the part budgets do not apply), a
 * strategy for long top-level strings and the output format (default
 * `"json"`). Given at all, even empty, they make a cut say what was cut.
 */
export interface SerializeOptions {
  readonly outputBudget?: OutputBudget;
  readonly truncate?: TruncateStrategy;
  readonly format?: OutputFormat;
}

const refuseSerializeOption = (message: string): never => {
  throw new NativeTypeError(`serializeToolOutput options: ${message}`);
};

function readSerializeOptions(options: unknown): readonly [WalkLimits, CutStrategy, OutputFormat] {
  if (typeof options !== "object" || options === null || isProxy(options)) {
    return refuseSerializeOption("must be a plain object (not a Proxy)");
  }
  // Own fields, read once each; a getter's throw is refused naming the field.
  const read = (key: string): unknown => {
    let value: unknown;
    try {
      value = readOwnValue(options, key);
    } catch (thrown) {
      throw new NativeTypeError(`serializeToolOutput options: ${key} threw when read`, {
        cause: thrown,
      });
    }
    return value === MISSING ? undefined : value;
  };
  const budget = readOutputBudget(read("outputBudget"), "outputBudget", refuseSerializeOption);
  const strategy = readTruncate(read("truncate"), "truncate", refuseSerializeOption);
  const format = readFormat(read("format"), "format", refuseSerializeOption);
  return [limitsFrom((name) => budget?.[name]), strategy ?? "head", format ?? "json"];
}

/**
 * Limits from a budget's fields (`field` answers each, or undefined when no
 * level set it). An unset field takes the course's value, except that the
 * string, value and entry budgets grow with a raised `maxCharacters`: a
 * 50,000-character budget would be pointless if a string still stopped at
 * 4,096 code points or a list at 256 entries, and the walk's work stays
 * bounded by `maxCharacters` either way.
 */
export function limitsFrom(field: (name: keyof OutputBudget) => number | undefined): WalkLimits {
  const maxCharacters = field("maxCharacters") ?? COURSE_LIMITS.maxCharacters;
  const grown = (course: number): number => mathMax(maxCharacters, course);
  return freeze({
    maxCharacters,
    maxDepth: field("maxDepth") ?? COURSE_LIMITS.maxDepth,
    maxNodes: field("maxNodes") ?? grown(COURSE_LIMITS.maxNodes),
    maxEntries: field("maxEntries") ?? grown(COURSE_LIMITS.maxEntries),
    maxStringCharacters: field("maxStringCharacters") ?? grown(COURSE_LIMITS.maxStringCharacters),
    maxBigIntBits: field("maxBigIntBits") ?? COURSE_LIMITS.maxBigIntBits,
  });
}

/**
 * Serializes a value this module built itself (an error result's
 * null-prototype `{ error: { code, message } }`) with the captured own-key
 * check: the same text as `serializeToolOutput`, which a patched global
 * `Object.hasOwn` cannot empty. `limits` are a configured budget's, or the
 * course's; `format` (with a configured budget) picks the escapes.
 */
export function serializeTrusted(
  value: unknown,
  limits?: WalkLimits,
  format: OutputFormat = "json",
): SerializedOutput {
  if (limits === undefined) return courseResult(walkValue(value, COURSE_LIMITS, hasOwn));
  const draft = draftFrom(walkValue(value, limits, hasOwn, structuredStyle(format)), limits);
  if (draft.kind === "refused") return { ok: false, message: draft.message };
  if (draft.kind === "whole") return { ok: true, content: draft.content, truncated: false };
  return { ok: true, content: draft.finish(undefined), truncated: true };
}
