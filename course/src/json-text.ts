/**
 * JSON string text, one code point at a time: the escapes the serializer
 * writes, and cuts of a long text from its start or its end that cost only
 * what they keep and never split a surrogate pair or an escape. Three styles
 * of writing: the course's (every control as `\uxxxx`), standard JSON (the
 * short escapes `\n`, `\t`, ... where JSON has them) and raw text (nothing
 * escaped, a lone surrogate written as U+FFFD).
 */

import { stringCharCodeAt, stringIsWellFormed, stringSlice } from "./intrinsics.js";

const HEX = "0123456789abcdef";

/** How string text is written: the course's escapes (the default everywhere). */
export const COURSE_ESCAPES = 0;
/** Standard JSON escapes, as `JSON.stringify` writes them. */
export const JSON_ESCAPES = 1;
/** Raw text: nothing escaped, no quotes, a lone surrogate replaced by U+FFFD. */
export const RAW_TEXT = 2;
/** One of the three styles above. */
export type TextStyle = typeof COURSE_ESCAPES | typeof JSON_ESCAPES | typeof RAW_TEXT;

/** U+FFFD, what raw text writes for a lone surrogate (it has no UTF-8 form). */
const REPLACEMENT = "\ufffd";

/** JSON's two-character escapes of control characters, by code unit; empty where JSON has none. */
function shortControlEscape(unit: number): string {
  switch (unit) {
    case 0x08:
      return "\\b";
    case 0x09:
      return "\\t";
    case 0x0a:
      return "\\n";
    case 0x0c:
      return "\\f";
    case 0x0d:
      return "\\r";
    default:
      return "";
  }
}

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
 * rest as it is. Its length is its code-point count. With `style`
 * `JSON_ESCAPES`, a control with a short escape (`\n`, `\t`, `\b`, `\f`,
 * `\r`) takes it; with `RAW_TEXT`, nothing is escaped and a lone surrogate is
 * U+FFFD.
 */
export function escapeUnit(
  text: string,
  index: number,
  unit: number,
  style: TextStyle = COURSE_ESCAPES,
): string {
  if (style === RAW_TEXT) {
    return unit >= 0xd800 && unit <= 0xdfff ? REPLACEMENT : stringSlice(text, index, index + 1);
  }
  if (unit === 0x22) return '\\"';
  if (unit === 0x5c) return "\\\\";
  if (style === JSON_ESCAPES && unit < 0x20) {
    const short = shortControlEscape(unit);
    if (short !== "") return short;
  }
  if (unit < 0x20 || (unit >= 0xd800 && unit <= 0xdfff)) {
    return `\\u${HEX[(unit >> 12) & 15]}${HEX[(unit >> 8) & 15]}${HEX[(unit >> 4) & 15]}${HEX[unit & 15]}`;
  }
  return stringSlice(text, index, index + 1);
}

/** Whether the unit at a run's position needs no treatment in `style` (a surrogate always does). */
function isRunUnit(unit: number, style: TextStyle): boolean {
  if (unit >= 0xd800 && unit <= 0xdfff) return false;
  return style === RAW_TEXT || (unit >= 0x20 && unit !== 0x22 && unit !== 0x5c);
}

/**
 * The JSON text of `source[start, end)`: runs of characters that need no
 * escaping are copied with one slice each (a long plain run costs one copy,
 * not one concatenation per character), the rest escaped one unit at a time,
 * in `style` (default the course's). `start` and `end` must not split a
 * surrogate pair.
 */
export function escapeRange(
  source: string,
  start: number,
  end: number,
  style: TextStyle = COURSE_ESCAPES,
): string {
  // A whole raw text with no lone surrogate is itself (the native check, when there is one).
  if (
    style === RAW_TEXT &&
    start === 0 &&
    end === source.length &&
    stringIsWellFormed?.(source) === true
  ) {
    return source;
  }
  let text = "";
  let run = start;
  let index = start;
  while (index < end) {
    const unit = stringCharCodeAt(source, index);
    if (isRunUnit(unit, style)) {
      index += 1;
      continue;
    }
    if (
      isHighSurrogate(unit) &&
      index + 1 < end &&
      isLowSurrogate(stringCharCodeAt(source, index + 1))
    ) {
      index += 2;
      continue;
    }
    text += stringSlice(source, run, index) + escapeUnit(source, index, unit, style);
    index += 1;
    run = index;
  }
  return text + stringSlice(source, run, end);
}

/*
 * One step over a string, packed in a number so that a walk allocates
 * nothing: the code points it writes times 4, plus the units it spans (1, or
 * 2 for a surrogate pair). A pair writes 1 code point, `"` and `\` 2, a
 * control character or a lone surrogate 6 (`\uxxxx`), anything else 1.
 */
const PLAIN = (1 << 2) | 1;
const PAIR = (1 << 2) | 2;
const SHORT_ESCAPE = (2 << 2) | 1;
const LONG_ESCAPE = (6 << 2) | 1;

/**
 * The step of a unit that is not part of a pair in `style`: raw text writes
 * everything as one code point (a lone surrogate as U+FFFD), JSON writes `"`
 * and `\` in 2, controls in 2 or 6, lone surrogates in 6.
 */
function unitStep(unit: number, style: TextStyle): number {
  if (style === RAW_TEXT) return PLAIN;
  if (unit === 0x22 || unit === 0x5c) return SHORT_ESCAPE;
  if (unit < 0x20) {
    return style === JSON_ESCAPES && shortControlEscape(unit) !== "" ? SHORT_ESCAPE : LONG_ESCAPE;
  }
  return unit >= 0xd800 && unit <= 0xdfff ? LONG_ESCAPE : PLAIN;
}

/** The step at `index`, reading forwards. */
function forwardStep(source: string, index: number, length: number, style: TextStyle): number {
  const unit = stringCharCodeAt(source, index);
  if (isHighSurrogate(unit)) {
    const paired = index + 1 < length && isLowSurrogate(stringCharCodeAt(source, index + 1));
    if (paired) return PAIR;
  }
  return unit >= 0x20 && unit !== 0x22 && unit !== 0x5c && unit < 0xd800
    ? PLAIN
    : unitStep(unit, style);
}

/** The step ending just before `end`, reading backwards (a pair never reaches below `floor`). */
function backwardStep(source: string, end: number, floor: number, style: TextStyle): number {
  const unit = stringCharCodeAt(source, end - 1);
  if (isLowSurrogate(unit)) {
    const paired = end - 2 >= floor && isHighSurrogate(stringCharCodeAt(source, end - 2));
    if (paired) return PAIR;
  }
  return unit >= 0x20 && unit !== 0x22 && unit !== 0x5c && unit < 0xd800
    ? PLAIN
    : unitStep(unit, style);
}

/** How far a walk over a string got: the units it spans, and what it writes and takes. */
export interface TextSpan {
  /** UTF-16 code units of the source spanned. */
  readonly units: number;
  /** Code points of its JSON text. */
  readonly written: number;
  /** Code points of the source taken. */
  readonly taken: number;
}

/**
 * Measures the longest start of `source` whose JSON text stays within `room`
 * code points and which takes at most `sourceRoom` source code points.
 * Reads only what it keeps (plus one code point), however long the source.
 * `from` resumes an earlier, narrower measure instead of starting over;
 * `style` is how the text will be written (default the course's escapes).
 */
export function measureHead(
  source: string,
  room: number,
  sourceRoom: number,
  from?: TextSpan,
  style: TextStyle = COURSE_ESCAPES,
): TextSpan {
  const length = source.length;
  let index = from?.units ?? 0;
  let written = from?.written ?? 0;
  let taken = from?.taken ?? 0;
  while (index < length && taken < sourceRoom) {
    const step = forwardStep(source, index, length, style);
    if (written + (step >> 2) > room) break;
    written += step >> 2;
    taken += 1;
    index += step & 3;
  }
  return { units: index, written, taken };
}

/** As {@link measureHead}, for the end of `source`, never reaching below index `floor`. */
export function measureTail(
  source: string,
  room: number,
  sourceRoom: number,
  floor: number,
  from?: TextSpan,
  style: TextStyle = COURSE_ESCAPES,
): TextSpan {
  let index = source.length - (from?.units ?? 0);
  let written = from?.written ?? 0;
  let taken = from?.taken ?? 0;
  while (index > floor && taken < sourceRoom) {
    const step = backwardStep(source, index, floor, style);
    if (written + (step >> 2) > room) break;
    written += step >> 2;
    taken += 1;
    index -= step & 3;
  }
  return { units: source.length - index, written, taken };
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
