/**
 * One server of the MCP HTTP benchmark, run as a child process so the load
 * generator does not share its event loop: `node server.js <variant> <mode>`
 * with variant `toolbound` (serveToolRegistryHttp) or `bare` (the SDK's own
 * McpServer on its StreamableHTTPServerTransport, as the SDK documents it),
 * and mode `sessions` or `stateless`. Both serve the same `echo` Tool. It
 * tells its parent the URL over IPC and answers `memory` requests (heap
 * after a full collection).
 */

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { serveToolRegistryHttp } from "../../src/mcp/index.ts";

const [variant, mode] = process.argv.slice(2);
const stateless = mode === "stateless";

const echo = defineTool({
  name: "echo",
  description: "Echo the text.",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  validate: (input) => {
    const text = (input as { text?: unknown }).text;
    return typeof text === "string"
      ? { ok: true, value: { text } }
      : { ok: false, error: "text must be a string" };
  },
  execute: async ({ text }) => text,
});

function bareServer(): McpServer {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo the text.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

/** The SDK's documented Node pattern: a transport per session (or per request when stateless). */
async function serveBare(): Promise<string> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (stateless) {
      const transport = new StreamableHTTPServerTransport({});
      const server = bareServer();
      response.once("close", () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(request, response);
      return;
    }
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) sessions.delete(created.sessionId);
      };
      await bareServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

const url =
  variant === "toolbound"
    ? (await serveToolRegistryHttp(new ToolRegistry([echo]), { stateless, log: () => {} })).url
    : await serveBare();

process.on("message", (message) => {
  if (message !== "memory") return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ heapUsed: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss });
});
process.send?.({ url });
