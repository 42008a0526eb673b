/**
 * Test support for `fromMcpClient`: an MCP server of the official SDK in the
 * same process (its low-level `Server`, so a test controls exactly what
 * `tools/list` and `tools/call` answer), connected to an SDK `Client` over
 * the SDK's in-memory transport, and closed after each test.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach } from "vitest";

/** A Tool as the scripted server lists it. */
export type ListedTool = ListToolsResult["tools"][number];

/** What the scripted server was asked, so a test can prove a request was or was not sent. */
export interface ServerLog {
  readonly calls: CallToolRequest["params"][];
  aborted: number;
}

/** The handler `extra` of the SDK, as much of it as the scripted calls use. */
export interface CallExtra {
  readonly signal: AbortSignal;
  readonly sendNotification: (notification: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; total?: number };
  }) => Promise<void>;
  readonly _meta?: { readonly progressToken?: string | number } | undefined;
}

const open: Client[] = [];

/**
 * For a test file: closes every client (and so its server) after each test.
 * Answers a function that connects a client to a scripted low-level server.
 *
 * @example
 * const scripted = useScriptedServers();
 * const { client, log } = await scripted([{ name: "echo", inputSchema: { type: "object" } }], async () => ({ content: [] }));
 */
export function useScriptedServers() {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
  });
  return async (
    tools: readonly ListedTool[] | ((cursor: string | undefined) => ListToolsResult),
    call: (
      params: CallToolRequest["params"],
      extra: CallExtra,
    ) => Promise<CallToolResult> = async () => ({
      content: [{ type: "text", text: "ok" }],
    }),
    serverName = "scripted",
  ) => {
    const log: ServerLog = { calls: [], aborted: 0 };
    const server = new Server(
      { name: serverName, version: "1.0.0" },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, (request) =>
      typeof tools === "function" ? tools(request.params?.cursor) : { tools: [...tools] },
    );
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      log.calls.push(request.params);
      extra.signal.addEventListener("abort", () => {
        log.aborted += 1;
      });
      return call(request.params, extra as unknown as CallExtra);
    });
    const client = await connectClient(server);
    return { client, server, log };
  };
}

/**
 * Connects a new SDK client to `server` (a low-level `Server` or an
 * `McpServer`) over the in-memory transport; closed after the test when
 * {@link useScriptedServers} is in use.
 *
 * @example
 * const client = await connectClient(mcpServer);
 */
export async function connectClient(server: Server | McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "toolbound-from-mcp-test", version: "1.0.0" });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

/** An object input schema with the given properties, all required. */
export function objectSchema(properties: Record<string, object>): ListedTool["inputSchema"] {
  return { type: "object", properties, required: Object.keys(properties) };
}
