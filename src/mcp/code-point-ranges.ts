/**
 * Sets of code points as RE2 class text: gathering code points into ranges,
 * their complement, and each code point written as `\x{…}`. The pattern
 * translation writes classes and properties with these; a remote server's
 * schemas may be compiled after a Tool of this process replaced built-ins, so
 * nothing here calls a live array or number method.
 */

import { addSlot, numberIsFinite } from "../../course/src/internal.ts";

const HEX_DIGITS = "0123456789ABCDEF";

/**
 * An inclusive range of code points.
 *
 * @example
 * const greekAndCoptic: CodePointRange = [0x370, 0x3ff];
 */
export type CodePointRange = readonly [number, number];

/**
 * ECMAScript's WhiteSpace and LineTerminator, what its `\s` matches (RE2's
 * `\s` is ASCII only), as code points; a test compares this list with the
 * engine's own `\s` over every code point.
 *
 * @example
 * WHITE_SPACE_CODE_POINTS.includes(0xa0); // true: a no-break space is white space to `\s`
 */
export const WHITE_SPACE_CODE_POINTS: readonly number[] = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

/**
 * `\x{…}` for a code point, its hex digits written by hand (no live `toString`).
 *
 * @example
 * codePointEscape(0xa0); // "\\x{A0}"
 */
export function codePointEscape(codePoint: number): string {
  // Not finite only for a pattern the engine refuses before this (NaN spelled as before).
  if (!numberIsFinite(codePoint)) return "\\x{NAN}";
  let digits = "";
  let rest = codePoint;
  do {
    digits = `${HEX_DIGITS[rest % 16]}${digits}`;
    rest = (rest - (rest % 16)) / 16;
  } while (rest > 0);
  return `\\x{${digits}}`;
}

/**
 * RE2 class text for `ranges` (ascending, apart): `\x{…}` or `\x{…}-\x{…}` each.
 *
 * @example
 * rangesText([[0x30, 0x39], [0x5f, 0x5f]]); // "\\x{30}-\\x{39}\\x{5F}"
 */
export function rangesText(ranges: readonly CodePointRange[]): string {
  // By index, with no array method: these lists may be built after a Tool of the process
  // patched `map`, `join` or `push`, or planted an index accessor on Array.prototype.
  let text = "";
  for (let index = 0; index < ranges.length; index += 1) {
    const range = ranges[index] as CodePointRange;
    const low = range[0];
    const high = range[1];
    text +=
      low === high ? codePointEscape(low) : `${codePointEscape(low)}-${codePointEscape(high)}`;
  }
  return text;
}

/**
 * Ascending code points gathered into ranges.
 *
 * @example
 * rangesOf([9, 10, 11, 32]); // [[9, 11], [32, 32]]
 */
export function rangesOf(codePoints: readonly number[]): CodePointRange[] {
  const ranges: [number, number][] = [];
  for (let index = 0; index < codePoints.length; index += 1) {
    const codePoint = codePoints[index] as number;
    // Never `ranges[-1]`: an empty list's "-1" is read through Array.prototype.
    const last = ranges.length === 0 ? undefined : ranges[ranges.length - 1];
    if (last !== undefined && last[1] + 1 === codePoint) last[1] = codePoint;
    else addSlot(ranges, ranges.length, [codePoint, codePoint]);
  }
  return ranges;
}

/**
 * {@link WHITE_SPACE_CODE_POINTS} as RE2 class text, made once.
 *
 * @example
 * `[^${WHITE_SPACE_RANGES}]`; // what ECMAScript's `\S` matches, in RE2
 */
export const WHITE_SPACE_RANGES = rangesText(rangesOf(WHITE_SPACE_CODE_POINTS));

/**
 * The code points from 0 to 0x10FFFF that `ranges` (ascending, apart) leave out.
 *
 * @example
 * complement([[0, 0x40], [0x5b, 0x10ffff]]); // [[0x41, 0x5a]]
 */
export function complement(ranges: readonly CodePointRange[]): CodePointRange[] {
  const out: CodePointRange[] = [];
  let from = 0;
  // By index and defined slots, as in rangesText.
  for (let index = 0; index < ranges.length; index += 1) {
    const range = ranges[index] as CodePointRange;
    if (range[0] > from) addSlot(out, out.length, [from, range[0] - 1] as CodePointRange);
    from = range[1] + 1;
  }
  if (from <= 0x10ffff) addSlot(out, out.length, [from, 0x10ffff] as CodePointRange);
  return out;
}
