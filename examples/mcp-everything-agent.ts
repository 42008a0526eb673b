/**
 * docs/mcp.md's agent that takes server-everything's Tools (started with
 * npx, over stdio) into a ToolRegistry with one call; run by the interop
 * suite (`npm run test:mcp-servers`, from test/mcp-servers, where npx finds
 * the server installed from that suite's lockfile). The lines between
 * `// doc:begin` and `// doc:end` are the guide's block.
 */

// doc:begin
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolRegistry } from "../course/src/index.ts";
import { fromMcpClient } from "../src/mcp/index.ts";

const client = new Client({ name: "my-agent", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-everything"],
    stderr: "pipe",
  }),
);

// Its Tools behind our boundary, prefixed, without the one that prints the environment.
const everything = await fromMcpClient(client, {
  prefix: "everything_",
  exclude: ["get-env"],
  timeoutMs: 30_000,
});

// Whatever they return reaches the model within 50,000 characters; the rest goes to a file.
const spillDir = mkdtempSync(join(tmpdir(), "tool-output-"));
const registry = new ToolRegistry(everything.tools, {
  outputBudget: { maxCharacters: 50_000 },
  spill: (text) => {
    const path = join(spillDir, `${randomUUID()}.txt`);
    writeFileSync(path, text);
    return path;
  },
});

// doc:end

export { client, registry, spillDir };
