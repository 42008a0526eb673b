/**
 * The bounded serializer: turns a Tool's output into transcript text without
 * running any of the output's code, and with work bounded by fixed budgets.
 */

import { containerKind, describeExotic } from "./containers.ts";
import {
  freeze,
  getOwnPropertyDescriptor,
  hasOwn,
  isProxy,
  mathMax,
  NativeSet,
  NativeTypeError,
  numberIsFinite,
  setAdd,
  setDelete,
  setHas,
} from "./intrinsics.ts";
import { formatJsonPath } from "./json-path.ts";
import {
  codePointCount,
  escapeRange,
  firstCodePoints,
  isPlainText,
  measureHead,
  measureTail,
  type TextSpan,
} from "./json-text.ts";
import { sortKeys } from "./key-sort.ts";
import {
  type OutputBudget,
  readOutputBudget,
  readTruncate,
  type TruncateStrategy,
} from "./output-budget.ts";
import { MISSING, readOwnValue } from "./own-fields.ts";
import { structuredMarker, textMarker } from "./truncation-markers.ts";

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

/** Which budget cut the output: named in a configured marker. */
export type OutputLimitName =
  | "characters"
  | "depth"
  | "values"
  | "entries"
  | "string characters"
  | "BigInt size";

/** The budgets one walk obeys; the course's unless the host configured others. */
export interface WalkLimits {
  readonly maxCharacters: number;
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxEntries: number;
  readonly maxStringCharacters: number;
  readonly maxBigIntBits: number;
}

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

/** Thrown inside the walk when a budget runs out; never leaves this module. */
const TRUNCATED: unique symbol = Symbol("truncated");

/** Thrown inside the walk for a value that cannot be written; never leaves this module. */
class Refusal {
  constructor(readonly message: string) {}
}

/**
 * The own-key check of the object walk: the global `Object.hasOwn` as it is at
 * call time. The course counts these calls (one per key `for…in` yields,
 * inherited keys included, whose first argument is the object walked), so it
 * must be the live global, called exactly once per key. The defence holds
 * another way: the value is read afterwards through the captured descriptor
 * read, so a patched `Object.hasOwn` can only make a key be skipped (answer
 * false) or add nothing (answer true for an inherited key or an accessor,
 * whose captured descriptor read then finds no own data value).
 */
const liveHasOwn = (target: object, key: string): boolean => Object.hasOwn(target, key);

/** Deeper than this, the cycle check uses a Set instead of scanning the path. */
const PATH_SCAN_DEPTH = 64;

class Walk {
  out = "";
  written = 0;
  nodes = 0;
  visits = 0;
  depth = 0;
  stringLeft: number;
  /** Which budget cut the walk, once one did. */
  limit: OutputLimitName | undefined;
  /** A top-level array's length (known at no cost), else -1. */
  rootArrayLength = -1;
  readonly cap: number;
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxEntries: number;
  readonly bigIntLimit: bigint;
  // The containers on the current path (for cycles) and the keys leading to them (for messages).
  readonly ancestors: object[] = [];
  readonly path: (string | number)[] = [];
  // The same containers as a set, for walks allowed deeper than a scan stays cheap.
  readonly onPath: Set<object> | undefined;

  /** `ownKey` decides which enumerated keys are own: the live global for Tool output. */
  constructor(
    readonly ownKey: (target: object, key: string) => boolean,
    limits: WalkLimits,
  ) {
    this.cap = limits.maxCharacters;
    this.maxDepth = limits.maxDepth;
    this.maxNodes = limits.maxNodes;
    this.maxEntries = limits.maxEntries;
    this.stringLeft = limits.maxStringCharacters;
    this.bigIntLimit = 1n << BigInt(limits.maxBigIntBits);
    this.onPath = limits.maxDepth > PATH_SCAN_DEPTH ? new NativeSet<object>() : undefined;
  }

  cut(limit: OutputLimitName): never {
    this.limit = limit;
    throw TRUNCATED;
  }

  append(text: string, codePoints: number): void {
    this.out += text;
    this.written += codePoints;
    if (this.written > this.cap) this.cut("characters");
  }

  visitEntry(): void {
    this.visits += 1;
    if (this.visits > this.maxEntries) this.cut("entries");
  }

  refuse(reason: string): never {
    throw new Refusal(`${formatJsonPath(this.path, this.depth)}: ${reason}`);
  }

  /** Writes a JSON string, consuming one unit of the string budget per code point. */
  string(text: string): void {
    this.append('"', 1);
    const length = text.length;
    if (length <= this.stringLeft && isPlainText(text, length)) {
      this.stringLeft -= length;
      this.append(text, length);
      this.append('"', 1);
      return;
    }
    // Slow path: measure how far the string budget reaches (at most `stringLeft + 1`
    // code points are looked at, however long the text), then write that span with
    // one copy per run of characters that need no escaping.
    const span = measureHead(text, Number.POSITIVE_INFINITY, this.stringLeft);
    this.stringLeft -= span.taken;
    this.append(escapeRange(text, 0, span.units), span.written);
    if (span.units < length) this.cut("string characters");
    this.append('"', 1);
  }

  value(value: unknown): void {
    this.nodes += 1;
    if (this.nodes > this.maxNodes) this.cut("values");
    switch (typeof value) {
      case "string":
        return this.string(value);
      case "number":
        if (!numberIsFinite(value)) return this.append("null", 4);
        // No case of its own for -0: a template literal writes it as "0" already.
        return this.literal(`${value}`);
      case "boolean":
        return value ? this.append("true", 4) : this.append("false", 5);
      case "bigint":
        // Compared before any decimal conversion, so a huge BigInt costs nothing.
        if (value >= this.bigIntLimit || value <= -this.bigIntLimit) this.cut("BigInt size");
        return this.string(`${value}n`);
      case "undefined":
        return this.append('"[Undefined]"', 13);
      case "symbol":
        return this.append('"[Symbol]"', 10);
      case "function":
        // A callable Proxy is still a Proxy: refused before typeof-based handling.
        if (isProxy(value)) this.refuse("Proxy objects are not supported");
        return this.append('"[Function]"', 12);
      default:
        if (value === null) return this.append("null", 4);
        return this.container(value as object);
    }
  }

  literal(text: string): void {
    this.append(text, text.length);
  }

  onCurrentPath(value: object): boolean {
    if (this.onPath !== undefined) return setHas(this.onPath, value);
    for (let index = 0; index < this.depth; index += 1) {
      if (this.ancestors[index] === value) return true;
    }
    return false;
  }

  container(value: object): void {
    // Checked before anything else touches it: every later step could hit a trap.
    if (isProxy(value)) this.refuse("Proxy objects are not supported");
    if (this.onCurrentPath(value)) return this.append('"[Circular]"', 12);
    const kind = containerKind(value);
    if (kind === "exotic") this.refuse(describeExotic(value));
    if (this.depth >= this.maxDepth) this.cut("depth");
    // One record of the path, not two: the set when the walk may go deep, else the scanned list.
    if (this.onPath !== undefined) setAdd(this.onPath, value);
    else this.ancestors[this.depth] = value;
    this.depth += 1;
    if (kind === "array") this.array(value as readonly unknown[]);
    else this.object(value);
    this.depth -= 1;
    if (this.onPath !== undefined) setDelete(this.onPath, value);
  }

  array(value: readonly unknown[]): void {
    const length = value.length;
    if (this.depth === 1) this.rootArrayLength = length;
    this.append("[", 1);
    for (let index = 0; index < length; index += 1) {
      this.visitEntry();
      if (index > 0) this.append(",", 1);
      const slot = getOwnPropertyDescriptor(value, index);
      if (slot === undefined) this.append('"[Empty]"', 9);
      else if (!hasOwn(slot, "value")) this.append('"[Accessor omitted]"', 20);
      else {
        this.path[this.depth] = index;
        this.value(slot.value);
      }
    }
    this.append("]", 1);
  }

  object(value: object): void {
    this.append("{", 1);
    const keys: string[] = [];
    // Lazy: for…in yields one key at a time, so a huge object costs only the budget.
    for (const key in value) {
      this.visitEntry();
      // After the visit is counted: the key past the budget is never checked.
      if (this.ownKey(value, key)) keys[keys.length] = key;
    }
    sortKeys(keys);
    let written = 0;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      // Read when written, not when collected: a key past the cap costs no descriptor.
      // Inherited keys were skipped above; accessors are left out without running them.
      const property = getOwnPropertyDescriptor(value, key);
      if (property === undefined || !hasOwn(property, "value")) continue;
      if (written > 0) this.append(",", 1);
      written += 1;
      this.string(key);
      this.append(":", 1);
      this.path[this.depth] = key;
      this.value(property.value);
    }
    this.append("}", 1);
  }
}

/** How one walk ended: refused, whole, or cut by a budget with what was written so far. */
type WalkResult =
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "whole"; readonly content: string }
  | { readonly kind: "cut"; readonly walk: Walk; readonly limit: OutputLimitName };

function walkValue(
  value: unknown,
  limits: WalkLimits,
  ownKey: (target: object, key: string) => boolean,
): WalkResult {
  const walk = new Walk(ownKey, limits);
  try {
    walk.value(value);
  } catch (thrown) {
    if (thrown instanceof Refusal) return { kind: "refused", message: thrown.message };
    if (thrown !== TRUNCATED) throw thrown;
    return { kind: "cut", walk, limit: walk.limit as OutputLimitName };
  }
  return { kind: "whole", content: walk.out };
}

/** The course's cut: the first 4072 code points written, then the course's marker. */
function courseResult(result: WalkResult): SerializedOutput {
  if (result.kind === "refused") return { ok: false, message: result.message };
  if (result.kind === "whole") return { ok: true, content: result.content, truncated: false };
  const kept = firstCodePoints(result.walk.out, KEPT_BEFORE_MARKER);
  return { ok: true, content: kept + COURSE_TOOL_TRUNCATION_MARKER, truncated: true };
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
  const [limits, strategy] = readSerializeOptions(options);
  const draft = draftOutput(value, limits, strategy);
  if (draft.kind === "refused") return { ok: false, message: draft.message };
  if (draft.kind === "whole") return { ok: true, content: draft.content, truncated: false };
  return { ok: true, content: draft.finish(undefined), truncated: true };
}

/**
 * Settings for {@link serializeToolOutput} outside a call: a budget (see
 * `limitsFrom` for the fields left out) and a strategy for long top-level
 * strings. Given at all, even empty, they make a cut say what was cut.
 */
export interface SerializeOptions {
  readonly outputBudget?: OutputBudget;
  readonly truncate?: TruncateStrategy;
}

const refuseSerializeOption = (message: string): never => {
  throw new NativeTypeError(`serializeToolOutput options: ${message}`);
};

function readSerializeOptions(options: unknown): readonly [WalkLimits, CutStrategy] {
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
  return [limitsFrom((name) => budget?.[name]), strategy ?? "head"];
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
 * `Object.hasOwn` cannot empty. `limits` are a configured budget's, or the course's.
 */
export function serializeTrusted(value: unknown, limits?: WalkLimits): SerializedOutput {
  if (limits === undefined) return courseResult(walkValue(value, COURSE_LIMITS, hasOwn));
  const draft = draftFrom(walkValue(value, limits, hasOwn), limits);
  if (draft.kind === "refused") return { ok: false, message: draft.message };
  if (draft.kind === "whole") return { ok: true, content: draft.content, truncated: false };
  return { ok: true, content: draft.finish(undefined), truncated: true };
}

/** Where a configured cut keeps text: see `TruncateStrategy` in `output-budget.ts`. */
export type CutStrategy = "head" | "tail" | "head-and-tail";

/**
 * A serialization under a configured budget, before its marker is final: a
 * cut output is finished once the spill hook (if any) has named where the
 * full output went.
 */
export type OutputDraft =
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "whole"; readonly content: string }
  | {
      readonly kind: "cut";
      readonly limit: OutputLimitName;
      /** The final content, at most `maxCharacters` code points, naming `reference` if given. */
      finish(reference: string | undefined): string;
    };

/**
 * Serializes a Tool's output under a configured budget (same rules as
 * `serializeToolOutput`, the same calls of the live `Object.hasOwn`). A cut
 * top-level string keeps its head, its tail or both, as `strategy` says;
 * structured output always keeps the head.
 */
export function draftOutput(
  value: unknown,
  limits: WalkLimits,
  strategy: CutStrategy,
): OutputDraft {
  if (typeof value === "string") return draftText(value, limits, strategy);
  return draftFrom(walkValue(value, limits, liveHasOwn), limits);
}

function draftFrom(result: WalkResult, limits: WalkLimits): OutputDraft {
  if (result.kind !== "cut") return result;
  const { walk, limit } = result;
  const finish = (reference: string | undefined): string => {
    const marker = `\n${structuredMarker(limit, limits, walk.rootArrayLength, reference)}`;
    return firstCodePoints(walk.out, limits.maxCharacters - codePointCount(marker)) + marker;
  };
  return { kind: "cut", limit, finish };
}

/**
 * A top-level string under a configured budget, measured without walking:
 * whole when its JSON text fits the cap and its code points the string
 * budget (exactly what the walk would decide), else cut as `strategy` says.
 */
function draftText(text: string, limits: WalkLimits, strategy: CutStrategy): OutputDraft {
  const length = text.length;
  const whole = measureHead(text, limits.maxCharacters - 2, limits.maxStringCharacters);
  if (whole.units === length)
    return { kind: "whole", content: `"${escapeRange(text, 0, length)}"` };
  // The string budget ran out first when the measure stopped for lack of source room.
  const limit: OutputLimitName =
    whole.taken === limits.maxStringCharacters ? "string characters" : "characters";
  return {
    kind: "cut",
    limit,
    finish: (reference) => cutText(text, limit, limits, strategy, reference),
  };
}

/**
 * Cuts a top-level string within `maxCharacters`, marker included: the head
 * (`"…` then the marker), the tail (the marker, then `…"`), or both ends
 * around it. The marker states the kept count, whose digits change its
 * length: the text is first measured for the largest count the marker could
 * state (never over the cap); when the actual count is shorter, it is measured
 * on into the room that leaves, and when that crosses a digit boundary, once
 * more into the room the longer count leaves. Costs what it keeps.
 */
function cutText(
  text: string,
  limit: OutputLimitName,
  limits: WalkLimits,
  strategy: CutStrategy,
  reference: string | undefined,
): string {
  const total = text.length;
  const marker = (kept: number): string => textMarker(kept, total, limit, limits, reference);
  // Quotes and line feeds around the marker: one each for head or tail, two for both ends.
  const extras = strategy === "head-and-tail" ? 4 : 2;
  const roomFor = (kept: number): number =>
    limits.maxCharacters - codePointCount(marker(kept)) - extras;
  const sourceRoom = limits.maxStringCharacters;
  if (strategy === "head") {
    const head = fill((room, from) => measureHead(text, room, sourceRoom, from), 0, 0);
    return `"${escapeRange(text, 0, head.units)}\n${marker(head.units)}`;
  }
  if (strategy === "tail") {
    const tail = fill((room, from) => measureTail(text, room, sourceRoom, 0, from), 0, 0);
    return `${marker(tail.units)}\n${escapeRange(text, total - tail.units, total)}"`;
  }
  const widest = roomFor(total);
  const head = measureHead(text, widest - (widest >> 1), sourceRoom - (sourceRoom >> 1));
  // The tail takes what the head left; only the tail grows in the later measures.
  const tail = fill(
    (room, from) =>
      measureTail(text, room - head.written, sourceRoom - head.taken, head.units, from),
    head.units,
    head.written,
  );
  const kept = head.units + tail.units;
  const ends = `${escapeRange(text, 0, head.units)}\n${marker(kept)}\n${escapeRange(text, total - tail.units, total)}`;
  return `"${ends}"`;

  /**
   * Measures (`measure(room, from)`) to the largest room whose marker still
   * fits beside it. `baseUnits` and `baseWritten` are what a fixed head adds.
   */
  function fill(
    measure: (room: number, from: TextSpan | undefined) => TextSpan,
    baseUnits: number,
    baseWritten: number,
  ): TextSpan {
    const fits = (span: TextSpan): boolean =>
      baseWritten + span.written <= roomFor(baseUnits + span.units);
    const widestRoom = roomFor(total);
    const first = measure(widestRoom, undefined);
    const room = roomFor(baseUnits + first.units);
    if (room <= widestRoom) return first;
    const wider = measure(room, first);
    if (fits(wider)) return wider;
    // The longer count needs one more digit: measure again into the room it leaves.
    const exact = measure(roomFor(baseUnits + wider.units), first);
    return fits(exact) ? exact : first;
  }
}
