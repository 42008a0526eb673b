/**
 * Test support for multi-part output: a real 1x1 PNG, and for every MIME
 * type a part may declare, the shortest bytes whose signature announces it
 * (what the boundary checks; not playable media).
 */

/** A valid 1x1 PNG (one opaque pixel), as providers and MCP clients decode it. */
export const PNG_1X1_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** The same PNG's bytes. */
export const PNG_1X1: Uint8Array = Uint8Array.from(Buffer.from(PNG_1X1_BASE64, "base64"));

const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));

/** Bytes starting with each supported type's signature, keyed by MIME type. */
export const SIGNED_SAMPLES: Readonly<Record<string, Uint8Array>> = {
  "image/png": PNG_1X1,
  "image/jpeg": Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...ascii("JFIF"), 0, 1]),
  "image/gif": Uint8Array.from([...ascii("GIF89a"), 1, 0, 1, 0, 0, 0, 0]),
  "image/webp": Uint8Array.from([...ascii("RIFF"), 26, 0, 0, 0, ...ascii("WEBPVP8 ")]),
  "audio/wav": Uint8Array.from([...ascii("RIFF"), 36, 0, 0, 0, ...ascii("WAVEfmt ")]),
  "audio/mpeg": Uint8Array.from([...ascii("ID3"), 4, 0, 0, 0, 0, 0, 0]),
  "audio/ogg": Uint8Array.from([...ascii("OggS"), 0, 2, 0, 0, 0, 0, 0, 0]),
  "audio/flac": Uint8Array.from([...ascii("fLaC"), 0, 0, 0, 34]),
  "application/pdf": Uint8Array.from(ascii("%PDF-1.7\n%\u00b5\n1 0 obj\n")),
  "text/plain": new TextEncoder().encode("Notes: ü, 😀, and a tab\there.\n"),
};

/** An MP3 that starts with a bare MPEG frame header instead of an ID3 tag. */
export const MPEG_FRAME = Uint8Array.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]);

/** Standard base64 of `bytes`, as Node writes it. */
export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");
