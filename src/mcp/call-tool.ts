/**
 * The `tools/call` side of the MCP bridge: one MCP request becomes one
 * `executeToolCall` with the request's own abort signal.
 */

import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  type CourseToolCall,
  type CourseToolResultMessage,
  executeToolCall,
  NonRecoverableToolError,
  snapshotToolCall,
  type ToolCallOptions,
  type ToolRegistry,
  type ToolResultPart,
  toolErrorResult,
} from "../../course/src/index.ts";
import {
  addSlot,
  isAbortSignal,
  isNonBlankString,
  signalAborted,
  stringCharCodeAt,
  stringSlice,
} from "../../course/src/internal.ts";
import { withRequestTraceContext } from "./trace-context.ts";

// Built-ins captured when this module loads: a Tool runs in this process and may replace
// the globals afterwards, and what they make is what the client (and the host's log) reads.
const nativeStringify = JSON.stringify;
const nativeEncodeURIComponent = encodeURIComponent;

/** What an MCP `tools/call` request carries: the Tool's name and its arguments. */
export interface McpToolCallParams {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The request around a call: its JSON-RPC id, the abort signal the SDK gives
 * the handler, and the request's `_meta` (whose W3C `traceparent` and
 * `tracestate` a traced registry honours; optional).
 */
export interface McpCallContext {
  readonly requestId: string | number;
  readonly signal: AbortSignal;
  readonly meta?: unknown;
}

/** How a call is run: per-call options for `executeToolCall`, and where fatal errors are logged. */
export interface McpCallSettings {
  readonly callOptions?: ToolCallOptions | undefined;
  readonly log: (line: string) => void;
}

/**
 * One content item of an MCP `tools/call` result: text, an image or audio
 * (base64 `data`), or a file as an embedded resource with a base64 `blob`.
 *
 * @example
 * const item: McpContentItem = { type: "image", data: "iVBORw0KGgo…", mimeType: "image/png" };
 */
export type McpContentItem =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "audio"; readonly data: string; readonly mimeType: string }
  | {
      readonly type: "resource";
      readonly resource: { readonly uri: string; readonly mimeType: string; readonly blob: string };
    };

/**
 * An MCP `tools/call` result: the Tool's content as one text item, or, for a
 * result with parts, one item per part; and whether it is an error.
 */
export interface McpToolCallResult {
  [key: string]: unknown;
  readonly content: McpContentItem[];
  readonly isError: boolean;
}

/**
 * The URI of a file part's embedded resource: the part's position, and its
 * name when it has one. It names the part within this result; nothing can be
 * read from it later.
 *
 * @example
 * partUri(2, "report.pdf"); // "toolbound://part/2/report.pdf"
 */
export function partUri(index: number, name: string | undefined): string {
  return `toolbound://part/${index}${name === undefined ? "" : `/${nativeEncodeURIComponent(name)}`}`;
}

function contentItem(part: ToolResultPart, index: number): McpContentItem {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
    case "audio":
      return { type: part.type, data: part.data, mimeType: part.mimeType };
    case "file": {
      const resource = { uri: partUri(index, part.name), mimeType: part.mimeType, blob: part.data };
      return { type: "resource", resource };
    }
  }
}

/**
 * Writes a linked result message as an MCP `tools/call` result: its content
 * as one text item, or, when it has parts (a Tool's `toolContent`), one item
 * per part in order: `text`, `image`, `audio`, and `resource` (a blob) for a
 * file.
 *
 * @example
 * toMcpResult(message); // { content: [{ type: "text", text: '{"sum":3}' }], isError: false }
 */
export function toMcpResult(message: CourseToolResultMessage): McpToolCallResult {
  const parts = message.parts;
  if (parts === undefined) {
    return { content: [{ type: "text", text: message.content }], isError: message.isError };
  }
  // By index into slots defined here, never the live `Array.prototype.map` nor an index
  // setter: a Tool that replaced either would decide what every later call sends.
  const content: McpContentItem[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    addSlot(content, index, contentItem(parts[index] as ToolResultPart, index));
  }
  return { content, isError: message.isError };
}

const MAX_NAME_CHARACTERS = 80;

/** A Tool name for a log line: JSON-quoted and cut, so a hostile name cannot flood or forge the log. */
function quoteName(name: string): string {
  // The captured copies: a replaced `slice` would lift the cut, a replaced `stringify` forge the name.
  return nativeStringify(
    name.length > MAX_NAME_CHARACTERS ? `${stringSlice(name, 0, MAX_NAME_CHARACTERS)}…` : name,
  );
}

/** JavaScript's `\s`: white space and line terminators. */
function isSpace(unit: number): boolean {
  return (
    (unit >= 0x09 && unit <= 0x0d) ||
    unit === 0x20 ||
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/**
 * `text` with each run of white space that holds a line break (`\r`, `\n`)
 * made one space: what `replace(/\s*[\r\n]+\s*\/g, " ")` does, by character
 * codes, so that a replaced `replace` cannot put a forged line in the log.
 */
function foldLines(text: string): string {
  let folded = "";
  let start = 0;
  let index = 0;
  while (index < text.length) {
    if (!isSpace(stringCharCodeAt(text, index))) {
      index += 1;
      continue;
    }
    const runStart = index;
    let breaks = false;
    for (; index < text.length; index += 1) {
      const unit = stringCharCodeAt(text, index);
      if (!isSpace(unit)) break;
      if (unit === 0x0a || unit === 0x0d) breaks = true;
    }
    if (breaks) {
      folded += `${stringSlice(text, start, runStart)} `;
      start = index;
    }
  }
  return start === 0 ? text : folded + stringSlice(text, start);
}

/** One line about a thrown value (line breaks folded: the log is read line by line). */
function describe(thrown: unknown): string {
  const text =
    thrown instanceof Error
      ? `${thrown.name}: ${thrown.message}`
      : typeof thrown === "string"
        ? thrown
        : "a non-Error value was thrown";
  return foldLines(text);
}

/**
 * Runs one MCP `tools/call` request against `registry`. Unknown Tools and
 * arguments that are rejected (by the Tool's validator, or because they are
 * not a plain JSON object) resolve as `isError: true` results, so the model
 * can correct itself. When the request is cancelled the promise rejects with
 * the signal's reason, and the SDK sends no response at all. Any other
 * rejection (a NonRecoverableToolError, or a host mistake such as bad
 * `callOptions`) is logged with `settings.log` and rejects with an McpError
 * (JSON-RPC internal error), which the SDK sends as a protocol error.
 *
 * @example
 * server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
 *   callRegistryTool(registry, request.params, extra, { log: (line) => console.error(line) }));
 */
export async function callRegistryTool(
  registry: ToolRegistry,
  params: McpToolCallParams,
  context: McpCallContext,
  settings: McpCallSettings,
): Promise<McpToolCallResult> {
  const { signal } = context;
  const id = `mcp-${context.requestId}`;
  const name = params.name;
  let call: CourseToolCall;
  try {
    call = snapshotToolCall({ type: "toolCall", id, name, arguments: params.arguments ?? {} });
  } catch (thrown) {
    // The request itself is malformed (a blank name, arguments that are not plain JSON): the model's to fix.
    const blankName = !isNonBlankString(name);
    const result = blankName
      ? toolErrorResult({ id, name: "" }, "TOOL_NOT_FOUND", `Unknown Tool ${nativeStringify(name)}`)
      : toolErrorResult({ id, name }, "TOOL_ARGUMENTS_INVALID", describeMessage(thrown));
    return toMcpResult(result);
  }
  try {
    const running = withRequestTraceContext(registry, context.meta, () =>
      executeToolCall(registry, call, signal, settings.callOptions),
    );
    return toMcpResult(await running);
  } catch (thrown) {
    // Cancelled: rethrow the reason; the SDK answers a cancelled request with nothing.
    // Through the intrinsic getter: a replaced `aborted` getter would pass a fatal error off as
    // a cancellation, which the SDK answers with nothing and the host's log never records.
    if (isAbortSignal(signal) && signalAborted(signal)) throw thrown;
    const kind =
      thrown instanceof NonRecoverableToolError ? "a non-recoverable error" : "an unexpected error";
    const message = `Tool ${quoteName(name)} stopped with ${kind}: ${describe(thrown)}`;
    settings.log(`toolbound mcp: request ${context.requestId}: ${message}`);
    throw new McpError(ErrorCode.InternalError, message);
  }
}

function describeMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : "Tool call arguments could not be read";
}
