/**
 * docs/mcp.md's opening example, run by src/mcp/docs-examples.test.ts: the
 * example Tools served over Streamable HTTP with a bearer token, and the
 * same server's Tools taken back behind the boundary with fromMcpClient.
 * The lines between `// doc:begin` and `// doc:end` are the guide's first
 * block (which imports the package where this file imports the sources).
 */

// doc:begin
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { executeToolCall, ToolRegistry } from "../course/src/index.ts";
import { fromMcpClient, serveToolRegistryHttp } from "../src/mcp/index.ts";
import tools from "./tools.ts";

// Our Tools as a Streamable HTTP server: 127.0.0.1, a free port, a bearer token.
const token = "s3cr3t-token-from-your-secret-store";
const server = await serveToolRegistryHttp(new ToolRegistry(tools), { port: 0, token });

// Any MCP client can call it; here the SDK's, whose Tools we take back behind the boundary.
const client = new Client({ name: "my-agent", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }),
);
const remote = await fromMcpClient(client, { prefix: "remote_" });
const registry = new ToolRegistry(remote.tools, { outputBudget: { maxCharacters: 50_000 } });

const result = await executeToolCall(
  registry,
  { type: "toolCall", id: "call-1", name: "remote_add", arguments: { left: 20, right: 22 } },
  new AbortController().signal,
);
console.log(result.content); // {"sum":42}: the remote server's text, as it wrote it

await client.close();
await server.close();

// doc:end

export { registry, result };
