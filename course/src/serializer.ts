/**
 * The bounded serializer: turns a Tool's output into transcript text without
 * running any of the output's code, and with work bounded by fixed budgets.
 */

import { containerKind, describeExotic } from "./containers.ts";
import {
  getOwnPropertyDescriptor,
  hasOwn,
  isProxy,
  numberIsFinite,
  stringCharCodeAt,
  stringSlice,
} from "./intrinsics.ts";
import { formatJsonPath } from "./json-path.ts";

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
const BIGINT_LIMIT = 1n << BigInt(COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS);
const HEX = "0123456789abcdef";

/** The serializer's verdict: text (possibly truncated), or why the output was refused. */
export type SerializedOutput =
  | { readonly ok: true; readonly content: string; readonly truncated: boolean }
  | { readonly ok: false; readonly message: string };

/**
 * True when `text` needs no escaping and has no surrogates, so that its
 * length is its code-point count and it can be written as it is. A loop,
 * not a RegExp: `RegExp.prototype.test` looks `exec` up at call time, and a
 * patched `exec` must not decide what counts as safe.
 */
function isPlainText(text: string, length: number): boolean {
  for (let index = 0; index < length; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) {
      return false;
    }
  }
  return true;
}

/** Thrown inside the walk when a budget runs out; never leaves this module. */
const TRUNCATED: unique symbol = Symbol("truncated");

/** Thrown inside the walk for a value that cannot be written; never leaves this module. */
class Refusal {
  constructor(readonly message: string) {}
}

/**
 * Sorts a flat `[key, value, key, value, …]` list by key (plain string
 * comparison) in place. Insertion sort: the visit budget caps a list at 256
 * keys, `for…in` usually yields them nearly sorted, and nothing is allocated.
 */
function sortPairs(pairs: unknown[]): void {
  for (let index = 2; index < pairs.length; index += 2) {
    const key = pairs[index] as string;
    const value = pairs[index + 1];
    let slot = index - 2;
    while (slot >= 0 && (pairs[slot] as string) > key) {
      pairs[slot + 2] = pairs[slot];
      pairs[slot + 3] = pairs[slot + 1];
      slot -= 2;
    }
    pairs[slot + 2] = key;
    pairs[slot + 3] = value;
  }
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

class Walk {
  out = "";
  written = 0;
  nodes = 0;
  visits = 0;
  stringLeft = COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS;
  depth = 0;
  // The containers on the current path (for cycles) and the keys leading to them (for messages).
  readonly ancestors: object[] = [];
  readonly path: (string | number)[] = [];

  /** `ownKey` decides which enumerated keys are own: the live global for Tool output. */
  constructor(readonly ownKey: (target: object, key: string) => boolean) {}

  append(text: string, codePoints: number): void {
    this.out += text;
    this.written += codePoints;
    if (this.written > COURSE_TOOL_OUTPUT_CAP_CHARACTERS) throw TRUNCATED;
  }

  visitEntry(): void {
    this.visits += 1;
    if (this.visits > COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES) throw TRUNCATED;
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
    // Slow path: at most `stringLeft + 1` code points are looked at, however long the text.
    let chunk = "";
    let chunkPoints = 0;
    let index = 0;
    while (index < length) {
      if (this.stringLeft === 0) {
        this.append(chunk, chunkPoints);
        throw TRUNCATED;
      }
      this.stringLeft -= 1;
      const unit = stringCharCodeAt(text, index);
      if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < length) {
        const next = stringCharCodeAt(text, index + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          chunk += stringSlice(text, index, index + 2);
          chunkPoints += 1;
          index += 2;
          continue;
        }
      }
      if (unit === 0x22 || unit === 0x5c) {
        chunk += unit === 0x22 ? '\\"' : "\\\\";
        chunkPoints += 2;
      } else if (unit < 0x20 || (unit >= 0xd800 && unit <= 0xdfff)) {
        chunk += `\\u${HEX[(unit >> 12) & 15]}${HEX[(unit >> 8) & 15]}${HEX[(unit >> 4) & 15]}${HEX[unit & 15]}`;
        chunkPoints += 6;
      } else {
        chunk += stringSlice(text, index, index + 1);
        chunkPoints += 1;
      }
      index += 1;
    }
    this.append(chunk, chunkPoints);
    this.append('"', 1);
  }

  value(value: unknown): void {
    this.nodes += 1;
    if (this.nodes > COURSE_TOOL_SERIALIZATION_MAX_NODES) throw TRUNCATED;
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
        if (value >= BIGINT_LIMIT || value <= -BIGINT_LIMIT) throw TRUNCATED;
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

  container(value: object): void {
    // Checked before anything else touches it: every later step could hit a trap.
    if (isProxy(value)) this.refuse("Proxy objects are not supported");
    for (let index = 0; index < this.depth; index += 1) {
      if (this.ancestors[index] === value) return this.append('"[Circular]"', 12);
    }
    const kind = containerKind(value);
    if (kind === "exotic") this.refuse(describeExotic(value));
    if (this.depth >= COURSE_TOOL_SERIALIZATION_MAX_DEPTH) throw TRUNCATED;
    this.ancestors[this.depth] = value;
    this.depth += 1;
    if (kind === "array") this.array(value as readonly unknown[]);
    else this.object(value);
    this.depth -= 1;
  }

  array(value: readonly unknown[]): void {
    this.append("[", 1);
    const length = value.length;
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
    const pairs: unknown[] = [];
    // Lazy: for…in yields one key at a time, so a huge object costs only the budget.
    for (const key in value) {
      this.visitEntry();
      // After the visit is counted: the key past the budget is never checked.
      if (!this.ownKey(value, key)) continue;
      const property = getOwnPropertyDescriptor(value, key);
      // Inherited keys are skipped; accessors are left out without running them.
      if (property === undefined || !hasOwn(property, "value")) continue;
      pairs[pairs.length] = key;
      pairs[pairs.length] = property.value;
    }
    sortPairs(pairs);
    for (let index = 0; index < pairs.length; index += 2) {
      const key = pairs[index] as string;
      if (index > 0) this.append(",", 1);
      this.string(key);
      this.append(":", 1);
      this.path[this.depth] = key;
      this.value(pairs[index + 1]);
    }
    this.append("}", 1);
  }
}

/** Keeps the first `KEPT_BEFORE_MARKER` code points of `text`, then the marker. */
function truncate(text: string): string {
  let index = 0;
  let points = 0;
  while (points < KEPT_BEFORE_MARKER && index < text.length) {
    const unit = stringCharCodeAt(text, index);
    index += unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length ? 2 : 1;
    points += 1;
  }
  return stringSlice(text, 0, index) + COURSE_TOOL_TRUNCATION_MARKER;
}

/**
 * Serializes a Tool's output deterministically and within every budget.
 * Never runs a getter, `toJSON` or a collection method, nor any trap of a
 * Proxy value; the only user code it may reach is one `getPrototypeOf` trap
 * of a Proxy *prototype* (read once, then refused; see `containers.ts`) and
 * the global `Object.hasOwn`, called once per key yielded by `for…in` (the
 * course counts these calls). A budget truncates (with the marker, once), an
 * unsupported value is refused.
 *
 * @example
 * serializeToolOutput({ b: 1, a: [true, null] }); // { ok: true, content: '{"a":[true,null],"b":1}', truncated: false }
 */
export function serializeToolOutput(value: unknown): SerializedOutput {
  return serializeWith(value, liveHasOwn);
}

/**
 * Serializes a value this module built itself (an error result's
 * null-prototype `{ error: { code, message } }`) with the captured own-key
 * check: the same text as `serializeToolOutput`, which a patched global
 * `Object.hasOwn` cannot empty.
 */
export function serializeTrusted(value: unknown): SerializedOutput {
  return serializeWith(value, hasOwn);
}

function serializeWith(
  value: unknown,
  ownKey: (target: object, key: string) => boolean,
): SerializedOutput {
  const walk = new Walk(ownKey);
  try {
    walk.value(value);
  } catch (thrown) {
    if (thrown instanceof Refusal) return { ok: false, message: thrown.message };
    if (thrown !== TRUNCATED) throw thrown;
    return { ok: true, content: truncate(walk.out), truncated: true };
  }
  return { ok: true, content: walk.out, truncated: false };
}
