/**
 * The reference MCP servers this suite runs (installed by `npm run
 * test:mcp-servers` from this directory's package.json), started over stdio
 * with the official SDK client, and closed after each test.
 */

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach } from "vitest";

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVERS = join(HERE, "../node_modules/@modelcontextprotocol");

/** The entry script of a reference server package. */
function serverScript(name: "server-everything" | "server-filesystem"): string {
  const script = join(SERVERS, name, "dist/index.js");
  if (!existsSync(script)) {
    throw new Error(
      `@modelcontextprotocol/${name} is not installed; run: npm run test:mcp-servers`,
    );
  }
  return script;
}

/** A connected client and every message it sent, to show what went over the wire. */
export interface Connected {
  readonly client: Client;
  readonly sent: JSONRPCMessage[];
}

const open: Client[] = [];

/**
 * For a test file: closes every client (stopping its server process) after
 * each test, whatever happened. Answers a function that starts a server.
 *
 * @example
 * const connect = useReferenceServers();
 * const { client } = await connect("server-everything", ["stdio"]);
 */
export function useReferenceServers() {
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
  });
  return async (
    name: "server-everything" | "server-filesystem",
    args: readonly string[],
  ): Promise<Connected> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverScript(name), ...args],
      stderr: "pipe",
    });
    const sent: JSONRPCMessage[] = [];
    // Every message the client writes to the server, recorded on its way out.
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage) => {
      sent.push(message);
      return send(message);
    };
    const client = new Client({ name: "toolbound-interop", version: "1.0.0" });
    open.push(client);
    await client.connect(transport);
    return { client, sent };
  };
}
