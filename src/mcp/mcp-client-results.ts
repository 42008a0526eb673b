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
import { cutText, oneLine } from "./bounded-text.ts";

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
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
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
      const mime = resource.mimeType === undefined ? "" : `, ${label(resource.mimeType)}`;
      if ("text" in resource && typeof resource.text === "string") {
        return `[resource ${label(resource.uri)}${mime}]\n${resource.text}`;
      }
      const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
      return `[resource ${label(resource.uri)}${mime}, ${base64Bytes(blob)} bytes]`;
    }
    case "resource_link": {
      const mime = item.mimeType === undefined ? "" : `, ${label(item.mimeType)}`;
      const about = item.description === undefined ? "" : `: ${label(item.description, 500)}`;
      return `[resource link ${label(item.name)} <${label(item.uri)}>${mime}${about}]`;
    }
    default:
      return `[${label(String((item as { type?: unknown }).type))} content]`;
  }
}

/** Whether an item carries bytes: an image, audio, or an embedded resource with a blob. */
function isBinary(item: ContentItem): boolean {
  if (item.type === "image" || item.type === "audio") return true;
  return item.type === "resource" && "blob" in item.resource;
}

// A file name the boundary can show: the last segment of a resource's URI, when it is plain.
const PLAIN_NAME = new RegExp(`^[A-Za-z0-9._-]{1,${TOOL_CONTENT_MAX_NAME_CHARACTERS}}$`);

function fileName(uri: string): string | undefined {
  const last = uri
    .split(/[/?#]/)
    .filter((segment) => segment !== "")
    .at(-1);
  return last !== undefined && PLAIN_NAME.test(last) ? last : undefined;
}

/** One content item as a part: bytes as they came (the boundary checks them), anything else as text. */
function toPart(item: ContentItem): ToolContentPart {
  if (item.type === "image" || item.type === "audio") {
    return { type: item.type, data: item.data, mimeType: item.mimeType };
  }
  if (
    item.type === "resource" &&
    "blob" in item.resource &&
    typeof item.resource.blob === "string"
  ) {
    const { uri, mimeType, blob } = item.resource;
    const name = fileName(uri);
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
  if (content.length === 0 && result.structuredContent !== undefined) {
    return result.structuredContent;
  }
  if (!content.some(isBinary)) return content.map(contentText).join("\n");
  const room = TOOL_CONTENT_MAX_PARTS - 1;
  const parts = content.slice(0, room).map(toPart);
  if (content.length > room) {
    parts.push({ type: "text", text: `[${content.length - room} more content items omitted]` });
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
  const text = result.content.map(contentText).join("\n").trim();
  if (text === "") return "the MCP server reported an error without a message";
  return cutText(text, MAX_FAILURE_CHARACTERS, (total) => `… [${total} characters, cut]`);
}

/** The issues of the SDK's schema check (a zod error), as `path: message` pairs, or undefined. */
function schemaIssues(thrown: unknown): string | undefined {
  const issues = (thrown as { issues?: unknown } | null)?.issues;
  if (!(thrown instanceof Error) || !Array.isArray(issues)) return undefined;
  return issues
    .slice(0, 5)
    .map((issue: { path?: unknown; message?: unknown }) => {
      const path = Array.isArray(issue.path) ? issue.path.join(".") : "";
      return `${path === "" ? "result" : path}: ${String(issue.message)}`;
    })
    .join("; ");
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
  if (thrown instanceof McpError && thrown.code === ErrorCode.RequestTimeout) {
    message = `the MCP server did not answer within ${timeoutMs} ms`;
  } else if (thrown instanceof McpError && thrown.code === ErrorCode.ConnectionClosed) {
    message =
      "the connection to the MCP server closed before it answered (the server may have stopped)";
  } else if (thrown instanceof McpError) {
    message = `the MCP server answered with an error: ${thrown.message}`;
  } else if (schemaIssues(thrown) !== undefined) {
    message = `the MCP server's result is not a valid tools/call result: ${schemaIssues(thrown)}`;
  } else {
    const text = thrown instanceof Error ? thrown.message : "a non-Error value was thrown";
    message = `the request to the MCP server failed: ${text}`;
  }
  return cutText(
    oneLine(message),
    MAX_FAILURE_CHARACTERS,
    (total) => `… [${total} characters, cut]`,
  );
}
