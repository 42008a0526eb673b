/**
 * Cutting text that came from elsewhere (another MCP server's descriptions
 * and errors, a Tool's progress messages) to a number of code points, never
 * splitting a surrogate pair, with a marker that says what was cut.
 */

import { stringCharCodeAt, stringSlice } from "../../course/src/internal.ts";

// The string methods are the core's captured copies, and no spread or regular expression
// runs here: a Tool runs in this process and may replace `String.prototype.slice`,
// `charCodeAt`, the string iterator or `replace`, which would lift every bound below.

/** The code units of the code point at `index`: a high surrogate followed by a low one is one. */
function unitsAt(text: string, index: number): number {
  const unit = stringCharCodeAt(text, index);
  const next = stringCharCodeAt(text, index + 1);
  return unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** Index in UTF-16 code units just past the first `count` code points of `text`. */
function codeUnitsOf(text: string, count: number): number {
  let index = 0;
  for (let seen = 0; seen < count && index < text.length; seen += 1) index += unitsAt(text, index);
  return index;
}

/** The number of code points of `text` (a lone surrogate counts as one). */
function codePointsOf(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; count += 1) index += unitsAt(text, index);
  return count;
}

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
