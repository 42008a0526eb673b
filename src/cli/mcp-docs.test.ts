/**
 * docs/mcp.md's command lines and host configurations, run as written: the
 * paths point at the built examples, the token file at a temporary one, and
 * every address at a free loopback port.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BINARY,
  EXAMPLES,
  ensureBuilt,
  finished,
  lineOn,
  ROOT,
  start,
} from "../../test/support/cli.ts";
import { docBlocks } from "../../test/support/doc-blocks.ts";

const TOKEN = "tb-docs-93c1e07f";
let secrets = "";
beforeAll(async () => {
  await ensureBuilt();
  secrets = mkdtempSync(join(tmpdir(), "toolbound-docs-"));
  writeFileSync(join(secrets, "mcp-token"), `${TOKEN}\n`);
}, 180_000);
afterAll(() => rmSync(secrets, { recursive: true, force: true }));

const blocks = docBlocks("docs/mcp.md");
const block = (label: string): string => {
  const found = blocks.find((candidate) => candidate.label === label);
  if (found === undefined) throw new Error(`docs/mcp.md has no block labelled ${label}`);
  return found.code;
};

/** A line of the guide with its paths and addresses made runnable here. */
function runnable(line: string): string[] {
  return line
    .split(" ")
    .slice(1)
    .map((word) =>
      word
        .replace(/^\.\/dist\/examples\/tools\.js$/, EXAMPLES)
        .replace(/^\.\/mcp-token$/, join(secrets, "mcp-token"))
        .replace(/^(?:[\w.]+:)?\d+$/, "127.0.0.1:0"),
    );
}

describe("docs/mcp.md", { timeout: 60_000 }, () => {
  const lines = block("command lines").split("\n");

  test.each(lines)("the command line `%s` starts, serves, and stops with exit 0", async (line) => {
    expect(line.startsWith("toolbound mcp ")).toBe(true);
    const child = start(runnable(line));
    const done = finished(child);
    try {
      const banner = await lineOn(child.stderr, (text) =>
        text.startsWith("toolbound mcp: serving"),
      );
      expect(banner).toContain(`from ${EXAMPLES}`);
      if (line.includes("--token-file")) expect(banner).toContain("bearer token required");
      if (line.includes("--stateless")) expect(banner).toContain("(stateless,");
    } finally {
      if (line.includes("--http")) child.kill("SIGTERM");
      else child.stdin.end();
    }
    expect((await done).code).toBe(0);
  });

  test("the stdio host configuration starts a server a client can list", async () => {
    const config = JSON.parse(block("host configuration (stdio)")) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const entry = Object.values(config.mcpServers)[0];
    expect(entry?.command).toBe("npx");
    expect(entry?.args.slice(0, 2)).toEqual(["toolbound", "mcp"]);
    // `npx toolbound` runs the package's bin, which is this built binary.
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BINARY, "mcp", EXAMPLES],
        cwd: ROOT,
        stderr: "pipe",
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("add");
    } finally {
      await client.close();
    }
  });

  test("the http host configuration reaches a server started as the guide says", async () => {
    const config = JSON.parse(block("host configuration (http)")) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const entry = Object.values(config.mcpServers)[0];
    expect(entry?.type).toBe("http");
    const child = start([
      "mcp",
      "--http",
      "127.0.0.1:0",
      "--token-file",
      join(secrets, "mcp-token"),
      EXAMPLES,
    ]);
    const done = finished(child);
    try {
      const banner = await lineOn(child.stderr, (text) =>
        text.startsWith("toolbound mcp: serving"),
      );
      const port = /:(\d+)\/mcp/.exec(banner)?.[1] ?? "";
      const url = new URL(entry?.url ?? "");
      expect(url.pathname).toBe("/mcp");
      url.port = port;
      const headers = Object.fromEntries(
        Object.entries(entry?.headers ?? {}).map(([name, value]) => [
          name,
          value.replace(/\$\{MCP_TOKEN\}/, TOKEN),
        ]),
      );
      const client = new Client({ name: "host", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("add");
      await client.close();
    } finally {
      child.kill("SIGTERM");
    }
    expect((await done).code).toBe(0);
  });
});
