/**
 * Which MIME types a part may declare, and whether its bytes are what it
 * declares: each binary type is recognised by the signature its format
 * starts with, plain text by being well-formed UTF-8. A declared type that
 * the bytes contradict is a lie the model's provider would trip over (or
 * worse, decode as something else), so such a part never leaves the boundary.
 */

import {
  freeze,
  isWellFormedUtf8,
  regExpTest,
  sealedRegExp,
  stringCharCodeAt,
  typedArrayLength,
} from "./intrinsics.js";

/** The binary part kinds. */
export type BinaryPartType = "image" | "audio" | "file";

/**
 * The MIME types each kind of part may declare; the bytes must match the
 * declared one. Images: PNG, JPEG, GIF and WebP (what Anthropic, OpenAI and
 * Gemini all take). Audio: WAV, MP3, OGG and FLAC. Files: PDF and plain
 * UTF-8 text.
 *
 * @example
 * TOOL_CONTENT_MIME_TYPES.image; // ["image/png", "image/jpeg", "image/gif", "image/webp"]
 */
export const TOOL_CONTENT_MIME_TYPES: {
  readonly image: readonly string[];
  readonly audio: readonly string[];
  readonly file: readonly string[];
} = freeze({
  image: freeze(["image/png", "image/jpeg", "image/gif", "image/webp"]),
  audio: freeze(["audio/wav", "audio/mpeg", "audio/ogg", "audio/flac"]),
  file: freeze(["application/pdf", "text/plain"]),
});

/** Whether `bytes` start with the ASCII text `prefix` at `offset`. */
function startsWith(bytes: Uint8Array, prefix: string, offset = 0): boolean {
  if (typedArrayLength(bytes) < offset + prefix.length) return false;
  for (let index = 0; index < prefix.length; index += 1) {
    if (bytes[offset + index] !== stringCharCodeAt(prefix, index)) return false;
  }
  return true;
}

/** An MPEG audio frame header: eleven sync bits, a defined version and layer. */
function isMpegFrame(bytes: Uint8Array): boolean {
  if (typedArrayLength(bytes) < 2 || bytes[0] !== 0xff) return false;
  const second = bytes[1] as number;
  return (second & 0xe0) === 0xe0 && (second & 0x18) !== 0x08 && (second & 0x06) !== 0;
}

/**
 * The binary format the first bytes of `prefix` announce, by signature, or
 * undefined. Plain text has no signature and is never named here.
 */
export function sniffMimeType(prefix: Uint8Array): string | undefined {
  if (startsWith(prefix, "\x89PNG\r\n\x1a\n")) return "image/png";
  if (
    typedArrayLength(prefix) >= 3 &&
    prefix[0] === 0xff &&
    prefix[1] === 0xd8 &&
    prefix[2] === 0xff
  ) {
    return "image/jpeg";
  }
  if (startsWith(prefix, "GIF87a") || startsWith(prefix, "GIF89a")) return "image/gif";
  if (startsWith(prefix, "RIFF") && startsWith(prefix, "WEBP", 8)) return "image/webp";
  if (startsWith(prefix, "RIFF") && startsWith(prefix, "WAVE", 8)) return "audio/wav";
  if (startsWith(prefix, "ID3") || isMpegFrame(prefix)) return "audio/mpeg";
  if (startsWith(prefix, "OggS")) return "audio/ogg";
  if (startsWith(prefix, "fLaC")) return "audio/flac";
  if (startsWith(prefix, "%PDF-")) return "application/pdf";
  return undefined;
}

/** Whether `mimeType` is one `type` parts may declare. */
export function isSupportedMimeType(type: BinaryPartType, mimeType: string): boolean {
  const list = TOOL_CONTENT_MIME_TYPES[type];
  for (let index = 0; index < list.length; index += 1) {
    if (list[index] === mimeType) return true;
  }
  return false;
}

/** A MIME type short and plain enough to repeat in a line the model reads. */
const SHOWABLE_MIME_TYPE = sealedRegExp(/^[a-z0-9][a-z0-9.+-]{0,30}\/[a-z0-9][a-z0-9.+-]{0,30}$/);

/** `mimeType` as a line may name it: itself when short and plain, else a description. */
export function showMimeType(mimeType: string): string {
  return regExpTest(SHOWABLE_MIME_TYPE, mimeType) ? mimeType : "its MIME type";
}

/**
 * Why `bytes`, a whole part, are not what `mimeType` declares, or undefined
 * when they are: plain text is checked byte by byte, every other type by the
 * signature its first bytes hold.
 */
export function signatureProblem(mimeType: string, bytes: Uint8Array): string | undefined {
  const found = sniffMimeType(bytes);
  if (mimeType === "text/plain") {
    if (found !== undefined) return `declared text/plain, but the bytes are ${found}`;
    // A NUL byte is valid UTF-8 but marks binary data, not text a model should read.
    for (let index = 0; index < typedArrayLength(bytes); index += 1) {
      if (bytes[index] === 0) return "declared text/plain, but the bytes hold a NUL byte";
    }
    return isWellFormedUtf8(bytes) ? undefined : "declared text/plain, but the bytes are not UTF-8";
  }
  if (found === mimeType) return undefined;
  return found === undefined
    ? `declared ${mimeType}, but the bytes are not ${mimeType}`
    : `declared ${mimeType}, but the bytes are ${found}`;
}
