/**
 * Strict base64 (RFC 4648, section 4: the standard alphabet, padded): the one
 * text form of a part's bytes. Decoding refuses what a lenient decoder would
 * guess at (white space, a missing or misplaced `=`, the URL-safe alphabet,
 * bits set in the padding), so one byte sequence has exactly one text and a
 * Tool's base64 reaches a provider only as it was checked.
 */

import {
  asciiText,
  mathMin,
  NativeUint8Array,
  nativeBase64,
  stringCharCodeAt,
  typedArrayLength,
} from "./intrinsics.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const PAD = 0x3d; // "="

/** The ASCII code of each of the 64 digits. */
const DIGIT_CODES = new NativeUint8Array(64);
/** Each ASCII code's digit value, or -1 for a code that is no digit. */
const DIGIT_VALUES: number[] = [];
for (let code = 0; code < 128; code += 1) DIGIT_VALUES[code] = -1;
for (let digit = 0; digit < 64; digit += 1) {
  const code = stringCharCodeAt(ALPHABET, digit);
  DIGIT_CODES[digit] = code;
  DIGIT_VALUES[code] = digit;
}

/** A digit's value, or -1 (any code unit outside ASCII included). */
function digitValue(text: string, index: number): number {
  const code = stringCharCodeAt(text, index);
  return code < 128 ? (DIGIT_VALUES[code] as number) : -1;
}

/** What checking a base64 text found: its byte count, or why it is refused. */
export type Base64Check =
  | { readonly ok: true; readonly byteLength: number }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks `text` as strict base64 with the JavaScript scanner, naming the
 * first problem: the length a multiple of 4, only alphabet characters, `=`
 * only as the last one or two characters, and no bits set in what the
 * padding leaves of the last digit.
 */
export function scanBase64(text: string): Base64Check {
  const length = text.length;
  if (length % 4 !== 0) {
    return { ok: false, reason: `its length, ${length}, is not a multiple of 4` };
  }
  let padding = 0;
  if (length > 0 && stringCharCodeAt(text, length - 1) === PAD) {
    padding = stringCharCodeAt(text, length - 2) === PAD ? 2 : 1;
  }
  const digits = length - padding;
  for (let index = 0; index < digits; index += 1) {
    if (digitValue(text, index) === -1) {
      return { ok: false, reason: `character ${index + 1} is not in the base64 alphabet` };
    }
  }
  // Canonical form: the bits the padding drops from the last digit must be zero.
  if (padding > 0) {
    const last = digitValue(text, digits - 1);
    if ((padding === 1 && (last & 3) !== 0) || (padding === 2 && (last & 15) !== 0)) {
      return { ok: false, reason: "its last digit has bits set that the padding drops" };
    }
  }
  return { ok: true, byteLength: (length / 4) * 3 - padding };
}

/** What decoding a text strictly gives: its bytes, or why it is refused. */
export type Base64Decoded =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: string };

/** The byte count a base64 text of this length and padding stands for. */
function expectedBytes(text: string): number {
  const length = text.length;
  let padding = 0;
  if (length > 0 && stringCharCodeAt(text, length - 1) === PAD) {
    padding = stringCharCodeAt(text, length - 2) === PAD ? 2 : 1;
  }
  return (length / 4) * 3 - padding;
}

/**
 * Decodes `text` strictly: its bytes, or the reason it is not strict base64.
 * With Node's native coder the text is decoded and encoded again, and only a
 * text equal to the canonical encoding of its own bytes is strict (so a
 * lenient decoder's guesses never pass); the JavaScript scanner then names
 * what was wrong. Without it, the scanner decides and the bytes are decoded
 * in JavaScript.
 */
export function decodeStrictBase64(text: string): Base64Decoded {
  if (text.length % 4 !== 0) return scanBase64(text) as Base64Decoded;
  if (nativeBase64 !== undefined) {
    const bytes = new NativeUint8Array(expectedBytes(text));
    const written = nativeBase64.decode(text, bytes);
    if (written === typedArrayLength(bytes) && nativeBase64.encode(bytes) === text) {
      return { ok: true, bytes };
    }
    const scanned = scanBase64(text);
    return scanned.ok ? { ok: false, reason: "it is not canonical base64" } : scanned;
  }
  const scanned = scanBase64(text);
  if (!scanned.ok) return scanned;
  return { ok: true, bytes: decodeBase64(text, scanned.byteLength) };
}

/**
 * Checks `text` as strict base64: its byte count, or why it is refused (see
 * {@link decodeStrictBase64}).
 *
 * @example
 * checkBase64("aGk="); // { ok: true, byteLength: 2 }
 * checkBase64("aGk"); // { ok: false, reason: "its length, 3, is not a multiple of 4" }
 */
export function checkBase64(text: string): Base64Check {
  const decoded = decodeStrictBase64(text);
  return decoded.ok ? { ok: true, byteLength: typedArrayLength(decoded.bytes) } : decoded;
}

/**
 * Decodes the first `count` bytes (at most) of a text `scanBase64` accepted.
 * Costs what it decodes, not the length of the text.
 */
export function decodeBase64(text: string, byteLength: number, count = byteLength): Uint8Array {
  const size = mathMin(count, byteLength);
  const bytes = new NativeUint8Array(size);
  let out = 0;
  for (let index = 0; out < size; index += 4) {
    const group =
      (digitValue(text, index) << 18) |
      (digitValue(text, index + 1) << 12) |
      ((digitValue(text, index + 2) & 63) << 6) |
      (digitValue(text, index + 3) & 63);
    bytes[out] = group >> 16;
    if (out + 1 < size) bytes[out + 1] = (group >> 8) & 255;
    if (out + 2 < size) bytes[out + 2] = group & 255;
    out += 3;
  }
  return bytes;
}

/**
 * The strict base64 text of `bytes`: Node's native encoder where there is
 * one, else {@link encodeBase64InScript}.
 */
export function encodeBase64(bytes: Uint8Array): string {
  return nativeBase64 === undefined ? encodeBase64InScript(bytes) : nativeBase64.encode(bytes);
}

/**
 * The strict base64 text of `bytes` in JavaScript: written into a byte
 * buffer of ASCII digits and turned into a string by the native text decoder
 * in one call, far from a concatenation per character (about twenty times
 * Node's native encoder on a megabyte).
 */
export function encodeBase64InScript(bytes: Uint8Array): string {
  const length = typedArrayLength(bytes);
  const full = length - (length % 3);
  // Four digits per three bytes, a last short group padded: integer arithmetic only.
  const out = new NativeUint8Array(((length + 2 - ((length + 2) % 3)) / 3) * 4);
  let at = 0;
  for (let index = 0; index < full; index += 3) {
    const group =
      ((bytes[index] as number) << 16) |
      ((bytes[index + 1] as number) << 8) |
      (bytes[index + 2] as number);
    out[at] = DIGIT_CODES[group >> 18] as number;
    out[at + 1] = DIGIT_CODES[(group >> 12) & 63] as number;
    out[at + 2] = DIGIT_CODES[(group >> 6) & 63] as number;
    out[at + 3] = DIGIT_CODES[group & 63] as number;
    at += 4;
  }
  const rest = length - full;
  if (rest > 0) {
    const group =
      ((bytes[full] as number) << 16) | (rest === 2 ? (bytes[full + 1] as number) << 8 : 0);
    out[at] = DIGIT_CODES[group >> 18] as number;
    out[at + 1] = DIGIT_CODES[(group >> 12) & 63] as number;
    out[at + 2] = rest === 2 ? (DIGIT_CODES[(group >> 6) & 63] as number) : PAD;
    out[at + 3] = PAD;
  }
  return asciiText(out);
}
