/**
 * Strict base64: every text a lenient decoder would guess at is refused with
 * its reason, the encoder writes what Node's native encoder writes, and a
 * checked text decodes to the bytes it came from.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  checkBase64,
  decodeBase64,
  decodeStrictBase64,
  encodeBase64,
  encodeBase64InScript,
  scanBase64,
} from "../../src/base64.ts";
import { nativeBase64 } from "../../src/intrinsics.ts";

describe("checkBase64 refuses what is not strict base64", () => {
  test.each([
    ["truncated (one digit short)", "aGVsbG8", "its length, 7, is not a multiple of 4"],
    ["missing padding", "aGk", "its length, 3, is not a multiple of 4"],
    ["padding past the end", "aGk===", "its length, 6, is not a multiple of 4"],
    ["three padding characters", "aG===", "its length, 5, is not a multiple of 4"],
    ["padding in the middle", "aGk=aGk=", "character 4 is not in the base64 alphabet"],
    ["a line break", "aGVs\nbG8=", "its length, 9, is not a multiple of 4"],
    ["a space in a full group", "aGVs bG8", "character 5 is not in the base64 alphabet"],
    ["the URL-safe alphabet", "-_-_", "character 1 is not in the base64 alphabet"],
    ["a character beyond ASCII", "aGVs\u00e9G8=", "character 5 is not in the base64 alphabet"],
    ["bits set under one =", "aGl=", "its last digit has bits set that the padding drops"],
    ["bits set under two =", "aB==", "its last digit has bits set that the padding drops"],
  ])("%s", (_label, text, reason) => {
    // The native path (decode, encode, compare) and the script's scanner agree, reason and all.
    expect(checkBase64(text)).toEqual({ ok: false, reason });
    expect(scanBase64(text)).toEqual({ ok: false, reason });
    expect(decodeStrictBase64(text)).toEqual({ ok: false, reason });
  });

  test.each([
    ["\u007f", "DEL, the last ASCII code"],
    ["\u0080", "the first code past ASCII"],
    ["\u00ff", "the last Latin-1 code"],
    ["\u0100", "the first code past Latin-1"],
  ])("refuses %j (%s) wherever it stands", (char) => {
    for (const [text, position] of [
      [`${char}GVs`, 1],
      [`aGV${char}`, 4],
      [`aG${char}=`, 3],
    ] as const) {
      const reason = `character ${position} is not in the base64 alphabet`;
      expect(scanBase64(text)).toEqual({ ok: false, reason });
      expect(checkBase64(text)).toEqual({ ok: false, reason });
    }
  });

  test.each([
    ["", 0],
    ["aA==", 1],
    ["aGk=", 2],
    ["aGVs", 3],
    ["aGVsbG8=", 5],
  ])("accepts %j as %i bytes", (text, byteLength) => {
    expect(checkBase64(text)).toEqual({ ok: true, byteLength });
    expect(scanBase64(text)).toEqual({ ok: true, byteLength });
    expect(decodeBase64(text, byteLength)).toEqual(Uint8Array.from(Buffer.from(text, "base64")));
  });

  test("decodes only the bytes asked for", () => {
    expect(decodeBase64("aGVsbG8=", 5, 2)).toEqual(Uint8Array.from([0x68, 0x65]));
  });
});

describe("the encoder", () => {
  test("this runtime has Node's native coder, which passed its self-test", () => {
    expect(nativeBase64).toBeDefined();
  });

  test("writes what Node's encoder writes, in script and natively, and the checker reads it back, for any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodeBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect(encodeBase64InScript(bytes)).toBe(text);
        expect(scanBase64(text)).toEqual({ ok: true, byteLength: bytes.length });
        expect(decodeStrictBase64(text)).toEqual({ ok: true, bytes });
        const checked = checkBase64(text);
        expect(checked).toEqual({ ok: true, byteLength: bytes.length });
        expect(decodeBase64(text, bytes.length)).toEqual(bytes);
      }),
      { seed: 20_260_406, numRuns: 300 },
    );
  });

  test("one byte sequence has one text: a changed padding bit is refused", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (bytes) => {
        fc.pre(bytes.length % 3 !== 0);
        const text = encodeBase64(bytes);
        const last = text.replace(/=+$/, "").length - 1;
        const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const flipped = alphabet[alphabet.indexOf(text[last] as string) ^ 1] as string;
        const changed = `${text.slice(0, last)}${flipped}${text.slice(last + 1)}`;
        expect(checkBase64(changed).ok).toBe(false);
        expect(scanBase64(changed).ok).toBe(false);
      }),
      { seed: 20_260_406, numRuns: 200 },
    );
  });
});
