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
  toolErrorResult,
} from "../../course/src/index.ts";
import { withRequestTraceContext } from "./trace-context.ts";

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

/** An MCP `tools/call` result: the Tool's content as one text block, and whether it is an error. */
export interface McpToolCallResult {
  [key: string]: unknown;
  readonly content: [{ readonly type: "text"; readonly text: string }];
  readonly isError: boolean;
}

/**
 * Writes a linked result message as an MCP `tools/call` result.
 *
 * @example
 * toMcpResult(message); // { content: [{ type: "text", text: '{"sum":3}' }], isError: false }
 */
export function toMcpResult(message: CourseToolResultMessage): McpToolCallResult {
  return { content: [{ type: "text", text: message.content }], isError: message.isError };
}

const MAX_NAME_CHARACTERS = 80;

/** A Tool name for a log line: JSON-quoted and cut, so a hostile name cannot flood or forge the log. */
function quoteName(name: string): string {
  return JSON.stringify(
    name.length > MAX_NAME_CHARACTERS ? `${name.slice(0, MAX_NAME_CHARACTERS)}…` : name,
  );
}

/** One line about a thrown value (line breaks folded: the log is read line by line). */
function describe(thrown: unknown): string {
  const text =
    thrown instanceof Error
      ? `${thrown.name}: ${thrown.message}`
      : typeof thrown === "string"
        ? thrown
        : "a non-Error value was thrown";
  return text.replace(/\s*[\r\n]+\s*/g, " ");
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
    const blankName = typeof name !== "string" || name.trim() === "";
    const result = blankName
      ? toolErrorResult({ id, name: "" }, "TOOL_NOT_FOUND", `Unknown Tool ${JSON.stringify(name)}`)
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
    if (signal.aborted) throw thrown;
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
