/**
 * An AI SDK tool's model output (what its `toModelOutput` returns) as the
 * output of a Tool of ours: text as text, JSON as the value, the multi-part
 * `content` output as `toolContent` (its inline images, audio and files as
 * parts the boundary checks), and an error output as a throw, which the
 * boundary makes `TOOL_EXECUTION_FAILED`. Read as data: own fields once each,
 * a Proxy refused, nothing of it called.
 */

import { types } from "node:util";
import { type ToolContent, type ToolContentPart, toolContent } from "../../course/src/index.ts";

/** The most parts read from one `content` output (the ceiling of `toolContent`). */
const MAX_PARTS = 1_000;

/** A file name `toolContent` accepts: short, no control or separator characters, no brackets. */
const SHOWABLE_NAME = /^[^\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069[\]]{1,64}$/u;

function own(target: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
}

function readable(value: unknown): value is object {
  return typeof value === "object" && value !== null && !types.isProxy(value);
}

/** Base64 text or bytes from the SDK's `DataContent`, or undefined for another kind. */
function bytesOf(data: unknown): string | Uint8Array | undefined {
  if (typeof data === "string") return data;
  if (types.isUint8Array(data)) return data as Uint8Array;
  if (types.isArrayBuffer(data)) return new Uint8Array(data as ArrayBuffer);
  return undefined;
}

/** A binary part of `toolContent` for inline data of `mediaType`; the boundary checks the rest. */
function binaryPart(
  data: string | Uint8Array,
  mediaType: string,
  filename: unknown,
): ToolContentPart {
  if (mediaType.startsWith("image/")) return { type: "image", data, mimeType: mediaType };
  if (mediaType.startsWith("audio/")) return { type: "audio", data, mimeType: mediaType };
  const name =
    typeof filename === "string" && SHOWABLE_NAME.test(filename) && filename.trim() !== ""
      ? filename
      : undefined;
  return { type: "file", data, mimeType: mediaType, ...(name === undefined ? {} : { name }) };
}

/** One part of a `content` output as a part of ours; what cannot cross is a line saying so. */
function partOf(part: unknown): ToolContentPart {
  if (!readable(part)) return { type: "text", text: "[unreadable content part]" };
  const type = own(part, "type");
  const mediaType = own(part, "mediaType");
  if (type === "text") {
    const text = own(part, "text");
    return { type: "text", text: typeof text === "string" ? text : "[unreadable text part]" };
  }
  if (
    (type === "file" || type === "file-data" || type === "image-data") &&
    typeof mediaType === "string"
  ) {
    const data = own(part, "data");
    // `file` tags its data; the older `file-data` and `image-data` hold base64 directly.
    const tag = type === "file" && readable(data) ? own(data, "type") : "data";
    if (tag === "text" && readable(data)) {
      const text = own(data, "text");
      if (typeof text === "string") {
        return binaryPart(new TextEncoder().encode(text), "text/plain", own(part, "filename"));
      }
    }
    const inline =
      tag === "data"
        ? bytesOf(type === "file" && readable(data) ? own(data, "data") : data)
        : undefined;
    if (inline !== undefined) return binaryPart(inline, mediaType, own(part, "filename"));
  }
  const kind = typeof type === "string" && /^[a-z-]{1,20}$/.test(type) ? type : "unknown";
  return { type: "text", text: `[${kind} part omitted: only inline data crosses the boundary]` };
}

/**
 * The output of a Tool of ours for an AI SDK tool's model output. Throws an
 * Error for `error-text`, `error-json` and `execution-denied` (the boundary
 * makes it `TOOL_EXECUTION_FAILED` with that message), and a TypeError for
 * anything that is no model output.
 *
 * @example
 * fromAiSdkModelOutput({ type: "content", value: [{ type: "text", text: "hi" }] }); // toolContent([...])
 */
export function fromAiSdkModelOutput(output: unknown): unknown {
  if (!readable(output))
    throw new TypeError("toModelOutput must return a tool result output object");
  const type = own(output, "type");
  const value = own(output, "value");
  switch (type) {
    case "text":
    case "json":
      return value;
    case "error-text":
      throw new Error(typeof value === "string" ? value : "the tool reported an error");
    case "error-json":
      throw new Error(JSON.stringify(value) ?? "the tool reported an error");
    case "execution-denied": {
      const reason = own(output, "reason");
      throw new Error(typeof reason === "string" ? reason : "the tool's execution was denied");
    }
    case "content":
      return contentOutput(value);
    default:
      throw new TypeError("toModelOutput returned an output of an unknown type");
  }
}

function contentOutput(value: unknown): ToolContent {
  if (!readable(value) || !Array.isArray(value)) {
    throw new TypeError("toModelOutput's content output must hold an array of parts");
  }
  const parts: ToolContentPart[] = [];
  const read = Math.min(value.length, MAX_PARTS - 1);
  for (let index = 0; index < read; index += 1) parts.push(partOf(own(value, String(index))));
  if (value.length > read)
    parts.push({ type: "text", text: `[${value.length - read} more parts omitted]` });
  return toolContent(parts);
}
