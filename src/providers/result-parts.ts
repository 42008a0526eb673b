/**
 * The `parts` of a result message, read back by what hands them on (the
 * provider round trip, the AI SDK's `toModelOutput`): a message may come from
 * storage rather than straight from the boundary, so every part is checked
 * again, field by field, as own data, before any byte of it leaves.
 */

import {
  TOOL_CONTENT_MAX_NAME_CHARACTERS,
  TOOL_CONTENT_MAX_PARTS,
  TOOL_CONTENT_MIME_TYPES,
  type ToolResultPart,
} from "../../course/src/index.ts";
import {
  ArrayPrototype,
  apply,
  checkBase64,
  decodeStrictBase64,
  freeze,
  getOwnPropertyDescriptor,
  hasOwn,
  isArray,
  isFrozen,
  isProxy,
  placeholderLine,
  stringCharCodeAt,
} from "../../course/src/internal.ts";
import { describeFound } from "./describe-found.ts";
import { addData } from "./own-data.ts";

// Built-ins captured when this module loads: a Tool runs in this process and may replace
// `String.prototype.endsWith`, `Buffer.prototype.toString` or what they call afterwards,
// and what they answer here is what the model reads (a part's byte count, a file's text).
const NativeTextDecoder = TextDecoder;
const textDecode = TextDecoder.prototype.decode;
// UTF-8 with a byte order mark kept and malformed bytes replaced, as `toString("utf8")` reads.
const utf8Decoder = new NativeTextDecoder("utf-8", { ignoreBOM: true });

/** An own data field, or undefined when absent; an accessor is refused without running. */
function dataField(
  target: object,
  key: string,
  at: string,
  refuse: (what: string) => never,
): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) return undefined;
  if (!hasOwn(descriptor, "value")) refuse(`${at}.${key} must be an own data field`);
  return descriptor.value;
}

function isListed(type: "image" | "audio" | "file", mimeType: unknown): boolean {
  const listed = TOOL_CONTENT_MIME_TYPES[type];
  for (let index = 0; index < listed.length; index += 1) {
    if (listed[index] === mimeType) return true;
  }
  return false;
}

/** The listed MIME types of `type`, comma-separated (by index: no live `join`). */
function listed(type: "image" | "audio" | "file"): string {
  const types = TOOL_CONTENT_MIME_TYPES[type];
  let text = "";
  for (let index = 0; index < types.length; index += 1) {
    text += index === 0 ? types[index] : `, ${types[index]}`;
  }
  return text;
}

function readPart(value: unknown, at: string, refuse: (what: string) => never): ToolResultPart {
  if (typeof value !== "object" || value === null || isProxy(value) || !isFrozen(value)) {
    return refuse(`${at} must be a frozen part; found ${describeFound(value)}`);
  }
  const type = dataField(value, "type", at, refuse);
  if (type === "text") {
    const text = dataField(value, "text", at, refuse);
    if (typeof text !== "string") refuse(`${at}.text must be a string`);
    return value as ToolResultPart;
  }
  if (type !== "image" && type !== "audio" && type !== "file") {
    return refuse(`${at}.type must be "text", "image", "audio" or "file"`);
  }
  const mimeType = dataField(value, "mimeType", at, refuse);
  if (!isListed(type, mimeType)) refuse(`${at}.mimeType must be one of ${listed(type)}`);
  const data = dataField(value, "data", at, refuse);
  // Strict base64 of at least one byte: what the boundary writes, and all a provider accepts.
  const checked = typeof data === "string" ? checkBase64(data) : undefined;
  if (checked === undefined || !checked.ok || checked.byteLength === 0) {
    refuse(`${at}.data must be strict base64 of at least one byte`);
  }
  const name = dataField(value, "name", at, refuse);
  if (
    name !== undefined &&
    (type !== "file" ||
      typeof name !== "string" ||
      name.length === 0 ||
      name.length > TOOL_CONTENT_MAX_NAME_CHARACTERS)
  ) {
    refuse(
      `${at}.name must be a file's name of 1 to ${TOOL_CONTENT_MAX_NAME_CHARACTERS} characters`,
    );
  }
  return value as ToolResultPart;
}

/**
 * Reads a result message's optional `parts`: undefined when it has none, else
 * the frozen list, every part checked (frozen, own data fields, a known type,
 * a listed MIME type, strict base64 data, a file name within bounds). Calls
 * `refuse` (which throws) naming the first problem; a message with parts must
 * not be an error result.
 *
 * @example
 * const parts = readResultParts(message, "results[0]", isError, (what) => { throw new TypeError(what); });
 */
export function readResultParts(
  message: object,
  at: string,
  isError: boolean,
  refuse: (what: string) => never,
): readonly ToolResultPart[] | undefined {
  const parts = dataField(message, "parts", at, refuse);
  if (parts === undefined) return undefined;
  if (isError) refuse(`${at} is an error result with parts; error results never carry parts`);
  if (
    typeof parts !== "object" ||
    parts === null ||
    isProxy(parts) ||
    !isArray(parts) ||
    !isFrozen(parts)
  ) {
    return refuse(`${at}.parts must be a frozen array of parts; found ${describeFound(parts)}`);
  }
  const length = (parts as readonly unknown[]).length;
  if (length > TOOL_CONTENT_MAX_PARTS + 1)
    refuse(`${at}.parts has more than ${TOOL_CONTENT_MAX_PARTS + 1} parts`);
  const checked: ToolResultPart[] = [];
  for (let index = 0; index < length; index += 1) {
    const part = dataField(parts, `${index}`, `${at}.parts`, refuse);
    addData(checked, ArrayPrototype, index, readPart(part, `${at}.parts[${index}]`, refuse));
  }
  return freeze(checked);
}

/** The number of bytes a checked part's base64 holds. */
export function partByteLength(data: string): number {
  // The padding by character codes, not the live `endsWith`: a replaced one would make the
  // line the model reads (`[audio: audio/wav, 18 bytes]`) lie about the part.
  const padding = isPad(data, data.length - 1) ? (isPad(data, data.length - 2) ? 2 : 1) : 0;
  return (data.length / 4) * 3 - padding;
}

/** Whether the character at `index` is base64 padding, `=` (false before the start). */
function isPad(data: string, index: number): boolean {
  return index >= 0 && stringCharCodeAt(data, index) === 0x3d;
}

/**
 * The line `content` holds for a binary part (`[image: image/png, 70 bytes]`),
 * for surfaces that cannot carry the part itself.
 *
 * @example
 * partLine({ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }); // "[audio: audio/wav, 4 bytes]"
 */
export function partLine(part: Exclude<ToolResultPart, { type: "text" }>): string {
  const name = part.type === "file" ? part.name : undefined;
  return placeholderLine(part.type, part.mimeType, partByteLength(part.data), name);
}

/**
 * A binary part as a `data:` URL, the form OpenAI takes images and files in.
 *
 * @example
 * dataUrl({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }); // "data:image/png;base64,iVBORw0KGgo="
 */
export function dataUrl(part: Exclude<ToolResultPart, { type: "text" }>): string {
  return `data:${part.mimeType};base64,${part.data}`;
}

/**
 * The text of a `text/plain` file part (the boundary checked it is UTF-8).
 *
 * @example
 * fileText({ type: "file", data: "aGk=", mimeType: "text/plain" }); // "hi"
 */
export function fileText(part: Extract<ToolResultPart, { type: "file" }>): string {
  // Decoded by the core's strict base64 reader and the captured UTF-8 decoder: a replaced
  // `Buffer.from` or `Buffer.prototype.toString` would put other words in the file. The part
  // was checked as strict base64 when it was read.
  const decoded = decodeStrictBase64(part.data);
  if (!decoded.ok)
    throw new TypeError(`a file part's data is not strict base64: ${decoded.reason}`);
  return apply(textDecode, utf8Decoder, [decoded.bytes]) as string;
}
