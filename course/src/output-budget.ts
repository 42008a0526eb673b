/**
 * Output budgets sized by the host: how much of a Tool's output reaches the
 * transcript, which end of a long text is kept, and where the full output may
 * go. Settings are given per registry, per Tool (definition fields) and per
 * call; the narrowest level that sets a field wins. With nothing configured at
 * any level, every result is exactly the course's.
 */

import { contractError } from "./errors.js";
import {
  freeze,
  getPrototypeOf,
  hasOwn,
  isProxy,
  isSafeInteger,
  NativeTypeError,
  ObjectPrototype,
  stringSlice,
} from "./intrinsics.js";
import { MISSING, readOwnValue } from "./own-fields.js";

/**
 * Limits on what a Tool's output may become, each a positive safe integer
 * within {@link OUTPUT_BUDGET_RANGES}; any subset. A field left out takes the
 * next level's value, and finally the course's.
 *
 * - `maxCharacters`: the final content, in Unicode code points, marker
 *   included (course: 4096; 1,024 to 10,000,000).
 * - `maxDepth`: nesting of objects and arrays (course: 32; at most 1,000).
 * - `maxNodes`: values visited, the root included (course: 128).
 * - `maxEntries`: array slots plus enumerated keys, over the whole output (course: 256).
 * - `maxStringCharacters`: code points taken from keys, strings and BigInt text (course: 4096).
 * - `maxBigIntBits`: a BigInt is written only below 2 to this power (course: 4096; at most 65,536).
 *
 * Three more bound the parts of a `toolContent` value (the course has none;
 * the defaults are {@link PART_BUDGET_DEFAULTS}):
 *
 * - `maxParts`: parts read, text and binary alike (default 20; 1 to 1,000).
 * - `maxPartBytes`: bytes of one image, audio or file part (default
 *   5,242,880, 5 MiB; 1 to 104,857,600).
 * - `maxTotalBytes`: bytes of all binary parts kept (default 20,971,520,
 *   20 MiB; 1 to 268,435,456).
 *
 * @example
 * const budget: OutputBudget = { maxCharacters: 50_000, maxStringCharacters: 50_000 };
 * const screenshots: OutputBudget = { maxParts: 4, maxPartBytes: 2_000_000 };
 */
export interface OutputBudget {
  readonly maxCharacters?: number;
  readonly maxDepth?: number;
  readonly maxNodes?: number;
  readonly maxEntries?: number;
  readonly maxStringCharacters?: number;
  readonly maxBigIntBits?: number;
  readonly maxParts?: number;
  readonly maxPartBytes?: number;
  readonly maxTotalBytes?: number;
}

/**
 * Which part of a long top-level string is kept: the start (`head`, the
 * default), the end (`tail`: logs, test output), or both ends with the marker
 * between them (`head-and-tail`). Structured output always keeps the head (a
 * JSON prefix).
 */
export type TruncateStrategy = "head" | "tail" | "head-and-tail";

/** The budget fields, in the order they are read. */
export const OUTPUT_BUDGET_FIELDS = [
  "maxCharacters",
  "maxDepth",
  "maxNodes",
  "maxEntries",
  "maxStringCharacters",
  "maxBigIntBits",
  "maxParts",
  "maxPartBytes",
  "maxTotalBytes",
] as const;

/** A budget field's name. */
export type OutputBudgetField = (typeof OUTPUT_BUDGET_FIELDS)[number];

/**
 * The smallest and largest value each budget field accepts. The floor of
 * `maxCharacters` leaves room for the longest marker (a spill reference
 * included) beside real content; the ceilings keep one call's memory and time
 * bounded (`maxDepth` also bounds the serializer's recursion, `maxBigIntBits`
 * the cost of writing a BigInt in decimal, the byte ceilings the base64 text
 * of a result's parts).
 */
export const OUTPUT_BUDGET_RANGES: {
  readonly [Field in OutputBudgetField]: readonly [number, number];
} = freeze({
  maxCharacters: freeze([1_024, 10_000_000] as const),
  maxDepth: freeze([1, 1_000] as const),
  maxNodes: freeze([1, 10_000_000] as const),
  maxEntries: freeze([1, 10_000_000] as const),
  maxStringCharacters: freeze([1, 10_000_000] as const),
  maxBigIntBits: freeze([1, 65_536] as const),
  maxParts: freeze([1, 1_000] as const),
  maxPartBytes: freeze([1, 104_857_600] as const),
  maxTotalBytes: freeze([1, 268_435_456] as const),
});

/**
 * The part budgets of a `toolContent` value when no level sets them, chosen
 * from what the providers accept in one request: Anthropic takes images of
 * at most 5 MB each (the strictest per-image limit of the four) in requests
 * of at most 32 MB, Gemini takes at most 20 MB of inline data per request,
 * and 20 MB of bytes is about 27 MB once written as base64. Twenty parts
 * stay well under every provider's count of images per request. A host that
 * sends elsewhere (an MCP client, a local model) raises them.
 *
 * @example
 * PART_BUDGET_DEFAULTS.maxPartBytes; // 5242880
 */
export const PART_BUDGET_DEFAULTS: {
  readonly maxParts: number;
  readonly maxPartBytes: number;
  readonly maxTotalBytes: number;
} = freeze({ maxParts: 20, maxPartBytes: 5_242_880, maxTotalBytes: 20_971_520 });

/** The part budgets one `toolContent` value is rendered under. */
export interface PartLimits {
  readonly maxParts: number;
  readonly maxPartBytes: number;
  readonly maxTotalBytes: number;
}

/** Part limits from a budget's fields (`field` answers each, or undefined when no level set it). */
export function partLimitsFrom(
  field: (name: "maxParts" | "maxPartBytes" | "maxTotalBytes") => number | undefined,
): PartLimits {
  return freeze({
    maxParts: field("maxParts") ?? PART_BUDGET_DEFAULTS.maxParts,
    maxPartBytes: field("maxPartBytes") ?? PART_BUDGET_DEFAULTS.maxPartBytes,
    maxTotalBytes: field("maxTotalBytes") ?? PART_BUDGET_DEFAULTS.maxTotalBytes,
  });
}

/** Default `maxSpillCharacters`: the budget the full output is serialized under for a spill hook. */
export const DEFAULT_MAX_SPILL_CHARACTERS = 1_000_000;
/** The range `maxSpillCharacters` accepts. */
export const SPILL_CHARACTERS_RANGE: readonly [number, number] = freeze([1_024, 50_000_000]);

/** Thrown while reading a setting; the caller turns it into its own error type. */
type Refuse = (message: string) => never;

function rangeRule(name: string, range: readonly [number, number]): string {
  return `${name} must be an integer from ${range[0]} to ${range[1]}`;
}

/** Checks one integer setting; `undefined` stays unset. */
export function readRangedInteger(
  value: unknown,
  name: string,
  range: readonly [number, number],
  refuse: Refuse,
): number | undefined {
  if (value === undefined) return undefined;
  // Number.isSafeInteger never converts: a string or a boxed number fails it.
  if (!isSafeInteger(value) || (value as number) < range[0] || (value as number) > range[1]) {
    return refuse(rangeRule(name, range));
  }
  return value as number;
}

const MAX_NAME_IN_MESSAGE = 40;

/**
 * Reads an `outputBudget` setting: a plain (or null-prototype) object whose
 * own fields are read once each, in a fixed order; inherited fields are not
 * read, and an unknown own key (a typo) is refused. Returns a frozen,
 * null-prototype copy holding only the fields that were set, or undefined
 * when `value` is undefined. `where` names the setting in messages
 * (`outputBudget`, `Tool definition outputBudget`).
 */
export function readOutputBudget(
  value: unknown,
  where: string,
  refuse: Refuse,
): OutputBudget | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || isProxy(value)) {
    return refuse(`${where} must be a plain object (not a Proxy)`);
  }
  // Read without running anything (the value is no Proxy): a class instance, a Map or an
  // object on a Proxy prototype is refused before its chain can run code in the key walk.
  const proto = getPrototypeOf(value);
  if (proto !== ObjectPrototype && proto !== null) {
    return refuse(`${where} must be a plain object (not a Proxy)`);
  }
  // Null prototype: a field the host left out is never found on a polluted Object.prototype.
  const copy: { [Field in OutputBudgetField]?: number } = { __proto__: null } as never;
  for (let index = 0; index < OUTPUT_BUDGET_FIELDS.length; index += 1) {
    const field = OUTPUT_BUDGET_FIELDS[index] as OutputBudgetField;
    let raw: unknown;
    try {
      raw = readOwnValue(value, field);
    } catch {
      return refuse(`${where}.${field} threw when read`);
    }
    if (raw === MISSING) continue;
    const checked = readRangedInteger(
      raw,
      `${where}.${field}`,
      OUTPUT_BUDGET_RANGES[field],
      refuse,
    );
    if (checked !== undefined) copy[field] = checked;
  }
  // Lazy key walk, own keys only: a typo such as `maxChars` would otherwise be ignored silently.
  for (const key in value) {
    if (!hasOwn(value, key) || hasOwn(OUTPUT_BUDGET_RANGES, key)) continue;
    const shown =
      key.length > MAX_NAME_IN_MESSAGE ? `${stringSlice(key, 0, MAX_NAME_IN_MESSAGE)}…` : key;
    return refuse(
      `${where} has an unknown field "${shown}"; the fields are ${OUTPUT_BUDGET_FIELDS.join(", ")}`,
    );
  }
  return freeze(copy);
}

/** Reads a `truncate` setting; undefined stays unset. */
export function readTruncate(
  value: unknown,
  where: string,
  refuse: Refuse,
): TruncateStrategy | undefined {
  if (value === undefined || value === "head" || value === "tail" || value === "head-and-tail") {
    return value;
  }
  return refuse(`${where} must be "head", "tail" or "head-and-tail"`);
}

/** A refusal for a registry option: the registry constructor throws a TypeError. */
export const refuseRegistryOption: Refuse = (message) => {
  throw new NativeTypeError(`ToolRegistry options: ${message}`);
};

/** A refusal for a call option: ToolContractError INVALID_TOOL_CALL. */
export const refuseCallOption: Refuse = (message) => {
  throw contractError("INVALID_TOOL_CALL", message);
};

/** A refusal for a definition field: ToolContractError INVALID_TOOL_DEFINITION. */
export function refuseDefinitionField(label: string): Refuse {
  return (message) => {
    throw contractError("INVALID_TOOL_DEFINITION", `${label} ${message}`);
  };
}
