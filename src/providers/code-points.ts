/**
 * Counting code points in text that came from elsewhere (a model's tool name,
 * another server's description), by code unit with the core's captured
 * `charCodeAt`: no string iterator, `Array.from` or spread, which a Tool
 * running in this process may replace. A high surrogate followed by a low one
 * is one code point; a lone surrogate is one too, as `Array.from` counts.
 */

import { stringCharCodeAt } from "../../course/src/internal.ts";

/** The code units of the code point at `index`: a high surrogate followed by a low one is one. */
function unitsAt(text: string, index: number): number {
  const unit = stringCharCodeAt(text, index);
  const next = stringCharCodeAt(text, index + 1);
  return unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/**
 * The index in UTF-16 code units just past the first `count` code points of
 * `text` (its length when it has fewer).
 *
 * @example
 * codeUnitsOf("😀a", 1); // 2
 */
export function codeUnitsOf(text: string, count: number): number {
  let index = 0;
  for (let seen = 0; seen < count && index < text.length; seen += 1) index += unitsAt(text, index);
  return index;
}

/**
 * The number of code points of `text` (a lone surrogate counts as one).
 *
 * @example
 * codePointsOf("😀a"); // 2
 */
export function codePointsOf(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; count += 1) index += unitsAt(text, index);
  return count;
}
