/**
 * Serving a ToolRegistry over the Model Context Protocol with the official
 * SDK's low-level `Server`: `tools/list` and `tools/call`, nothing else.
 */

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
  type LoggingLevel,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { ToolCallOptions, ToolRegistry } from "../../course/src/index.ts";
import { isToolRegistry, readCallOptions, snapshotWithFormat } from "../../course/src/internal.ts";
import { toProviderTools } from "../schema/index.ts";
import { callRegistryTool, type McpCallSettings, type McpToolCallResult } from "./call-tool.ts";
import { withRequestNotices } from "./request-notices.ts";

/**
 * Options of {@link createMcpToolServer} and {@link serveToolRegistry}.
 *
 * - `name`, `version`: the server's identity in the MCP handshake.
 *   Default: `"toolbound"` and `"0.0.0"`; name your own server.
 * - `callOptions`: per-call options for every `executeToolCall`: a deadline,
 *   an approval gate, an argument budget, and output settings
 *   (`outputBudget`, `truncate`, `spill`, `maxSpillCharacters`,
 *   `onSpillError`), which win over the registry's options and each Tool's
 *   own fields, field by field. Checked once, when the server is created.
 *   Default: none (the registry's and the Tools' own settings apply). The
 *   output `format` defaults to `"text"` here (a string result reaches the
 *   client as its own text, structured output as standard JSON) unless the
 *   registry's options or a Tool's definition set one; `callOptions: {
 *   format: "json" }` asks for the course's JSON text.
 * - `log`: where a protocol-level failure (a NonRecoverableToolError) is
 *   reported, one line each. Default: standard error, never standard output,
 *   which a stdio transport owns.
 *
 * @example
 * await serveToolRegistry(registry, new StdioServerTransport(), { name: "my-tools", version: "1.2.0" });
 * await serveToolRegistry(registry, transport, { callOptions: { outputBudget: { maxCharacters: 50_000 } } });
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
 * signal and `options.callOptions` (see `callRegistryTool` for how each
 * outcome is answered); the registry's own options (output settings) are
 * kept by the snapshot and apply too, with `format: "text"` as the default.
 * The text of each result is the call's result `content`, as bounded by those
 * settings; a Tool's `toolContent` reaches the client as one content item per
 * part (`text`, `image`, `audio`, and a `resource` with a base64 `blob` for a
 * file). The server also declares `logging`: a Tool may send progress and log
 * lines to the calling client with `reportProgress` and `sendLogMessage`, and
 * `logging/setLevel` sets the least severe level sent to that client. Throws a
 * TypeError when
 * `registry` is not a ToolRegistry; the ToolContractError INVALID_TOOL_CALL
 * of an invalid `callOptions` (naming the field and its rule), which would
 * otherwise fail every call; and the SchemaToolError of
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
  return prepareMcpToolServer(registry, options)();
}

/**
 * Internal to `toolbound/mcp`: one `tools/call` as the server runs it, so a
 * transport that needs to (the HTTP server's shutdown) can wrap it.
 *
 * @example
 * const logged = (handler: McpCallHandler): McpCallHandler => (request, extra) => handler(request, extra);
 */
export type McpCallHandler = (
  request: CallToolRequest,
  extra: McpRequestExtra,
) => Promise<McpToolCallResult>;

/**
 * The SDK's handler `extra` of a server request.
 *
 * @example
 * const signal: AbortSignal = (extra satisfies McpRequestExtra).signal;
 */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Internal to `toolbound/mcp`: checks `registry` and `options` once (as
 * {@link createMcpToolServer} documents, throwing the same errors) and
 * returns a maker of unconnected Servers that share the snapshot and the
 * listed Tools: one per stdio connection, HTTP session or stateless request.
 * `wrap`, when given, wraps each `tools/call` handler.
 *
 * @example
 * const makeServer = prepareMcpToolServer(registry, { name: "my-tools" });
 * await makeServer().connect(transport);
 */
export function prepareMcpToolServer(
  registry: ToolRegistry,
  options: McpBridgeOptions = {},
  wrap: (handler: McpCallHandler) => McpCallHandler = (handler) => handler,
): () => Server {
  // The private brand, not `instanceof`: a Tool may have given ToolRegistry a
  // `Symbol.hasInstance` of its own.
  if (!isToolRegistry(registry)) {
    throw new TypeError("createMcpToolServer needs a ToolRegistry");
  }
  // A host's mistake is found now, not as an internal error on every tools/call.
  readCallOptions(options.callOptions);
  // A string result reaches an MCP client as text, unless the registry or a Tool says otherwise.
  const tools = snapshotWithFormat(registry, "text");
  // Listed once, up front: a name or schema MCP cannot carry fails here, not on a client's first request.
  const listed = toProviderTools(tools, "mcp") as ListToolsResult["tools"];
  const settings: McpCallSettings = {
    callOptions: options.callOptions,
    log: options.log ?? writeToStderr,
  };
  const identity = { name: options.name ?? "toolbound", version: options.version ?? "0.0.0" };
  // Shared by every Server made here: the SDK would otherwise build a JSON Schema validator per Server.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  return () => {
    const server = new Server(identity, {
      capabilities: { tools: {}, logging: {} },
      jsonSchemaValidator,
    });
    // One Server serves one client (a connection or a session), so its level is that client's.
    let level: LoggingLevel | undefined;
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      level = request.params.level;
      return {};
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listed] }));
    const call: McpCallHandler = (request, extra) =>
      withRequestNotices(
        extra,
        () => level,
        () =>
          callRegistryTool(
            tools,
            request.params,
            { requestId: extra.requestId, signal: extra.signal, meta: request.params._meta },
            settings,
          ),
      );
    server.setRequestHandler(CallToolRequestSchema, wrap(call));
    return server;
  };
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
