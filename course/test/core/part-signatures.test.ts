/**
 * Magic bytes at their edges: each signature is recognised with exactly its
 * own bytes and no more, a near miss in any byte is recognised as nothing,
 * and an MPEG frame header needs its sync bits, a defined version and a
 * defined layer. A part declaring a type its bytes do not start with is told why.
 * The supported MIME types are each kind's own list and nothing planted past its end.
 */
import { describe, expect, test } from "vitest";
import {
  type BinaryPartType,
  isSupportedMimeType,
  signatureProblem,
  sniffMimeType,
  TOOL_CONTENT_MIME_TYPES,
} from "../../src/part-signatures.ts";

const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));
const bytesOf = (...groups: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(groups.flatMap((group) => (typeof group === "string" ? ascii(group) : group)));

describe("a signature of exactly its own length is recognised", () => {
  test.each([
    ["image/png", bytesOf([0x89], "PNG\r\n\x1a\n")],
    ["image/jpeg", bytesOf([0xff, 0xd8, 0xff])],
    ["image/gif", bytesOf("GIF87a")],
    ["image/gif", bytesOf("GIF89a")],
    ["image/webp", bytesOf("RIFF", [0, 0, 0, 0], "WEBP")],
    ["audio/wav", bytesOf("RIFF", [0, 0, 0, 0], "WAVE")],
    ["audio/mpeg", bytesOf("ID3")],
    ["audio/mpeg", bytesOf([0xff, 0xfb])],
    ["audio/ogg", bytesOf("OggS")],
    ["audio/flac", bytesOf("fLaC")],
    ["application/pdf", bytesOf("%PDF-")],
  ])("%s (%#)", (mimeType, bytes) => {
    expect(sniffMimeType(bytes)).toBe(mimeType);
    expect(signatureProblem(mimeType, bytes)).toBeUndefined();
    // One byte short is no signature at all.
    expect(sniffMimeType(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
  });
});

describe("a near miss is recognised as nothing", () => {
  test.each([
    ["JPEG with another first byte", bytesOf([0x00, 0xd8, 0xff, 0xe0])],
    ["JPEG with another second byte", bytesOf([0xff, 0x00, 0xff, 0xe0])],
    ["JPEG with another third byte", bytesOf([0xff, 0xd8, 0x00, 0xe0])],
    ["only JPEG's third byte", bytesOf([0x00, 0x00, 0xff, 0xe0])],
    ["WebP in a RIFX container", bytesOf("RIFX", [0, 0, 0, 0], "WEBP")],
    ["WAVE in a RIFX container", bytesOf("RIFX", [0, 0, 0, 0], "WAVE")],
    ["a RIFF of another form (AVI)", bytesOf("RIFF", [0, 0, 0, 0], "AVI ")],
    ["an MPEG frame byte after a zero byte", bytesOf([0x00, 0xfb, 0x90, 0x64])],
    ["eleven sync bits missing one", bytesOf([0xff, 0xdb, 0x90, 0x64])],
    ["the reserved MPEG version", bytesOf([0xff, 0xeb, 0x90, 0x64])],
    ["the reserved MPEG layer", bytesOf([0xff, 0xf9, 0x90, 0x64])],
    ["a lone 0xff", bytesOf([0xff])],
  ])("%s", (_label, bytes) => {
    expect(sniffMimeType(bytes)).toBeUndefined();
  });

  test.each([
    [0xfb, "audio/mpeg"], // MPEG-1 layer III
    [0xf3, "audio/mpeg"], // MPEG-2 layer III
    [0xe3, "audio/mpeg"], // MPEG-2.5 layer III
    [0xfd, "audio/mpeg"], // MPEG-1 layer II
    [0xff, "audio/mpeg"], // MPEG-1 layer I
    [0xfa, "audio/mpeg"], // layer III, no CRC bit
  ])("the frame byte 0x%s is an MPEG frame", (second, mimeType) => {
    expect(sniffMimeType(bytesOf([0xff, second]))).toBe(mimeType);
  });
});

describe("a declared type the bytes contradict", () => {
  test.each([
    [
      "image/jpeg",
      bytesOf([0x00, 0xd8, 0xff, 0xe0]),
      "declared image/jpeg, but the bytes are not image/jpeg",
    ],
    [
      "audio/mpeg",
      bytesOf([0x00, 0xfb, 0x90, 0x64]),
      "declared audio/mpeg, but the bytes are not audio/mpeg",
    ],
    [
      "audio/wav",
      bytesOf("RIFF", [0, 0, 0, 0], "AVI "),
      "declared audio/wav, but the bytes are not audio/wav",
    ],
    [
      "image/webp",
      bytesOf("RIFF", [0, 0, 0, 0], "WAVE"),
      "declared image/webp, but the bytes are audio/wav",
    ],
    ["text/plain", bytesOf("%PDF-1.7"), "declared text/plain, but the bytes are application/pdf"],
    ["text/plain", bytesOf("a", [0], "b"), "declared text/plain, but the bytes hold a NUL byte"],
    ["text/plain", bytesOf([0xc3]), "declared text/plain, but the bytes are not UTF-8"],
  ])("%s: %s", (mimeType, bytes, problem) => {
    expect(signatureProblem(mimeType, bytes)).toBe(problem);
  });

  test("text/plain: well-formed UTF-8 without NUL passes, to its last byte", () => {
    expect(signatureProblem("text/plain", new TextEncoder().encode("h\u00e9llo"))).toBeUndefined();
    expect(signatureProblem("text/plain", bytesOf("hello", [0]))).toBe(
      "declared text/plain, but the bytes hold a NUL byte",
    );
  });
});

describe("the supported MIME types of a kind", () => {
  const kinds: BinaryPartType[] = ["image", "audio", "file"];
  test.each(kinds)(
    "%s: a type planted on Array.prototype just past the list is not supported",
    (type) => {
      const length = TOOL_CONTENT_MIME_TYPES[type].length;
      expect(TOOL_CONTENT_MIME_TYPES[type]).not.toContain("image/bmp");
      let reads = 0;
      Object.defineProperty(Array.prototype, `${length}`, {
        configurable: true,
        get() {
          reads += 1;
          return "image/bmp";
        },
      });
      let supported: boolean;
      try {
        supported = isSupportedMimeType(type, "image/bmp");
      } finally {
        delete (Array.prototype as unknown as Record<string, unknown>)[`${length}`];
      }
      expect(reads).toBe(0);
      expect(supported).toBe(false);
    },
  );
});
