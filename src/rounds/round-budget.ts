/**
 * The round's character budget: the sum of every result's `content`, counted
 * in Unicode code points, stays within `maxRoundCharacters`. Results spend the
 * budget in call order, so which result is cut never depends on timing.
 */

import {
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolResultMessage,
  toolResultMessage,
} from "../../course/src/index.ts";
import { stringCharCodeAt, stringSlice } from "../../course/src/internal.ts";

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** Code units taken by the code point starting at `index` (2 for a surrogate pair, else 1). */
function codePointWidth(text: string, index: number): number {
  if (!isHighSurrogate(stringCharCodeAt(text, index))) return 1;
  return index + 1 < text.length && isLowSurrogate(stringCharCodeAt(text, index + 1)) ? 2 : 1;
}

/**
 * Counts the Unicode code points of `text` (a lone surrogate counts as one),
 * stopping as soon as the count exceeds `stopAbove` (default: never).
 *
 * @example
 * countCodePoints("a😀"); // 2
 */
export function countCodePoints(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (let index = 0; index < text.length && count <= stopAbove; count += 1) {
    index += codePointWidth(text, index);
  }
  return count;
}

/** The first `count` code points of `text`; never splits a surrogate pair. */
function prefixOfCodePoints(text: string, count: number): string {
  let index = 0;
  for (let taken = 0; taken < count && index < text.length; taken += 1) {
    index += codePointWidth(text, index);
  }
  return stringSlice(text, 0, index);
}

/** Length of the truncation marker in code points. */
export const MARKER_CODE_POINTS = countCodePoints(COURSE_TOOL_TRUNCATION_MARKER);

/**
 * Spends a round's character budget on results handed over in call order.
 *
 * - A result whose content fits in what remains is returned unchanged (the
 *   same frozen message).
 * - The first result that does not fit is cut: its longest prefix that fits
 *   together with `COURSE_TOOL_TRUNCATION_MARKER`, plus the marker (once).
 * - From then on the budget is exhausted: when what remains cannot hold even
 *   the marker, and for every later result, the content is the empty string.
 *
 * A cut or emptied result is a new frozen message with the same `id`,
 * `toolCallId`, `toolName` and `isError`, so every call keeps its linked result.
 *
 * @example
 * const budget = new RoundBudget(100);
 * const first = budget.take(results[0]); // unchanged if it fits in 100 code points
 */
export class RoundBudget {
  #remaining: number;

  /** A budget of `maxCharacters` code points; `Infinity` never cuts anything. */
  constructor(maxCharacters: number) {
    this.#remaining = maxCharacters;
  }

  /** Code points still available to later results. */
  get remaining(): number {
    return this.#remaining;
  }

  /** Spends budget on `result`; returns it, or a cut or emptied copy. */
  take(result: CourseToolResultMessage): CourseToolResultMessage {
    const remaining = this.#remaining;
    if (remaining === Number.POSITIVE_INFINITY) return result;
    const length = countCodePoints(result.content, remaining);
    if (length <= remaining) {
      this.#remaining = remaining - length;
      return result;
    }
    // Whatever happens now, later results get nothing: the cut stays in call order.
    this.#remaining = 0;
    const room = remaining - MARKER_CODE_POINTS;
    const content =
      room < 0 ? "" : `${prefixOfCodePoints(result.content, room)}${COURSE_TOOL_TRUNCATION_MARKER}`;
    return toolResultMessage(
      { id: result.toolCallId, name: result.toolName },
      content,
      result.isError,
    );
  }
}
