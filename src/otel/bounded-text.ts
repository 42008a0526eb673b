/**
 * Text cut to a number of Unicode code points, for captured content: a
 * surrogate pair is never split, and a cut text ends with a marker that
 * counts against the same budget.
 */

import { stringCharCodeAt, stringSlice } from "../../course/src/internal.ts";

// The string methods are the core's captured copies: a Tool runs in this process and may
// replace `String.prototype.slice` or `charCodeAt`, which would lift every bound below.

/**
 * Ends a captured text that was cut.
 *
 * @example
 * String(span.attributes["gen_ai.tool.call.arguments"]).endsWith(CAPTURE_TRUNCATION_MARKER);
 */
export const CAPTURE_TRUNCATION_MARKER = "…[truncated]";

const MARKER_CODE_POINTS = 12;

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** The UTF-16 index just past the first `points` code points of `text`. */
function indexAfter(text: string, points: number): number {
  let index = 0;
  for (let taken = 0; taken < points && index < text.length; taken += 1) {
    const pair = isHigh(stringCharCodeAt(text, index)) && isLow(stringCharCodeAt(text, index + 1));
    index += pair ? 2 : 1;
  }
  return index;
}

/**
 * Counts the code points of `text` (a lone surrogate counts as one), stopping
 * once the count passes `stopAbove`.
 *
 * @example
 * countCodePoints("a😀"); // 2
 */
export function countCodePoints(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (let index = 0; index < text.length && count <= stopAbove; count += 1) {
    const pair = isHigh(stringCharCodeAt(text, index)) && isLow(stringCharCodeAt(text, index + 1));
    index += pair ? 2 : 1;
  }
  return count;
}

/**
 * `text` when it has at most `max` code points; else its first code points
 * and {@link CAPTURE_TRUNCATION_MARKER}, `max` code points in all. `max` is
 * at least the marker's length (the capture budget's floor is larger).
 *
 * @example
 * boundText("x".repeat(100), 64).length; // 64
 */
export function boundText(text: string, max: number): string {
  // Each code point is one or two units: a text this short fits without counting.
  if (text.length <= max) return text;
  if (countCodePoints(text, max) <= max) return text;
  const head = stringSlice(text, 0, indexAfter(text, max - MARKER_CODE_POINTS));
  return `${head}${CAPTURE_TRUNCATION_MARKER}`;
}
