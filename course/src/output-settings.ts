/**
 * The output settings of one call, resolved from its three levels: the call's
 * options, the Tool's definition and the registry's options. Per field, the
 * narrowest level that sets it wins (call, then Tool, then registry, then the
 * course). When no level configures anything, there are no settings at all,
 * and the call is serialized exactly as the course serializes it.
 */

import { freeze, mathMax } from "./intrinsics.js";
import {
  DEFAULT_MAX_SPILL_CHARACTERS,
  type OutputBudget,
  type PartLimits,
  partLimitsFrom,
  readOutputBudget,
  readRangedInteger,
  readTruncate,
  SPILL_CHARACTERS_RANGE,
  type TruncateStrategy,
} from "./output-budget.js";
import { type OutputFormat, readFormat } from "./output-format.js";
import type { OutputLimitName, WalkLimits } from "./output-walk.js";
import { MISSING, readOwnValue } from "./own-fields.js";
import { limitsFrom } from "./serializer.js";

/**
 * What a spill hook is told about the output it receives.
 *
 * - `toolCallId`, `toolName`: the call the output belongs to.
 * - `limit`: the budget that cut the content the model reads.
 * - `truncated`: whether the spilled text was itself cut (at the spill
 *   budget), in which case it ends with its own marker.
 */
export interface OutputSpillInfo {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly limit: OutputLimitName;
  readonly truncated: boolean;
}

/**
 * A synchronous hook that receives the full output of a call whose content
 * was truncated (serialized under the spill budget, by the same rules) and may
 * return a short reference to where it put it (a file path, an artifact id),
 * at most 200 characters, without control characters, line or paragraph
 * separators, direction controls or brackets. The marker then names it.
 * Return `undefined` to name nothing.
 *
 * @example
 * // The call id comes from the model: never build a path from it (`../..`).
 * const spill: OutputSpill = (text) => {
 *   const path = join(outputDir, `${randomUUID()}.txt`);
 *   writeFileSync(path, text);
 *   return path;
 * };
 */
export type OutputSpill = (text: string, info: OutputSpillInfo) => string | undefined;

/** Receives, once, each failure of a spill hook (a throw or a bad answer). */
export type OutputSpillErrorHandler = (error: unknown, info: OutputSpillInfo) => unknown;

/**
 * Output settings a registry or a call may carry. Every field is optional.
 *
 * - `outputBudget`: limits on the content (see {@link OutputBudget}).
 * - `truncate`: which part of a long top-level string is kept. Default `"head"`.
 * - `spill`: a hook for the full output of a truncated result. Default none.
 * - `maxSpillCharacters`: the budget the spilled text is serialized under
 *   (characters, string characters, values and entries; never below the
 *   content's own). Default 1,000,000; from 1,024 to 50,000,000.
 * - `onSpillError`: receives each failure of `spill`, once. Default: a
 *   process warning named `ToolOutputSpillWarning`.
 * - `format`: `"json"` (the default, the course's text) or `"text"` (a
 *   string as itself, structured output as standard JSON); see
 *   {@link OutputFormat}.
 *
 * Any of `outputBudget`, `truncate` or `spill`, or `format: "text"`, at any
 * level, makes the markers say what was cut; without them, results are
 * exactly the course's.
 */
export interface OutputOptions {
  readonly outputBudget?: OutputBudget;
  readonly truncate?: TruncateStrategy;
  readonly spill?: OutputSpill;
  readonly maxSpillCharacters?: number;
  readonly onSpillError?: OutputSpillErrorHandler;
  readonly format?: OutputFormat;
}

/** One level's output settings after one read of each field and validation. */
export interface OutputLevel {
  readonly outputBudget: OutputBudget | undefined;
  readonly truncate: TruncateStrategy | undefined;
  readonly spill: OutputSpill | undefined;
  readonly maxSpillCharacters: number | undefined;
  readonly onSpillError: OutputSpillErrorHandler | undefined;
  readonly format: OutputFormat | undefined;
}

/** The output fields of a Tool definition as `defineTool` read them: all three, each possibly undefined. */
export interface ToolOutputFields {
  readonly outputBudget: OutputBudget | undefined;
  readonly truncate: TruncateStrategy | undefined;
  readonly format: OutputFormat | undefined;
}

/** Where a spilled text goes and under which budget it is written. */
export interface SpillSettings {
  readonly hook: OutputSpill;
  readonly limits: WalkLimits;
  readonly onError: OutputSpillErrorHandler | undefined;
}

/** A call's resolved output settings; absent when nothing is configured (the course path). */
export interface OutputSettings {
  readonly limits: WalkLimits;
  /** What error results are written under: the content's `maxCharacters`, the rest derived from it. */
  readonly errorLimits: WalkLimits;
  readonly truncate: TruncateStrategy;
  readonly spill: SpillSettings | undefined;
  readonly format: OutputFormat;
  /** The budgets of a `toolContent` value's parts. */
  readonly parts: PartLimits;
}

/** The output fields, in the order they are read. */
export const OUTPUT_OPTION_FIELDS = [
  "outputBudget",
  "truncate",
  "spill",
  "maxSpillCharacters",
  "onSpillError",
  "format",
] as const;

function readFunction<T>(value: unknown, name: string, refuse: (message: string) => never) {
  if (value === undefined) return undefined;
  if (typeof value !== "function") return refuse(`${name} must be a function`);
  return value as T;
}

/**
 * Reads the output fields of an options object once each, as own fields
 * (an own getter runs once; an inherited field, say one planted on
 * `Object.prototype`, is not read), and checks them. `failed` turns a getter's
 * throw into the level's own error, naming the field. Fields left unset stay
 * undefined; `resolveOutputSettings` decides whether anything was configured.
 */
export function readOutputLevel(
  options: object,
  refuse: (message: string) => never,
  failed: (key: string, thrown: unknown) => never,
): OutputLevel {
  const get = (_target: object, key: string): unknown => {
    let value: unknown;
    try {
      value = readOwnValue(options, key);
    } catch (thrown) {
      return failed(key, thrown);
    }
    return value === MISSING ? undefined : value;
  };
  const outputBudget = readOutputBudget(get(options, "outputBudget"), "outputBudget", refuse);
  const truncate = readTruncate(get(options, "truncate"), "truncate", refuse);
  const spill = readFunction<OutputSpill>(get(options, "spill"), "spill", refuse);
  const maxSpillCharacters = readRangedInteger(
    get(options, "maxSpillCharacters"),
    "maxSpillCharacters",
    SPILL_CHARACTERS_RANGE,
    refuse,
  );
  const onSpillError = readFunction<OutputSpillErrorHandler>(
    get(options, "onSpillError"),
    "onSpillError",
    refuse,
  );
  const format = readFormat(get(options, "format"), "format", refuse);
  return freeze({ outputBudget, truncate, spill, maxSpillCharacters, onSpillError, format });
}

/** The first of three values that is set. */
function first<T>(call: T | undefined, tool: T | undefined, registry: T | undefined) {
  return call !== undefined ? call : tool !== undefined ? tool : registry;
}

/**
 * Resolves a call's output settings. Undefined when no level sets a budget,
 * a strategy or a spill hook, and the format resolves to `"json"`: then the
 * course's budgets and marker apply, byte for byte.
 */
export function resolveOutputSettings(
  call: OutputLevel | undefined,
  tool: ToolOutputFields | undefined,
  registry: OutputLevel | undefined,
): OutputSettings | undefined {
  // Nothing configured at any level (the course's path): answered before the closures
  // below, whose shared context the engine would otherwise allocate on every call.
  if (call === undefined && tool === undefined && registry === undefined) return undefined;
  return resolveLevels(call, tool, registry);
}

function resolveLevels(
  call: OutputLevel | undefined,
  tool: ToolOutputFields | undefined,
  registry: OutputLevel | undefined,
): OutputSettings | undefined {
  const callBudget = call?.outputBudget;
  // The Tool's fields as defineTool read them (own fields of the definition, each once):
  // a frozen object holding all three as own fields, so no read reaches a prototype.
  const toolBudget = tool?.outputBudget;
  const toolTruncate = tool?.truncate;
  const toolFormat = tool?.format;
  const registryBudget = registry?.outputBudget;
  const truncate = first(call?.truncate, toolTruncate, registry?.truncate);
  const hook = first(call?.spill, undefined, registry?.spill);
  const format = first(call?.format, toolFormat, registry?.format) ?? "json";
  if (
    callBudget === undefined &&
    toolBudget === undefined &&
    registryBudget === undefined &&
    truncate === undefined &&
    hook === undefined &&
    format === "json"
  ) {
    return undefined;
  }
  const limits = limitsFrom((field) =>
    first(callBudget?.[field], toolBudget?.[field], registryBudget?.[field]),
  );
  let spill: SpillSettings | undefined;
  if (hook !== undefined) {
    const characters =
      first(call?.maxSpillCharacters, undefined, registry?.maxSpillCharacters) ??
      DEFAULT_MAX_SPILL_CHARACTERS;
    spill = freeze({
      hook,
      // Never a smaller budget than the content's own: the spill is the full output.
      limits: freeze({
        maxCharacters: mathMax(characters, limits.maxCharacters),
        maxDepth: limits.maxDepth,
        maxNodes: mathMax(characters, limits.maxNodes),
        maxEntries: mathMax(characters, limits.maxEntries),
        maxStringCharacters: mathMax(characters, limits.maxStringCharacters),
        maxBigIntBits: limits.maxBigIntBits,
      }),
      onError: first(call?.onSpillError, undefined, registry?.onSpillError),
    });
  }
  // Error results keep their code: only the character cap applies to them (a depth or
  // string budget small enough to cut a Tool's output must not cut the error's fields).
  const errorLimits = limitsFrom((field) =>
    field === "maxCharacters" ? limits.maxCharacters : undefined,
  );
  const parts = partLimitsFrom((field) =>
    first(callBudget?.[field], toolBudget?.[field], registryBudget?.[field]),
  );
  return freeze({ limits, errorLimits, truncate: truncate ?? "head", spill, format, parts });
}
