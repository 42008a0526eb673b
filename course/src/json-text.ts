/**
 * JSON string text, one code point at a time: the escapes the serializer
 * writes, and cuts of a long text from its start or its end that cost only
 * what they keep and never split a surrogate pair or an escape.
 */

import { stringCharCodeAt, stringSlice } from "./intrinsics.ts";

const HEX = "0123456789abcdef";

/**
 * True when `text` needs no escaping and has no surrogates, so that its
 * length is its code-point count and it can be written as it is. A loop,
 * not a RegExp: `RegExp.prototype.test` looks `exec` up at call time, and a
 * patched `exec` must not decide what counts as safe.
 */
export function isPlainText(text: string, length: number): boolean {
  for (let index = 0; index < length; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff)) {
      return false;
    }
  }
  return true;
}

/** True for a UTF-16 high (leading) surrogate. */
export const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
/** True for a UTF-16 low (trailing) surrogate. */
export const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The JSON text of one code unit that is not part of a surrogate pair: `"`
 * and `\` escaped, controls and lone surrogates as `\uxxxx` (lowercase), the
 * rest as it is. Its length is its code-point count.
 */
export function escapeUnit(text: string, index: number, unit: number): string {
  if (unit === 0x22) return '\\"';
  if (unit === 0x5c) return "\\\\";
  if (unit < 0x20 || (unit >= 0xd800 && unit <= 0xdfff)) {
    return `\\u${HEX[(unit >> 12) & 15]}${HEX[(unit >> 8) & 15]}${HEX[(unit >> 4) & 15]}${HEX[unit & 15]}`;
  }
  return stringSlice(text, index, index + 1);
}

/** A piece cut from a string: its JSON text and how much of the source it took. */
export interface TextPiece {
  /** The escaped JSON text (without quotes). */
  readonly text: string;
  /** Code points of `text`. */
  readonly written: number;
  /** UTF-16 code units of the source consumed. */
  readonly units: number;
}

/**
 * Escapes `source` from its start while the escaped text stays within `room`
 * code points and the source code points taken stay within `sourceRoom`.
 * Costs what it keeps, however long the source.
 */
export function headPiece(source: string, room: number, sourceRoom: number): TextPiece {
  let text = "";
  let written = 0;
  let taken = 0;
  let index = 0;
  const length = source.length;
  while (index < length && taken < sourceRoom) {
    const unit = stringCharCodeAt(source, index);
    if (isHighSurrogate(unit) && index + 1 < length) {
      const next = stringCharCodeAt(source, index + 1);
      if (isLowSurrogate(next)) {
        if (written + 1 > room) break;
        text += stringSlice(source, index, index + 2);
        written += 1;
        taken += 1;
        index += 2;
        continue;
      }
    }
    const escaped = escapeUnit(source, index, unit);
    if (written + escaped.length > room) break;
    text += escaped;
    written += escaped.length;
    taken += 1;
    index += 1;
  }
  return { text, written, units: index };
}

/**
 * Escapes `source` from its end, backwards, within `room` written and
 * `sourceRoom` source code points, never reaching below index `floor` (what a
 * head piece already took). Costs what it keeps.
 */
export function tailPiece(
  source: string,
  room: number,
  sourceRoom: number,
  floor: number,
): TextPiece {
  let text = "";
  let written = 0;
  let taken = 0;
  let index = source.length; // one past the next unit to take
  while (index > floor && taken < sourceRoom) {
    const unit = stringCharCodeAt(source, index - 1);
    if (isLowSurrogate(unit) && index - 2 >= floor) {
      const previous = stringCharCodeAt(source, index - 2);
      if (isHighSurrogate(previous)) {
        if (written + 1 > room) break;
        text = stringSlice(source, index - 2, index) + text;
        written += 1;
        taken += 1;
        index -= 2;
        continue;
      }
    }
    const escaped = escapeUnit(source, index - 1, unit);
    if (written + escaped.length > room) break;
    text = escaped + text;
    written += escaped.length;
    taken += 1;
    index -= 1;
  }
  return { text, written, units: source.length - index };
}

/** The first `points` code points of `text` (a surrogate pair counts once and is never split). */
export function firstCodePoints(text: string, points: number): string {
  let index = 0;
  let taken = 0;
  while (taken < points && index < text.length) {
    const unit = stringCharCodeAt(text, index);
    index += isHighSurrogate(unit) && index + 1 < text.length ? 2 : 1;
    taken += 1;
  }
  return stringSlice(text, 0, index);
}

/** The number of code points in `text` (a surrogate pair counts once). */
export function codePointCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (isHighSurrogate(unit) && isLowSurrogate(stringCharCodeAt(text, index + 1))) index += 1;
    count += 1;
  }
  return count;
}
