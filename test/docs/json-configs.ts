/**
 * The configurations a ```json block may be marked as (`<!-- doc-test:
 * config=<name> -->`), each checked against what reads it.
 *
 * - `mcp-host`: an MCP host's `mcpServers` map. Each server must start the
 *   package's own executable through `npx` with a command it has; the tests
 *   then start it as the host would (the built executable, with any
 *   `/absolute/path/to/…` placeholder replaced by the built example Tools
 *   module) under the official MCP client.
 */

import { join } from "node:path";
import { packageJson } from "./entries.ts";
import { ROOT } from "./markdown.ts";
import { checkServer } from "./mcp-server.ts";

/** The built executable and the built example Tools, as test/support/cli.ts builds them. */
const BINARY = join(ROOT, "dist/src/cli/main.js");
const EXAMPLES = join(ROOT, "dist/examples/tools.js");
const PLACEHOLDER = "/absolute/path/to/";

interface McpServerEntry {
  readonly command?: unknown;
  readonly args?: unknown;
}

/** Checks an `mcpServers` configuration; answers the servers' Tool names, or throws what is wrong. */
async function mcpHost(config: unknown): Promise<string[]> {
  const servers = (config as { mcpServers?: Record<string, McpServerEntry> }).mcpServers;
  if (typeof servers !== "object" || servers === null) throw new Error("no mcpServers object");
  const entries = Object.entries(servers);
  if (entries.length === 0) throw new Error("mcpServers is empty");
  const bin = Object.keys(packageJson().bin)[0];
  const names: string[] = [];
  for (const [name, server] of entries) {
    const args = server.args;
    if (server.command !== "npx" || !Array.isArray(args) || args[0] !== bin) {
      throw new Error(`${name}: must run "npx ${bin} …"`);
    }
    const rest = args
      .slice(1)
      .map((arg: unknown) =>
        typeof arg === "string" && arg.startsWith(PLACEHOLDER) ? EXAMPLES : String(arg),
      );
    names.push(...(await checkServer([BINARY, ...rest])));
  }
  return names;
}

/** Each configuration name and its check. */
export const CONFIG_CHECKS: Readonly<Record<string, (config: unknown) => Promise<unknown>>> = {
  "mcp-host": mcpHost,
};
