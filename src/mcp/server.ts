/**
 * Serving a ToolRegistry over the Model Context Protocol with the official
 * SDK's low-level `Server`: `tools/list` and `tools/call`, nothing else.
 */

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { type ToolCallOptions, ToolRegistry } from "../../course/src/index.ts";
import { toProviderTools } from "../schema/index.ts";
import { callRegistryTool, type McpCallSettings } from "./call-tool.ts";

/**
 * Options of {@link createMcpToolServer} and {@link serveToolRegistry}.
 *
 * - `name`, `version`: the server's identity in the MCP handshake.
 *   Default: `"toolbound"` and `"0.0.0"`; name your own server.
 * - `callOptions`: per-call options for every `executeToolCall` (a deadline,
 *   an approval gate, an argument budget). Default: none.
 * - `log`: where a protocol-level failure (a NonRecoverableToolError) is
 *   reported, one line each. Default: standard error, never standard output,
 *   which a stdio transport owns.
 *
 * @example
 * await serveToolRegistry(registry, new StdioServerTransport(), { name: "my-tools", version: "1.2.0" });
 */
export interface McpBridgeOptions {
  readonly name?: string;
  readonly version?: string;
  readonly callOptions?: ToolCallOptions;
  readonly log?: (line: string) => void;
}

const writeToStderr = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/**
 * Creates an MCP `Server` (not yet connected) that serves a snapshot of
 * `registry`: Tools registered later are not served. `tools/list` returns
 * each Tool's name, description and `parameters` (or the empty-object
 * schema); `tools/call` runs `executeToolCall` with the request's own abort
 * signal (see `callRegistryTool` for how each outcome is answered). Throws a
 * TypeError when `registry` is not a ToolRegistry, and the SchemaToolError of
 * `toProviderTools(registry, "mcp")` when a Tool's name breaks MCP's name
 * rule or its `parameters` is not an object schema.
 *
 * @example
 * const server = createMcpToolServer(new ToolRegistry(tools), { name: "my-tools" });
 * await server.connect(transport);
 */
export function createMcpToolServer(
  registry: ToolRegistry,
  options: McpBridgeOptions = {},
): Server {
  if (!(registry instanceof ToolRegistry)) {
    throw new TypeError("createMcpToolServer needs a ToolRegistry");
  }
  const tools = registry.snapshot();
  // Listed once, up front: a name or schema MCP cannot carry fails here, not on a client's first request.
  const listed = toProviderTools(tools, "mcp") as ListToolsResult["tools"];
  const settings: McpCallSettings = {
    callOptions: options.callOptions,
    log: options.log ?? writeToStderr,
  };
  const server = new Server(
    { name: options.name ?? "toolbound", version: options.version ?? "0.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listed] }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callRegistryTool(
      tools,
      request.params,
      { requestId: extra.requestId, signal: extra.signal },
      settings,
    ),
  );
  return server;
}

/**
 * Serves `registry` over `transport` (for example the SDK's
 * `StdioServerTransport`) and resolves with the connected `Server` once the
 * transport has started; `server.close()` stops it and aborts the calls in
 * flight. Same options and errors as {@link createMcpToolServer}.
 *
 * @example
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * import { serveToolRegistry } from "toolbound/mcp";
 * await serveToolRegistry(new ToolRegistry(tools), new StdioServerTransport());
 */
export async function serveToolRegistry(
  registry: ToolRegistry,
  transport: Transport,
  options: McpBridgeOptions = {},
): Promise<Server> {
  const server = createMcpToolServer(registry, options);
  await server.connect(transport);
  return server;
}
