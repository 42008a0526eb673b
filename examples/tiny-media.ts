/**
 * Tiny, valid media made on the spot (no files): a one-pixel PNG and a
 * short silent WAV, for the conformance Tools and the tests of parts.
 */

import { crc32, deflateSync } from "node:zlib";

/** One PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A 1x1 PNG of one RGB colour (default red).
 *
 * @example
 * onePixelPng().subarray(1, 4).toString(); // "PNG"
 */
export function onePixelPng(red = 255, green = 0, blue = 0): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, default compression, filter, no interlace
  // One scanline: filter type 0, then the pixel.
  const pixels = deflateSync(Buffer.from([0, red, green, blue]));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([
      signature,
      chunk("IHDR", header),
      chunk("IDAT", pixels),
      chunk("IEND", new Uint8Array()),
    ]),
  );
}

/**
 * A mono 8 kHz 16-bit PCM WAV of `samples` samples of silence (default 800: 0.1 s).
 *
 * @example
 * Buffer.from(silentWav()).subarray(8, 12).toString(); // "WAVE"
 */
export function silentWav(samples = 800): Uint8Array {
  const dataBytes = samples * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write("RIFF", 0, "latin1");
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write("WAVE", 8, "latin1");
  wav.write("fmt ", 12, "latin1");
  wav.writeUInt32LE(16, 16); // fmt chunk size
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(8_000, 24); // sample rate
  wav.writeUInt32LE(16_000, 28); // byte rate
  wav.writeUInt16LE(2, 32); // block align
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write("data", 36, "latin1");
  wav.writeUInt32LE(dataBytes, 40);
  return new Uint8Array(wav);
}
