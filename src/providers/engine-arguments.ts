/**
 * The fast path for ordinary argument text: the engine's own `JSON.parse`
 * builds the value, guarded so that it answers only what the exact reader
 * (`exact-argument-reader.ts`) would answer for the same text, and nothing
 * it would refuse.
 *
 * The rules `JSON.parse` does not apply are checked around it:
 *
 * - nesting, BEFORE the engine reads anything: one pass over the text counts
 *   the open containers (skipping string bodies), and text nesting past the
 *   limit never reaches `JSON.parse`;
 * - duplicate keys, which `JSON.parse` resolves silently (the last wins): the
 *   same pass counts the members written (`:` outside strings), and the value
 *   must have exactly as many own keys;
 * - lone surrogates: raw ones by the engine's own `isWellFormed` on the whole
 *   text, escaped ones in the pass (an escaped high half must be followed by
 *   an escaped low half);
 * - numbers: every number of the value must be finite and inside the range
 *   where a double reads a literal without a visible change.
 *
 * Whenever a check fails, or `JSON.parse` throws, or the value is not an
 * object, the answer is "undecided" and the exact reader reads the text from
 * the start: every refusal, with its message and position, is the exact
 * reader's. `JSON.parse` makes each key an own data property (a `__proto__`
 * key included) without running a setter, and its objects are plain objects
 * of this realm; the walk that counts keys and checks numbers also freezes
 * every container, so the result is what the exact reader builds.
 */

import { ArrayPrototype, freeze, isArray, numberIsFinite } from "../../course/src/internal.ts";
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  DIGIT_0,
  DOT,
  hexValue,
  MINUS,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from "./json-characters.ts";
import { isBeyondExactRange } from "./number-exactness.ts";
import { addData } from "./own-data.ts";

// Captured once, like every built-in the boundary calls: patched globals must not decide.
const uncurryThis = <Args extends unknown[], Result>(
  method: (this: string, ...args: Args) => Result,
): ((receiver: string, ...args: Args) => Result) =>
  Reflect.apply(Function.prototype.bind, Function.prototype.call, [method]);
const jsonParse = JSON.parse;
const ownKeys = Object.keys;
const charCodeAt = uncurryThis(String.prototype.charCodeAt);
const indexOf = uncurryThis(String.prototype.indexOf);
const wellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
// A runtime without String.prototype.isWellFormed (older than the engines this
// package supports) takes the exact reader for every text.
const isWellFormed = wellFormed === undefined ? undefined : uncurryThis(wellFormed);

const UNDECIDED = -1;
const LETTER_U = 0x75;
const LETTER_E = 0x65;
const CAPITAL_E = 0x45;

/** What the pass over the text found, for the walk over the engine's value. */
export interface TextFacts {
  /** The members written in the text's objects: one `:` outside strings each. */
  readonly members: number;
  /**
   * True when a number literal may be non-zero text a double reads as 0 (a
   * negative exponent, or a fraction starting with two zeros): then a 0 in
   * the value is the exact reader's to judge.
   */
  readonly zeroMayBeTiny: boolean;
}

/**
 * One pass over `text`, assuming it is JSON: counts the members written in
 * its objects; undefined when it nests deeper than `maxDepth` or has an
 * escaped surrogate without its other half. String bodies are skipped with
 * `indexOf`; only a string with a backslash is read a unit at a time, from its
 * first backslash. On text that is not JSON the facts can be wrong, which
 * does not matter: `JSON.parse` then refuses it.
 *
 * @example
 * readTextFacts('{"a":{"b":":"}}', 64); // { members: 2, zeroMayBeTiny: false }
 * readTextFacts('{"a":[[1]]}', 2); // undefined: three levels
 */
export function readTextFacts(text: string, maxDepth: number): TextFacts | undefined {
  const length = text.length;
  let depth = 0;
  let members = 0;
  let zeroMayBeTiny = false;
  let backslash = indexOf(text, "\\", 0);
  if (backslash < 0) backslash = length;
  let index = 0;
  while (index < length) {
    const unit = charCodeAt(text, index);
    if (unit === QUOTE) {
      let end = indexOf(text, '"', index + 1);
      if (end < 0) return undefined;
      if (backslash < end) {
        end = escapedStringEnd(text, backslash);
        if (end < 0) return undefined;
        backslash = indexOf(text, "\\", end + 1);
        if (backslash < 0) backslash = length;
      }
      index = end + 1;
      continue;
    }
    if (unit === OPEN_BRACE || unit === OPEN_BRACKET) {
      depth += 1;
      // The limit holds before the engine reads the text: deeper text goes to the exact reader.
      if (depth > maxDepth) return undefined;
    } else if (unit === CLOSE_BRACE || unit === CLOSE_BRACKET) depth -= 1;
    else if (unit === COLON) members += 1;
    else if (unit === MINUS) {
      const before = charCodeAt(text, index - 1);
      if (before === LETTER_E || before === CAPITAL_E) zeroMayBeTiny = true;
    } else if (unit === DOT) {
      if (charCodeAt(text, index + 1) === DIGIT_0 && charCodeAt(text, index + 2) === DIGIT_0) {
        zeroMayBeTiny = true;
      }
    }
    index += 1;
  }
  return { members, zeroMayBeTiny };
}

/** The high (0xd800-0xdbff) or low (0xdc00-0xdfff) half an escape `\uXXXX` at `at` names, or 0. */
function escapedHalf(text: string, at: number): number {
  if (hexValue(charCodeAt(text, at + 2)) !== 0xd) return 0;
  const second = hexValue(charCodeAt(text, at + 3));
  if (second < 8) return 0;
  return second < 0xc ? 1 : 2;
}

/**
 * The position of the quote closing the string whose first backslash is at
 * `from`, or {@link UNDECIDED} at the end of the text or at an escaped
 * surrogate that is not the high half of an escaped pair.
 */
function escapedStringEnd(text: string, from: number): number {
  const length = text.length;
  let index = from;
  while (index < length) {
    const unit = charCodeAt(text, index);
    if (unit === QUOTE) return index;
    if (unit !== BACKSLASH) {
      index += 1;
      continue;
    }
    if (charCodeAt(text, index + 1) !== LETTER_U) {
      index += 2;
      continue;
    }
    const half = escapedHalf(text, index);
    if (half === 0) {
      index += 6;
      continue;
    }
    // Only a pair written as two escapes is vouched for here; anything else is the exact reader's.
    if (
      half !== 1 ||
      charCodeAt(text, index + 6) !== BACKSLASH ||
      charCodeAt(text, index + 7) !== LETTER_U ||
      escapedHalf(text, index + 6) !== 2
    ) {
      return UNDECIDED;
    }
    index += 12;
  }
  return UNDECIDED;
}

/**
 * Queues `value` at `top` of `pending` when it is a container and answers the
 * new top; {@link UNDECIDED} for a number the exact reader would look at more
 * closely: not finite, in a range where a double can change the literal, or
 * a 0 that may have been written as a non-zero literal (`zeroMayBeTiny`).
 */
function visit(value: unknown, pending: object[], top: number, zeroMayBeTiny: boolean): number {
  if (typeof value === "object") {
    if (value === null) return top;
    // Defined, not assigned, where Array.prototype has the index: a setter a Tool planted
    // there would otherwise take the container (and keep it, unfrozen, to change later).
    addData(pending, ArrayPrototype, top, value);
    return top + 1;
  }
  if (typeof value !== "number") return top;
  // Zero is exact however it is written, unless the text may hide a tiny literal read as 0.
  if (value === 0) return zeroMayBeTiny ? UNDECIDED : top;
  return numberIsFinite(value) && !isBeyondExactRange(value) ? top : UNDECIDED;
}

/**
 * Freezes every container of `root`, a value `JSON.parse` made from a text
 * with `facts`, and answers the number of own keys of its objects, or
 * {@link UNDECIDED} at a number the exact reader would look at more closely.
 */
function freezeCountingKeys(root: object, facts: TextFacts): number {
  const zeroMayBeTiny = facts.zeroMayBeTiny;
  let keys = 0;
  // Containers still to visit (JSON.parse's value has no cycles, so each is seen once);
  // `top` is the first free slot.
  const pending: object[] = [root];
  let top = 1;
  while (top > 0) {
    top -= 1;
    const container = pending[top] as object;
    if (isArray(container)) {
      for (let slot = 0; slot < container.length; slot += 1) {
        top = visit(container[slot], pending, top, zeroMayBeTiny);
        if (top === UNDECIDED) return UNDECIDED;
      }
    } else {
      const names = ownKeys(container);
      keys += names.length;
      for (let slot = 0; slot < names.length; slot += 1) {
        // An own data property JSON.parse defined: reading it runs nothing.
        const value = (container as Record<string, unknown>)[names[slot] as string];
        top = visit(value, pending, top, zeroMayBeTiny);
        if (top === UNDECIDED) return UNDECIDED;
      }
    }
    freeze(container);
  }
  return keys;
}

/**
 * `text` read by the engine's `JSON.parse` as a frozen object, when that is
 * exactly what the exact reader would answer for it with `maxDepth`; otherwise
 * undefined, and the exact reader must read it.
 *
 * @example
 * readWithEngine('{"a":[1,2]}', 64); // { a: [1, 2] }, frozen
 * readWithEngine('{"a":1,"a":2}', 64); // undefined: a repeated key is the exact reader's to refuse
 */
export function readWithEngine(text: string, maxDepth: number): object | undefined {
  if (isWellFormed === undefined || !isWellFormed(text)) return undefined;
  const facts = readTextFacts(text, maxDepth);
  if (facts === undefined) return undefined;
  let value: unknown;
  try {
    value = jsonParse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || isArray(value)) return undefined;
  // Fewer own keys than members written means a key was repeated.
  return freezeCountingKeys(value, facts) === facts.members ? value : undefined;
}
