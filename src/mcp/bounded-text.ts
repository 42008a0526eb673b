/**
 * Cutting text that came from elsewhere (another MCP server's descriptions
 * and errors, a Tool's progress messages) to a number of code points, never
 * splitting a surrogate pair, with a marker that says what was cut.
 */

import { stringCharCodeAt, stringSlice } from "../../course/src/internal.ts";
import { codePointsOf, codeUnitsOf } from "../providers/code-points.ts";

// The string methods are the core's captured copies, and no spread or regular expression
// runs here: a Tool runs in this process and may replace `String.prototype.slice`,
// `charCodeAt`, the string iterator or `replace`, which would lift every bound below.

/** Whether `text` has more than `max` code points (reading at most `max` of them). */
function exceeds(text: string, max: number): boolean {
  // A string of at most `max` code units has at most `max` code points.
  return text.length > max && codeUnitsOf(text, max) < text.length;
}

/**
 * `text` when it has at most `max` code points; otherwise its head, cut on a
 * code point boundary, followed by `marker(total)` (where `total` is the
 * text's length in code units, cheap to know), the whole at most `max` code
 * points. A marker longer than `max` is itself cut.
 *
 * @example
 * cutText("a".repeat(10), 8, (total) => ` [${total}]`); // "aaa [10]"
 */
export function cutText(text: string, max: number, marker: (total: number) => string): string {
  if (!exceeds(text, max)) return text;
  const note = marker(text.length);
  const noteLength = codePointsOf(note);
  if (noteLength >= max) return stringSlice(note, 0, codeUnitsOf(note, max));
  return stringSlice(text, 0, codeUnitsOf(text, max - noteLength)) + note;
}

/** A control character (C0, DEL) or a Unicode line or paragraph separator. */
function isBreaking(unit: number): boolean {
  return unit <= 0x1f || unit === 0x7f || unit === 0x2028 || unit === 0x2029;
}

/**
 * One line for a log or an error: line breaks and other control characters
 * become spaces, so what a remote server wrote cannot forge extra lines.
 *
 * @example
 * oneLine("a\nb\u0000c"); // "a b c"
 */
export function oneLine(text: string): string {
  // By character codes, not `replace`: a replaced `replace` could let a line break through.
  let line = "";
  let start = 0;
  let index = 0;
  while (index < text.length) {
    if (!isBreaking(stringCharCodeAt(text, index))) {
      index += 1;
      continue;
    }
    // A run of them becomes one space, as the pattern `[…]+` did.
    line += `${stringSlice(text, start, index)} `;
    while (index < text.length && isBreaking(stringCharCodeAt(text, index))) index += 1;
    start = index;
  }
  return start === 0 ? text : line + stringSlice(text, start);
}
