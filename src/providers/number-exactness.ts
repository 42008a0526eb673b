/**
 * Which JSON number literals a double holds exactly enough to be read without
 * a silent change. A double keeps about 15 to 17 significant digits: within
 * its ordinary range, `0.1` or `3.14159265358979323846` read as the nearest
 * double is what every JSON reader does and what the writer meant. Two kinds
 * of literal change visibly instead, and are refused, for the reason duplicate
 * keys are: a log or an approval prompt showing the text would show a number
 * other than the one the Tool gets.
 *
 * - Beyond `Number.MAX_SAFE_INTEGER` (2^53 - 1) a double no longer holds
 *   every integer, so digits of the integer part change
 *   (`9007199254740993` would be read as `9007199254740992`).
 * - Below the smallest normal double (2^-1022, about 2.2e-308) precision runs
 *   out: a non-zero literal can be read as 0 (`1e-400`) or as a subnormal
 *   with fewer digits (`4e-324` is read as `5e-324`).
 *
 * So a literal read as a double in one of those two ranges must name that
 * double: its decimal value must be exactly the double's own value
 * (`1152921504606846976`, 2^60) or exactly the value of the shortest text that
 * reads back as it, which is what `String(n)` and `JSON.stringify` write
 * (`1152921504606847000`, `1e300`, `5e-324`). A non-zero literal read as 0 is
 * refused as too small. Zero written any way (`0`, `-0`, `0.000e5`) is zero.
 */

import { stringCharCodeAt, stringSlice } from "../../course/src/internal.ts";
import { DIGIT_0, isDigit } from "./json-characters.ts";

/** The smallest positive normal double, 2^-1022. */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * More significant digits than any double's exact decimal value has (at most
 * 767, for the smallest normal doubles' neighbours): a literal with more names
 * no double.
 */
const MAX_DOUBLE_DIGITS = 800;

/** The smallest subnormal, 2^-1074: every subnormal is an integer multiple of it. */
const MIN_SUBNORMAL = 5e-324;

// Captured once: patched globals must not decide what a number is.
const toNumber = Number;
const toText = String;
const toBigInt = BigInt;
const bigIntText = (value: bigint): string => BigInt.prototype.toString.call(value);

/** 5^1074: 2^-1074 is 5^1074 / 10^1074. */
const FIVE_TO_1074 = toBigInt(5) ** toBigInt(1074);

/** Where the parts of a number literal lie in its text (end exclusive; an absent part is empty). */
export interface NumberParts {
  readonly integerStart: number;
  readonly integerEnd: number;
  readonly fractionStart: number;
  readonly fractionEnd: number;
  /** The exponent's sign and digits, or an empty range. */
  readonly exponentStart: number;
  readonly exponentEnd: number;
}

/** A decimal value as its significant digits (no leading or trailing zero) and a power of ten. */
interface Decimal {
  readonly digits: string;
  readonly power: number;
}

/**
 * The significant digits and power of ten of the literal whose parts are
 * `parts` in `text`; undefined when it has more significant digits than any
 * double's exact value, so it can name none. Zero has no digits.
 */
function literalDecimal(text: string, parts: NumberParts): Decimal | undefined {
  const { integerStart, integerEnd, fractionStart, fractionEnd } = parts;
  const integerLength = integerEnd - integerStart;
  const fractionLength = fractionEnd - fractionStart;
  // The mantissa's digits run over the integer part, then the fraction (the dot skipped).
  const position = (index: number): number =>
    index < integerLength ? integerStart + index : fractionStart + index - integerLength;
  const count = integerLength + fractionLength;
  let first = 0;
  while (first < count && stringCharCodeAt(text, position(first)) === DIGIT_0) first += 1;
  if (first === count) return { digits: "", power: 0 };
  let last = count - 1;
  while (stringCharCodeAt(text, position(last)) === DIGIT_0) last -= 1;
  if (last - first + 1 > MAX_DOUBLE_DIGITS) return undefined;
  let digits = "";
  for (let index = first; index <= last; index += 1) {
    const at = position(index);
    digits += stringSlice(text, at, at + 1);
  }
  const exponent =
    parts.exponentEnd > parts.exponentStart
      ? toNumber(stringSlice(text, parts.exponentStart, parts.exponentEnd))
      : 0;
  // The value is digits × 10^power: the zeros after the last significant digit raise it,
  // the fraction's digits lower it.
  return { digits, power: exponent + (count - 1 - last) - fractionLength };
}

/** `digits × 10^power` with the trailing zeros of `digits` moved into the power. */
function trimmed(digits: string, power: number): Decimal {
  let end = digits.length;
  while (end > 1 && stringCharCodeAt(digits, end - 1) === DIGIT_0) end -= 1;
  return { digits: stringSlice(digits, 0, end), power: power + digits.length - end };
}

/** The significant digits and power of ten of `String(value)` for a finite, non-zero double. */
function shortestDecimal(value: number): Decimal {
  const written = toText(value < 0 ? -value : value);
  // String(n) writes at most 17 significant digits: well within the literal reader's cap.
  return literalDecimal(written, scanNumber(written, 0, written.length)) as Decimal;
}

/** The exact decimal value of a finite, non-zero double beyond 2^53 - 1 or below the normal doubles. */
function exactDecimal(value: number): Decimal {
  const magnitude = value < 0 ? -value : value;
  // Every double beyond 2^53 is an integer, which BigInt converts exactly.
  if (magnitude > Number.MAX_SAFE_INTEGER) return trimmed(bigIntText(toBigInt(magnitude)), 0);
  // A subnormal is m × 2^-1074 = m × 5^1074 / 10^1074 (the division by 2^-1074 is exact).
  const units = toBigInt(magnitude / MIN_SUBNORMAL);
  return trimmed(bigIntText(units * FIVE_TO_1074), -1074);
}

const sameDecimal = (a: Decimal, b: Decimal): boolean =>
  a.digits === b.digits && a.power === b.power;

/**
 * Where the parts of the number literal from `start` (no sign) to `end` lie:
 * a literal already checked against JSON's grammar, or one `String(n)` wrote.
 */
export function scanNumber(text: string, start: number, end: number): NumberParts {
  let index = start;
  const digitAt = (at: number): boolean => at < end && isDigit(stringCharCodeAt(text, at));
  while (digitAt(index)) index += 1;
  const integerEnd = index;
  let fractionStart = index;
  let fractionEnd = index;
  if (index < end && stringCharCodeAt(text, index) === 0x2e) {
    fractionStart = index + 1;
    index = fractionStart;
    while (digitAt(index)) index += 1;
    fractionEnd = index;
  }
  // What follows is the exponent marker (e or E), then the exponent, which ends at `end`.
  const exponentStart = index < end ? index + 1 : end;
  return {
    integerStart: start,
    integerEnd,
    fractionStart,
    fractionEnd,
    exponentStart,
    exponentEnd: end,
  };
}

/**
 * Whether `value` lies where a double may not hold a literal exactly: beyond
 * 2^53 - 1 or below the smallest normal double (zero included).
 */
export function isBeyondExactRange(value: number): boolean {
  const magnitude = value < 0 ? -value : value;
  return magnitude > Number.MAX_SAFE_INTEGER || magnitude < MIN_NORMAL;
}

/** What a literal read as `value` amounts to: held exactly, read as 0 from a non-zero text, or changed. */
export type NumberExactness = "exact" | "underflow" | "inexact";

/**
 * Whether the literal whose parts are `parts` in `text`, read as the finite
 * double `value`, is held exactly enough (see the module's rule).
 *
 * @example
 * const text = "9007199254740993";
 * numberExactness(text, scanNumber(text, 0, text.length), Number(text)); // "inexact"
 */
export function numberExactness(text: string, parts: NumberParts, value: number): NumberExactness {
  if (!isBeyondExactRange(value)) return "exact";
  const literal = literalDecimal(text, parts);
  if (value === 0) return literal !== undefined && literal.digits === "" ? "exact" : "underflow";
  if (literal === undefined) return "inexact";
  return sameDecimal(literal, shortestDecimal(value)) || sameDecimal(literal, exactDecimal(value))
    ? "exact"
    : "inexact";
}
