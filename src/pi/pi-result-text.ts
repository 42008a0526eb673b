/**
 * Reads the model-visible text of a Pi Tool result: text blocks joined with a
 * newline, images as a short placeholder. Reads own data properties only (no
 * getter of the result runs), refuses Proxies before any trap, and does work
 * bounded by the largest output budget whatever the result's size.
 */

import {
  COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  OUTPUT_BUDGET_RANGES,
  type ToolContent,
  type ToolContentPart,
  toolContent,
} from "../../course/src/index.ts";
import {
  addSlot,
  isArray,
  isProxy,
  mathMax,
  mathMin,
  ownDataValue,
  regExpTest,
  sealedRegExp,
  stringSlice,
} from "../../course/src/internal.ts";

// Every built-in below is the core's captured copy: a Pi Tool runs in this process and may
// replace `Array.prototype.push` or `join`, `String.prototype.slice`, `Math.max`, a RegExp's
// `test`, or plant an index setter on Array.prototype, and what the model reads must not change.

/** Content blocks read from one result; the rest are counted in a note, not read. */
export const PI_CONTENT_MAX_BLOCKS = COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES;

/**
 * The most UTF-16 units of text joined from several blocks: twice the largest
 * `outputBudget.maxCharacters` (10,000,000), plus one. Whatever budget the
 * call runs under, the serializer then still sees that the text was longer
 * than it keeps, and marks the cut. (A single block is never cut here.)
 */
export const PI_TEXT_MAX_UNITS = 2 * OUTPUT_BUDGET_RANGES.maxCharacters[1] + 1;
const MIME_TYPE = sealedRegExp(
  /^[A-Za-z0-9][A-Za-z0-9.+-]{0,63}\/[A-Za-z0-9][A-Za-z0-9.+-]{0,63}$/,
);

/** The value of an own data property, or undefined (a getter is never called). */
const ownData = (target: object, key: string | number): unknown => ownDataValue(target, key);

function isPlainReadable(value: unknown): value is object {
  return typeof value === "object" && value !== null && !isProxy(value);
}

/** `parts` joined, without `Array.prototype.join`. */
function joined(parts: readonly string[]): string {
  let text = "";
  for (let index = 0; index < parts.length; index += 1) text += parts[index] as string;
  return text;
}

/** The text one content block contributes to the transcript. */
function blockText(block: unknown): string {
  if (!isPlainReadable(block)) return "[unreadable content block]";
  const type = ownData(block, "type");
  if (type === "text") {
    const text = ownData(block, "text");
    return typeof text === "string" ? text : "[unreadable text block]";
  }
  if (type === "image") {
    const mimeType = ownData(block, "mimeType");
    // Only a well-formed, short MIME type is echoed; anything else could smuggle text.
    return typeof mimeType === "string" && regExpTest(MIME_TYPE, mimeType)
      ? `[image: ${mimeType}]`
      : "[image]";
  }
  return "[unsupported content block]";
}

/**
 * The transcript text of a Pi `AgentToolResult`: its text blocks joined with
 * `"\n"` (as Pi joins them), each image as `[image: image/png]`, other or
 * unreadable blocks as a bracketed placeholder. A missing `content` reads as
 * no text, as in Pi. At most {@link PI_CONTENT_MAX_BLOCKS} blocks are read.
 * A single block's text is returned as it is, however long (no copy is made,
 * and the serializer looks at no more of it than its budget keeps, from
 * whichever end the call's `truncate` asks for). Several blocks are joined up
 * to {@link PI_TEXT_MAX_UNITS} UTF-16 units and cut there, so a `tail`
 * strategy on more text than that keeps the end of what was read.
 * Throws a TypeError for a result that is not an object, is a Proxy, or has
 * a `content` that is not an array; the bridge turns that into
 * `TOOL_EXECUTION_FAILED`.
 *
 * @example
 * piResultText({ content: [{ type: "text", text: "found 2" }, { type: "image", data: "…", mimeType: "image/png" }], details: {} });
 * // "found 2\n[image: image/png]"
 */
export function piResultText(result: unknown): string {
  if (!isPlainReadable(result)) {
    throw new TypeError("Pi Tool must resolve with an AgentToolResult object");
  }
  const content = ownData(result, "content");
  if (content === undefined) return "";
  if (!isPlainReadable(content) || !isArray(content)) {
    throw new TypeError("Pi Tool result content must be an array of content blocks");
  }
  const length = content.length;
  // The common case, one text block: the string itself, whatever its length.
  if (length === 1) return blockText(ownData(content, 0));
  const parts: string[] = [];
  let units = 0;
  let index = 0;
  for (; index < length && index < PI_CONTENT_MAX_BLOCKS; index += 1) {
    const separator = index === 0 ? "" : "\n";
    const text = blockText(ownData(content, index));
    const room = mathMax(0, PI_TEXT_MAX_UNITS - units - separator.length);
    if (text.length > room) {
      // Cut here (slicing before joining copies no more than is kept): the
      // serializer truncates the rest and appends its marker.
      addSlot(parts, parts.length, separator);
      addSlot(parts, parts.length, stringSlice(text, 0, room));
      return joined(parts);
    }
    addSlot(parts, parts.length, separator);
    addSlot(parts, parts.length, text);
    units += separator.length + text.length;
  }
  const omitted = length - index;
  if (omitted > 0) addSlot(parts, parts.length, `\n[${omitted} more content blocks omitted]`);
  return joined(parts);
}

/** An image block whose data and MIME type are strings (what the boundary can check), or undefined. */
function imagePart(block: unknown): ToolContentPart | undefined {
  if (!isPlainReadable(block) || ownData(block, "type") !== "image") return undefined;
  const data = ownData(block, "data");
  const mimeType = ownData(block, "mimeType");
  if (typeof data !== "string" || typeof mimeType !== "string") return undefined;
  return { type: "image", data, mimeType };
}

/**
 * What a Pi `AgentToolResult` becomes behind our boundary: when one of its
 * first {@link PI_CONTENT_MAX_BLOCKS} blocks is an image with string `data`
 * and `mimeType`, a `toolContent` value with a text part per text block and
 * an image part per such image (which the boundary checks: strict base64 and
 * a signature matching the MIME type, else a line saying why); otherwise the
 * text of {@link piResultText}. Other blocks become their placeholder text,
 * and blocks past the limit are counted in a last text part. Reads own data
 * fields only; throws a TypeError as `piResultText` does.
 *
 * @example
 * piResultOutput({ content: [{ type: "image", data: pngBase64, mimeType: "image/png" }], details: {} });
 * // a toolContent value with one image part
 */
export function piResultOutput(result: unknown): string | ToolContent {
  const text = piResultText(result);
  const content = ownData(result as object, "content");
  if (!isPlainReadable(content) || !isArray(content)) return text;
  const length = content.length;
  const read = mathMin(length, PI_CONTENT_MAX_BLOCKS);
  let images = false;
  for (let index = 0; index < read && !images; index += 1) {
    images = imagePart(ownData(content, index)) !== undefined;
  }
  if (!images) return text;
  const parts: ToolContentPart[] = [];
  for (let index = 0; index < read; index += 1) {
    const block = ownData(content, index);
    addSlot(parts, parts.length, imagePart(block) ?? { type: "text", text: blockText(block) });
  }
  if (length > read) {
    const omitted = {
      type: "text" as const,
      text: `[${length - read} more content blocks omitted]`,
    };
    addSlot(parts, parts.length, omitted);
  }
  return toolContent(parts);
}
