/**
 * `toolContent(parts)`: what a Tool returns when its output is more than one
 * value of text: text, images, audio and files, in order. The value is
 * frozen and branded (recorded in a module-local WeakMap), and the boundary
 * recognises it by that record alone, never by reading fields of what a Tool
 * returned: a look-alike, a Proxy or an object full of getters is serialized
 * as data (or refused) like any other output, and none of its code runs.
 */

import { decodeStrictBase64 } from "./base64.js";
import {
  addSlot,
  freeze,
  getOwnPropertyDescriptor,
  isArray,
  isProxy,
  isUint8Array,
  NativeTypeError,
  NativeUint8Array,
  NativeWeakMap,
  stringCharCodeAt,
  typedArrayLength,
  typedArraySet,
  weakMapGet,
  weakMapSet,
} from "./intrinsics.js";
import { isDataDescriptor } from "./own-fields.js";
import {
  type BinaryPartType,
  isSupportedMimeType,
  showMimeType,
  signatureProblem,
} from "./part-signatures.js";

/**
 * One part of what a Tool returns through {@link toolContent}: text, or an
 * image, audio or file whose `data` is a `Uint8Array` (copied when the value
 * is built) or a strict base64 string, with the MIME type the bytes must
 * match (see `TOOL_CONTENT_MIME_TYPES`). A file may carry a `name` (1 to 64
 * characters, no control characters, line separators, direction controls or
 * brackets), which its placeholder line and the providers that take one show.
 *
 * @example
 * const parts: ToolContentPart[] = [
 *   { type: "text", text: "The chart:" },
 *   { type: "image", data: pngBytes, mimeType: "image/png" },
 * ];
 */
export type ToolContentPart =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: Uint8Array | string; readonly mimeType: string }
  | { readonly type: "audio"; readonly data: Uint8Array | string; readonly mimeType: string }
  | {
      readonly type: "file";
      readonly data: Uint8Array | string;
      readonly mimeType: string;
      readonly name?: string;
    };

/**
 * What {@link toolContent} built, as anyone may read it: one frozen summary
 * per part (text as given; for a binary part its type, declared MIME type,
 * byte count and name, never its bytes). The bytes stay inside the boundary.
 *
 * @example
 * toolContent([{ type: "text", text: "hi" }]).parts; // [{ type: "text", text: "hi" }]
 */
export interface ToolContent {
  readonly parts: readonly ToolContentSummary[];
}

/**
 * A part of a built {@link ToolContent}, without bytes.
 *
 * @example
 * const summary: ToolContentSummary = { type: "image", mimeType: "image/png", byteLength: 68 };
 */
export type ToolContentSummary =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: BinaryPartType;
      readonly mimeType: string;
      readonly byteLength: number;
      readonly name?: string;
    };

/**
 * The most parts one `toolContent` value holds (the ceiling of `maxParts`);
 * a longer list is a TypeError.
 *
 * @example
 * toolContent(Array.from({ length: TOOL_CONTENT_MAX_PARTS + 1 }, () => ({ type: "text", text: "" }))); // throws
 */
export const TOOL_CONTENT_MAX_PARTS = 1_000;

/**
 * The longest file `name`, in UTF-16 code units.
 *
 * @example
 * toolContent([{ type: "file", data: pdf, mimeType: "application/pdf", name: "q3-report.pdf" }]);
 */
export const TOOL_CONTENT_MAX_NAME_CHARACTERS = 64;

/** A binary part as the boundary keeps it: copied bytes or checked base64, and its verdict. */
export interface BuiltBinaryPart {
  readonly type: BinaryPartType;
  readonly mimeType: string;
  readonly name: string | undefined;
  readonly byteLength: number;
  /** Why the part cannot be sent (shown in its line), or undefined when it passed every check. */
  readonly problem: string | undefined;
  /** The bytes copied from a `Uint8Array`, until encoded. */
  readonly bytes: Uint8Array | undefined;
  /** The checked base64 text: the Tool's own string, or the encoding once made. */
  base64: string | undefined;
}

/** A part as the boundary keeps it. */
export type BuiltPart = { readonly type: "text"; readonly text: string } | BuiltBinaryPart;

/** The parts of every value `toolContent` built, by that value: the brand and the bytes. */
const built = new NativeWeakMap<object, readonly BuiltPart[]>();

/**
 * The parts of a value `toolContent` built, or undefined for anything else.
 * A WeakMap lookup: it runs nothing of the value (a Proxy, a getter, a
 * primitive all answer undefined).
 */
export function builtToolContent(value: unknown): readonly BuiltPart[] | undefined {
  return weakMapGet(built, value as object);
}

function refuse(message: string): never {
  throw new NativeTypeError(`toolContent: ${message}`);
}

/** An own data field's value, undefined when absent; an accessor is refused without running. */
function dataField(target: object, key: string, at: string): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) return undefined;
  if (!isDataDescriptor(descriptor)) refuse(`${at}.${key} must be a data field, not an accessor`);
  return descriptor.value;
}

/**
 * Whether a code unit shows as nothing but space: the white space a name may
 * hold (the line-breaking kinds are refused as controls), the zero-width
 * space and the byte-order mark. A name of only these is blank.
 */
function isBlankUnit(unit: number): boolean {
  return (
    unit === 0x20 ||
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200b) ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/** Why a file name cannot be shown, or undefined. */
function nameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > TOOL_CONTENT_MAX_NAME_CHARACTERS) {
    return `must have 1 to ${TOOL_CONTENT_MAX_NAME_CHARACTERS} characters`;
  }
  let blank = true;
  for (let index = 0; index < name.length; index += 1) {
    const unit = stringCharCodeAt(name, index);
    // Each of these could make a placeholder line look like more than one line, or another line.
    if (
      unit < 0x20 ||
      (unit >= 0x7f && unit <= 0x9f) ||
      unit === 0x2028 ||
      unit === 0x2029 ||
      // Every Bidi_Control: the embeddings, overrides and isolates, and the marks.
      (unit >= 0x202a && unit <= 0x202e) ||
      (unit >= 0x2066 && unit <= 0x2069) ||
      unit === 0x200e ||
      unit === 0x200f ||
      unit === 0x061c ||
      unit === 0x5b ||
      unit === 0x5d
    ) {
      return "must not hold control characters, line separators, direction controls or brackets";
    }
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = stringCharCodeAt(name, index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return "must not hold a lone surrogate";
      index += 1;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return "must not hold a lone surrogate";
    if (!isBlankUnit(unit)) blank = false;
  }
  return blank ? "must not be blank" : undefined;
}

/** Why a part of a supported type is not what it declares, or undefined; `head` reads its bytes. */
function contentProblem(
  mimeType: string,
  byteLength: number,
  head: () => Uint8Array,
): string | undefined {
  if (byteLength === 0) return "it is empty";
  return signatureProblem(mimeType, head());
}

function binaryPart(part: object, type: BinaryPartType, at: string): BuiltBinaryPart {
  const data = dataField(part, "data", at);
  const mimeType = dataField(part, "mimeType", at);
  const name = dataField(part, "name", at);
  if (typeof mimeType !== "string") return refuse(`${at}.mimeType must be a string`);
  if (name !== undefined && type !== "file") refuse(`${at}.name is only for file parts`);
  if (name !== undefined) {
    if (typeof name !== "string") return refuse(`${at}.name must be a string`);
    const problem = nameProblem(name);
    if (problem !== undefined) refuse(`${at}.name ${problem}`);
  }
  const make = (
    byteLength: number,
    problem: string | undefined,
    bytes: Uint8Array | undefined,
    base64: string | undefined,
  ): BuiltBinaryPart => ({ type, mimeType, name, byteLength, problem, bytes, base64 });
  const unsupported = isSupportedMimeType(type, mimeType)
    ? undefined
    : `${showMimeType(mimeType)} is not a supported ${type} type`;
  if (typeof data === "string") {
    const decoded = decodeStrictBase64(data);
    if (!decoded.ok) {
      return make(
        0,
        unsupported ?? `its base64 data is invalid: ${decoded.reason}`,
        undefined,
        undefined,
      );
    }
    const byteLength = typedArrayLength(decoded.bytes);
    // The Tool's own text is kept as the part's data: strict base64 has exactly one form.
    const problem = unsupported ?? contentProblem(mimeType, byteLength, () => decoded.bytes);
    return make(byteLength, problem, undefined, data);
  }
  // A Proxy of a Uint8Array is no Uint8Array to the slot check, and runs no trap here.
  if (typeof data !== "object" || data === null || isProxy(data) || !isUint8Array(data)) {
    return refuse(`${at}.data must be a Uint8Array or a base64 string`);
  }
  // Copied now, by internal slots: a later change to the caller's buffer (or another
  // thread's, for a SharedArrayBuffer) changes nothing, and no getter or species runs.
  const byteLength = typedArrayLength(data as Uint8Array);
  const bytes = new NativeUint8Array(byteLength);
  typedArraySet(bytes, data as Uint8Array);
  return make(
    byteLength,
    unsupported ?? contentProblem(mimeType, byteLength, () => bytes),
    bytes,
    undefined,
  );
}

function readPart(list: readonly unknown[], index: number): BuiltPart {
  const at = `parts[${index}]`;
  const part = dataField(list, `${index}`, "parts");
  if (typeof part !== "object" || part === null || isProxy(part)) {
    return refuse(`${at} must be an object (not a Proxy)`);
  }
  const type = dataField(part, "type", at);
  if (type === "text") {
    const text = dataField(part, "text", at);
    if (typeof text !== "string") refuse(`${at}.text must be a string`);
    return freeze({ type: "text" as const, text: text as string });
  }
  if (type === "image" || type === "audio" || type === "file") return binaryPart(part, type, at);
  return refuse(`${at}.type must be "text", "image", "audio" or "file"`);
}

function summary(part: BuiltPart): ToolContentSummary {
  if (part.type === "text") return part;
  const base = { type: part.type, mimeType: part.mimeType, byteLength: part.byteLength };
  return freeze(part.name === undefined ? base : { ...base, name: part.name });
}

/**
 * Builds what a Tool returns for output of several parts: text, images,
 * audio and files, in order. Every field is read once, as an own data field
 * (a getter or a Proxy is refused, never run); `Uint8Array` data is copied
 * now, so later changes to the caller's buffer change nothing; base64 data
 * must be strict. Each binary part is checked now: a MIME type outside
 * `TOOL_CONTENT_MIME_TYPES` for its kind, invalid base64, no bytes, or bytes
 * that are not what the MIME type declares make the part one the boundary
 * replaces by a line saying why. The call's part budgets (`maxParts`,
 * `maxPartBytes`, `maxTotalBytes`) apply when the Tool returns it.
 *
 * Returns a frozen {@link ToolContent}, recognised by the boundary of the
 * same copy of this module only. Throws a TypeError, naming the part and
 * field, for a malformed list: not an array, more than
 * {@link TOOL_CONTENT_MAX_PARTS} parts, a part that is not an object, an
 * unknown `type`, a non-string `text` or `mimeType`, `data` that is neither a
 * `Uint8Array` nor a string, or a bad file `name`.
 *
 * @example
 * execute: async () => toolContent([
 *   { type: "text", text: "Rendered the chart." },
 *   { type: "image", data: await readFile("chart.png"), mimeType: "image/png" },
 * ]),
 * // content: "Rendered the chart.\n[image: image/png, 48213 bytes]", plus parts
 */
export function toolContent(parts: readonly ToolContentPart[]): ToolContent {
  if (typeof parts !== "object" || parts === null || isProxy(parts) || !isArray(parts)) {
    return refuse("parts must be an array (not a Proxy)");
  }
  // A real array's length is an own data property: reading it runs nothing.
  const length = (parts as readonly unknown[]).length;
  if (length > TOOL_CONTENT_MAX_PARTS) {
    refuse(`parts has ${length} entries; at most ${TOOL_CONTENT_MAX_PARTS} are accepted`);
  }
  const kept: BuiltPart[] = [];
  const summaries: ToolContentSummary[] = [];
  for (let index = 0; index < length; index += 1) {
    const part = readPart(parts as readonly unknown[], index);
    addSlot(kept, index, part);
    addSlot(summaries, index, summary(part));
  }
  const value: ToolContent = freeze({ parts: freeze(summaries) });
  weakMapSet(built, value, freeze(kept));
  return value;
}
