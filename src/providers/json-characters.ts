/**
 * The characters of JSON text the argument parser looks at, by UTF-16 code
 * unit, and the small decisions about them (digits, hexadecimal digits,
 * one-character escapes).
 */

/** Code units of JSON's structural and number characters. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const MINUS = 0x2d;
export const PLUS = 0x2b;
export const DOT = 0x2e;
export const DIGIT_0 = 0x30;
export const DIGIT_9 = 0x39;

/** True for an ASCII digit. */
export function isDigit(unit: number): boolean {
  return unit >= DIGIT_0 && unit <= DIGIT_9;
}

/** The value of a hexadecimal digit, or -1. */
export function hexValue(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit >= 0x41 && unit <= 0x46) return unit - 0x37;
  if (unit >= 0x61 && unit <= 0x66) return unit - 0x57;
  return -1;
}

/** What a one-character escape stands for, or undefined when it is not one. */
export function simpleEscape(unit: number): string | undefined {
  switch (unit) {
    case QUOTE:
      return '"';
    case BACKSLASH:
      return "\\";
    case 0x2f:
      return "/";
    case 0x62:
      return "\b";
    case 0x66:
      return "\f";
    case 0x6e:
      return "\n";
    case 0x72:
      return "\r";
    case 0x74:
      return "\t";
    default:
      return undefined;
  }
}
