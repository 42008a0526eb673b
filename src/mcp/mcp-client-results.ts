/**
 * What another MCP server answers, as the output of one of our Tools: text
 * as text; images, audio and binary resources as parts (`toolContent`), which
 * the boundary checks and bounds like any Tool's; embedded text resources and
 * resource links as text lines that say what they were (never dropped
 * silently); `isError` results as the Tool's failure; and each way the
 * request itself can fail as one bounded message.
 */

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  TOOL_CONTENT_MAX_NAME_CHARACTERS,
  TOOL_CONTENT_MAX_PARTS,
  type ToolContentPart,
  toolContent,
} from "../../course/src/index.ts";
import {
  addSlot,
  getPrototypeOf,
  hasOwn,
  isArray,
  MISSING,
  mathMax,
  mathMin,
  NativeError,
  ownDataValue,
  readOwnValue,
  regExpTest,
  sealedRegExp,
  stringCharCodeAt,
  stringSlice,
  stringTrim,
} from "../../course/src/internal.ts";
import { cutText, oneLine } from "./bounded-text.ts";

// A remote server's results are read inside a Tool's call, after other Tools ran in this
// process: what reads them is captured at load (or the core's copy). A Tool that replaced
// `map`, `join`, `slice`, `split`, `trim` or `RegExp.prototype.exec` could forge or unbound the
// text the model reads; optional fields (`mimeType`, `description`, a resource's `text` or
// `blob`, `structuredContent`) are read as own data, so none planted on Object.prototype counts.
const NativeString = String;
const McpErrorPrototype: object = McpError.prototype;
const ErrorPrototype: object = NativeError.prototype;
const REQUEST_TIMEOUT = ErrorCode.RequestTimeout;
const CONNECTION_CLOSED = ErrorCode.ConnectionClosed;

/** `value instanceof` the class of `prototype`, by the captured getPrototypeOf (no `Symbol.hasInstance`). */
function inherits(value: unknown, prototype: object): boolean {
  if (typeof value !== "object" || value === null) return false;
  for (let proto = getPrototypeOf(value); proto !== null; proto = getPrototypeOf(proto)) {
    if (proto === prototype) return true;
  }
  return false;
}

/** `list.map(show).join(separator)` by index (an undefined or null value is empty, as in `join`). */
function joined<T>(list: readonly T[], separator: string, show: (item: T) => unknown): string {
  let text = "";
  for (let index = 0; index < list.length; index += 1) {
    const value = show(list[index] as T);
    text += `${index === 0 ? "" : separator}${value === undefined || value === null ? "" : value}`;
  }
  return text;
}
const itself = (item: unknown): unknown => item;

/**
 * The longest failure message a Tool throws about a request, in code points.
 *
 * @example
 * MAX_FAILURE_CHARACTERS; // 1000
 */
export const MAX_FAILURE_CHARACTERS = 1_000;

type ContentItem = CallToolResult["content"][number];

/** Bytes held by base64 text (padding discounted), without decoding it. */
function base64Bytes(data: string): number {
  const last = data.length - 1;
  const padding =
    stringCharCodeAt(data, last) !== 0x3d ? 0 : stringCharCodeAt(data, last - 1) === 0x3d ? 2 : 1;
  const units = data.length * 3;
  return mathMax(0, (units - (units % 4)) / 4 - padding);
}

/** A short, single-line label from a server's string (a URI, a MIME type, a name). */
const label = (text: string, max = 200): string => cutText(oneLine(text), max, () => "…");

/**
 * One content item as text: a text item is its text; an embedded text
 * resource is a line naming it, then its text; anything else (an image,
 * audio, a binary resource, a resource link) is one line that says what it
 * is: how a resource link always reads, and how bytes read in an error.
 *
 * @example
 * contentText({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }); // "[image: image/png, 8 bytes]"
 */
export function contentText(item: ContentItem): string {
  switch (item.type) {
    case "text":
      return item.text;
    case "image":
    case "audio":
      return `[${item.type}: ${label(item.mimeType)}, ${base64Bytes(item.data)} bytes]`;
    case "resource": {
      const { resource } = item;
      const mimeType = ownDataValue(resource, "mimeType") as string | undefined;
      const mime = mimeType === undefined ? "" : `, ${label(mimeType)}`;
      const text = ownDataValue(resource, "text");
      if (typeof text === "string") return `[resource ${label(resource.uri)}${mime}]\n${text}`;
      const blob = ownDataValue(resource, "blob");
      const bytes = base64Bytes(typeof blob === "string" ? blob : "");
      return `[resource ${label(resource.uri)}${mime}, ${bytes} bytes]`;
    }
    case "resource_link": {
      const mimeType = ownDataValue(item, "mimeType") as string | undefined;
      const description = ownDataValue(item, "description") as string | undefined;
      const mime = mimeType === undefined ? "" : `, ${label(mimeType)}`;
      const about = description === undefined ? "" : `: ${label(description, 500)}`;
      return `[resource link ${label(item.name)} <${label(item.uri)}>${mime}${about}]`;
    }
    default:
      return `[${label(NativeString((item as { type?: unknown }).type))} content]`;
  }
}

/** Whether an item carries bytes: an image, audio, or an embedded resource with a blob. */
function isBinary(item: ContentItem): boolean {
  if (item.type === "image" || item.type === "audio") return true;
  return item.type === "resource" && hasOwn(item.resource, "blob");
}

// A file name the boundary can show: the last segment of a resource's URI, when it is plain.
// Sealed: its own `exec` is the original, whatever `RegExp.prototype.exec` becomes.
const PLAIN_NAME = sealedRegExp(
  new RegExp(`^[A-Za-z0-9._-]{1,${TOOL_CONTENT_MAX_NAME_CHARACTERS}}$`),
);

/** "/", "?" or "#": where a URI's segments end. */
const isSeparator = (unit: number): boolean => unit === 0x2f || unit === 0x3f || unit === 0x23;

function fileName(uri: string): string | undefined {
  // The last non-empty segment, found by code unit (no live `split`, `filter` or `at`).
  let end = uri.length;
  while (end > 0 && isSeparator(stringCharCodeAt(uri, end - 1))) end -= 1;
  let start = end;
  while (start > 0 && !isSeparator(stringCharCodeAt(uri, start - 1))) start -= 1;
  const last = stringSlice(uri, start, end);
  return last !== "" && regExpTest(PLAIN_NAME, last) ? last : undefined;
}

/** One content item as a part: bytes as they came (the boundary checks them), anything else as text. */
function toPart(item: ContentItem): ToolContentPart {
  if (item.type === "image" || item.type === "audio") {
    return { type: item.type, data: item.data, mimeType: item.mimeType };
  }
  const blob = item.type === "resource" ? ownDataValue(item.resource, "blob") : undefined;
  if (item.type === "resource" && typeof blob === "string") {
    const mimeType = ownDataValue(item.resource, "mimeType") as string | undefined;
    const name = fileName(item.resource.uri);
    return {
      type: "file",
      data: blob,
      mimeType: mimeType ?? "application/octet-stream",
      ...(name === undefined ? {} : { name }),
    };
  }
  return { type: "text", text: contentText(item) };
}

/**
 * The output of a successful result. Text only (text items, embedded text
 * resources, resource links): their text, one item per line. With an image,
 * audio or a binary resource: a `toolContent` of one part per item, in order
 * (a binary resource is a file part named after its URI's last segment); the
 * boundary checks each part's bytes and MIME type and keeps it within the
 * part budgets, or puts a line in its place that says why. Items past what
 * `toolContent` takes are one line saying how many. With no content but
 * `structuredContent`: that object, serialized and bounded like any output.
 *
 * @example
 * resultOutput({ content: [{ type: "text", text: "hello" }] }); // "hello"
 */
export function resultOutput(result: CallToolResult): unknown {
  const { content } = result;
  const structured = ownDataValue(result, "structuredContent");
  if (content.length === 0 && structured !== undefined) return structured;
  // By index, and parts added as own slots (no index setter on Array.prototype takes them).
  let binary = false;
  for (let index = 0; index < content.length && !binary; index += 1) {
    binary = isBinary(content[index] as ContentItem);
  }
  if (!binary) return joined(content, "\n", contentText);
  const room = TOOL_CONTENT_MAX_PARTS - 1;
  const parts: ToolContentPart[] = [];
  const shown = mathMin(content.length, room);
  for (let index = 0; index < shown; index += 1) {
    addSlot(parts, index, toPart(content[index] as ContentItem));
  }
  if (content.length > room) {
    const text = `[${content.length - room} more content items omitted]`;
    addSlot(parts, parts.length, { type: "text", text });
  }
  return toolContent(parts);
}

/**
 * The message of an `isError` result: its content as text, cut to
 * {@link MAX_FAILURE_CHARACTERS} code points, or a fixed sentence when the
 * server said nothing.
 *
 * @example
 * errorResultMessage({ content: [{ type: "text", text: "Access denied" }], isError: true }); // "Access denied"
 */
export function errorResultMessage(result: CallToolResult): string {
  const text = stringTrim(joined(result.content, "\n", contentText));
  if (text === "") return "the MCP server reported an error without a message";
  return cutText(text, MAX_FAILURE_CHARACTERS, (total) => `… [${total} characters, cut]`);
}

/** The issues of the SDK's schema check (a zod error), as `path: message` pairs, or undefined. */
function schemaIssues(thrown: unknown): string | undefined {
  // The error's own `issues` (a zod error's are): none planted on Object.prototype counts.
  const issues = inherits(thrown, ErrorPrototype)
    ? readOwnValue(thrown as object, "issues")
    : MISSING;
  if (!isArray(issues)) return undefined;
  let text = "";
  const shown = mathMin(issues.length, 5);
  for (let index = 0; index < shown; index += 1) {
    const issue = issues[index] as { path?: unknown; message?: unknown };
    const path = isArray(issue.path) ? joined(issue.path, ".", itself) : "";
    text += `${index === 0 ? "" : "; "}${path === "" ? "result" : path}: ${NativeString(issue.message)}`;
  }
  return text;
}

/**
 * Why a request to the server failed, for the model: a timeout, a closed
 * connection (a crashed server), an error the server answered with, or a
 * result that is not a valid `CallToolResult`; one line, cut to
 * {@link MAX_FAILURE_CHARACTERS} code points.
 *
 * @example
 * requestFailure(new McpError(ErrorCode.RequestTimeout, "Request timed out"), 60_000);
 * // "the MCP server did not answer within 60000 ms"
 */
export function requestFailure(thrown: unknown, timeoutMs: number): string {
  let message: string;
  const mcp = inherits(thrown, McpErrorPrototype) ? (thrown as McpError) : undefined;
  const issues = mcp === undefined ? schemaIssues(thrown) : undefined;
  if (mcp !== undefined && mcp.code === REQUEST_TIMEOUT) {
    message = `the MCP server did not answer within ${timeoutMs} ms`;
  } else if (mcp !== undefined && mcp.code === CONNECTION_CLOSED) {
    message =
      "the connection to the MCP server closed before it answered (the server may have stopped)";
  } else if (mcp !== undefined) {
    message = `the MCP server answered with an error: ${mcp.message}`;
  } else if (issues !== undefined) {
    message = `the MCP server's result is not a valid tools/call result: ${issues}`;
  } else {
    const text = inherits(thrown, ErrorPrototype)
      ? (thrown as Error).message
      : "a non-Error value was thrown";
    message = `the request to the MCP server failed: ${text}`;
  }
  return cutText(
    oneLine(message),
    MAX_FAILURE_CHARACTERS,
    (total) => `… [${total} characters, cut]`,
  );
}
