/**
 * The bounded walk behind the serializer: writes a value as JSON text without
 * running any of its code, counting every budget as it goes, and stops with
 * what it wrote so far when one runs out.
 */

import { containerKind, describeExotic } from "./containers.js";
import {
  getOwnPropertyDescriptor,
  isProxy,
  NativeBigInt,
  NativeSet,
  numberIsFinite,
  setAdd,
  setDelete,
  setHas,
} from "./intrinsics.js";
import {
  addToPath,
  type ContainerPath,
  isOnPath,
  newPathArray,
  PathRefusal,
  passedLevel,
} from "./json-path.js";
import {
  COURSE_ESCAPES,
  escapeRange,
  isPlainText,
  measureHead,
  type TextStyle,
} from "./json-text.js";
import { sortKeys } from "./key-sort.js";
import { isDataDescriptor } from "./own-fields.js";

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
export const liveHasOwn = (target: object, key: string): boolean => Object.hasOwn(target, key);

/** Deeper than this, the cycle check uses a Set instead of scanning the path. */
const PATH_SCAN_DEPTH = 64;

/** One walk's state: the text so far and what each budget has left. */
export class Walk implements ContainerPath {
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
  readonly maxBigIntBits: number;
  /** 2 ** maxBigIntBits, made when the first BigInt is met: a 4,096-bit BigInt is 512 bytes. */
  bigIntLimit: bigint | undefined;
  // The containers on the current path, for cycles (see ContainerPath); no list of keys
  // is kept: a refusal gathers its path on the way out (PathRefusal).
  root: object | undefined;
  below: object[] | undefined;
  // The same containers as a set, for walks allowed deeper than a scan stays cheap.
  readonly onPath: Set<object> | undefined;

  /**
   * `ownKey` decides which enumerated keys are own: the live global for Tool
   * output. `style` is how strings are escaped (the course's, or standard JSON).
   */
  constructor(
    readonly ownKey: (target: object, key: string) => boolean,
    limits: WalkLimits,
    readonly style: TextStyle = COURSE_ESCAPES,
  ) {
    this.cap = limits.maxCharacters;
    this.maxDepth = limits.maxDepth;
    this.maxNodes = limits.maxNodes;
    this.maxEntries = limits.maxEntries;
    this.stringLeft = limits.maxStringCharacters;
    this.maxBigIntBits = limits.maxBigIntBits;
    this.onPath = limits.maxDepth > PATH_SCAN_DEPTH ? new NativeSet<object>() : undefined;
  }

  /**
   * Stops the walk: every step that can run a budget out is followed by a
   * check of `limit`, and the walk returns through its frames from there.
   * (It used to throw: unwinding 32 levels of recursion by exception cost
   * about as much again as the whole walk.) Nothing is written after a cut,
   * so `out` ends where the budget ran out.
   */
  cut(limit: OutputLimitName): void {
    this.limit = limit;
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

  /** Stops the walk for a value that cannot be written; `walkValue` says where. */
  refuse(reason: string): never {
    throw new PathRefusal(reason, undefined);
  }

  /**
   * Writes a JSON string, consuming one unit of the string budget per code
   * point. Text that needs no escape and fits the string budget is written
   * with its quotes in one piece (one concatenation onto `out` instead of
   * three): a cut by characters keeps only the code points within the cap
   * (see `courseResult`), so where inside the piece the cap fell changes
   * nothing.
   */
  string(text: string): void {
    const length = text.length;
    if (length <= this.stringLeft && isPlainText(text, length)) {
      this.stringLeft -= length;
      // biome-ignore lint/style/useTemplate: a template converts each part with a call of its own; `+` of two strings does not.
      return this.append('"' + text + '"', length + 2);
    }
    this.append('"', 1);
    if (this.limit !== undefined) return;
    // Slow path: measure how far the string budget reaches (at most `stringLeft + 1`
    // code points are looked at, however long the text), then write that span with
    // one copy per run of characters that need no escaping.
    const span = measureHead(
      text,
      Number.POSITIVE_INFINITY,
      this.stringLeft,
      undefined,
      this.style,
    );
    this.stringLeft -= span.taken;
    this.append(escapeRange(text, 0, span.units, this.style), span.written);
    if (this.limit !== undefined) return;
    if (span.units < length) return this.cut("string characters");
    this.append('"', 1);
  }

  /**
   * Writes `"key":`, after a comma unless it is the first key; for a plain
   * key, comma, key and colon in one piece (see {@link string}).
   */
  key(key: string, comma: boolean): void {
    const length = key.length;
    if (length <= this.stringLeft && isPlainText(key, length)) {
      this.stringLeft -= length;
      // biome-ignore lint/style/useTemplate: see string.
      if (comma) return this.append(',"' + key + '":', length + 4);
      // biome-ignore lint/style/useTemplate: see string.
      return this.append('"' + key + '":', length + 3);
    }
    if (comma) {
      this.append(",", 1);
      if (this.limit !== undefined) return;
    }
    this.string(key);
    if (this.limit !== undefined) return;
    this.append(":", 1);
  }

  value(value: unknown): void {
    this.nodes += 1;
    if (this.nodes > this.maxNodes) return this.cut("values");
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
        if (value >= this.bigIntBound() || value <= -this.bigIntBound()) {
          return this.cut("BigInt size");
        }
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

  /** 2 ** maxBigIntBits, the bound a BigInt's magnitude must stay below. */
  bigIntBound(): bigint {
    if (this.bigIntLimit === undefined) {
      // BigInt(1), not a literal: the course compiles for ES2017, which has no BigInt literals.
      this.bigIntLimit = NativeBigInt(1) << NativeBigInt(this.maxBigIntBits);
    }
    return this.bigIntLimit;
  }

  literal(text: string): void {
    this.append(text, text.length);
  }

  onCurrentPath(value: object): boolean {
    if (this.onPath !== undefined) return setHas(this.onPath, value);
    return isOnPath(this, value);
  }

  container(value: object): void {
    // Checked before anything else touches it: every later step could hit a trap.
    if (isProxy(value)) this.refuse("Proxy objects are not supported");
    if (this.onCurrentPath(value)) return this.append('"[Circular]"', 12);
    const kind = containerKind(value);
    if (kind === "exotic") this.refuse(describeExotic(value));
    if (this.depth >= this.maxDepth) return this.cut("depth");
    // One record of the path, not two: the set when the walk may go deep, else the scanned list.
    if (this.onPath !== undefined) setAdd(this.onPath, value);
    else addToPath(this, value);
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
    if (this.limit !== undefined) return;
    for (let index = 0; index < length; index += 1) {
      this.visitEntry();
      if (this.limit !== undefined) return;
      if (index > 0) {
        this.append(",", 1);
        if (this.limit !== undefined) return;
      }
      const slot = getOwnPropertyDescriptor(value, index);
      if (slot === undefined) this.append('"[Empty]"', 9);
      else if (!isDataDescriptor(slot)) this.append('"[Accessor omitted]"', 20);
      else {
        try {
          this.value(slot.value);
        } catch (thrown) {
          throw passedLevel(thrown, index);
        }
      }
      if (this.limit !== undefined) return;
    }
    this.append("]", 1);
  }

  object(value: object): void {
    this.append("{", 1);
    if (this.limit !== undefined) return;
    // Four slots, filled in order and counted: an array grown from empty takes 17 slots at
    // its first key, the largest allocation of a small call's walk.
    const keys = newPathArray() as string[];
    let count = 0;
    // Lazy: for…in yields one key at a time, so a huge object costs only the budget.
    for (const key in value) {
      this.visitEntry();
      // Before the own-key check: the key past the budget is never checked.
      if (this.limit !== undefined) return;
      if (!this.ownKey(value, key)) continue;
      if (count < keys.length) {
        keys[count] = key;
        count += 1;
      } else {
        // Past the four slots, appended and counted by the list's length: a write that an
        // index setter planted on Array.prototype swallowed leaves no hole behind, which a
        // planted getter would fill when the keys are sorted and written.
        keys[keys.length] = key;
        count = keys.length;
      }
    }
    sortKeys(keys, count);
    let written = 0;
    for (let index = 0; index < count; index += 1) {
      const key = keys[index] as string;
      // Read when written, not when collected: a key past the cap costs no descriptor.
      // Inherited keys were skipped above; accessors are left out without running them.
      const property = getOwnPropertyDescriptor(value, key);
      if (property === undefined || !isDataDescriptor(property)) continue;
      this.key(key, written > 0);
      written += 1;
      if (this.limit !== undefined) return;
      try {
        this.value(property.value);
      } catch (thrown) {
        throw passedLevel(thrown, key);
      }
      if (this.limit !== undefined) return;
    }
    this.append("}", 1);
  }
}

/** How one walk ended: refused, whole, or cut by a budget with what was written so far. */
export type WalkResult =
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "whole"; readonly content: string }
  | { readonly kind: "cut"; readonly walk: Walk; readonly limit: OutputLimitName };

/**
 * Walks `value` under `limits`; `ownKey` decides which keys `for…in` yields
 * are own (the live global for Tool output, the captured check for our own
 * values); `style` how strings are escaped (default the course's).
 */
export function walkValue(
  value: unknown,
  limits: WalkLimits,
  ownKey: (target: object, key: string) => boolean,
  style: TextStyle = COURSE_ESCAPES,
): WalkResult {
  const walk = new Walk(ownKey, limits, style);
  const refusal = runWalk(walk, value);
  if (refusal !== undefined) return { kind: "refused", message: refusal };
  const limit = walk.limit;
  return limit === undefined ? { kind: "whole", content: walk.out } : { kind: "cut", walk, limit };
}

/**
 * Runs `walk` over `value` to its end: undefined when it finished (whole, or
 * cut by a budget: see `walk.limit`), else the refusal's message, naming
 * where. Throws only what `walk` may throw (see {@link walkValue}).
 */
export function runWalk(walk: Walk, value: unknown): string | undefined {
  try {
    walk.value(value);
  } catch (thrown) {
    if (!PathRefusal.is(thrown)) throw thrown;
    return thrown.describe();
  }
  return undefined;
}
