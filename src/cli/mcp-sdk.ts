/**
 * Loading `toolbound/mcp` and, with it, the MCP SDK: an optional peer
 * dependency, so a missing install becomes one line that says what to do.
 */

import { CliError, oneLine } from "./cli-error.ts";

const SDK = "@modelcontextprotocol/sdk";

/** Turns a missing SDK into a CliError with the install command; rethrows anything else. */
function explainMissingSdk(thrown: unknown): never {
  const code = (thrown as { code?: unknown } | null)?.code;
  if (code === "ERR_MODULE_NOT_FOUND" && oneLine(thrown).includes(SDK)) {
    throw new CliError(
      `toolbound mcp needs the optional peer dependency ${SDK}; install it with: npm install ${SDK}`,
    );
  }
  throw thrown;
}

/**
 * Imports the MCP bridge (`src/mcp`), or throws CliError when the SDK is not
 * installed.
 *
 * @example
 * const { serveToolRegistryHttp } = await loadMcpModule();
 */
export async function loadMcpModule(): Promise<typeof import("../mcp/index.ts")> {
  try {
    return await import("../mcp/index.ts");
  } catch (thrown) {
    return explainMissingSdk(thrown);
  }
}

/**
 * Imports the bridge and the SDK's stdio server transport, or throws
 * CliError when the SDK is not installed.
 *
 * @example
 * const { serveToolRegistry, Transport } = await loadStdioSdk();
 */
export async function loadStdioSdk() {
  try {
    const [bridge, stdio] = await Promise.all([
      import("../mcp/index.ts"),
      import("@modelcontextprotocol/sdk/server/stdio.js"),
    ]);
    return { serveToolRegistry: bridge.serveToolRegistry, Transport: stdio.StdioServerTransport };
  } catch (thrown) {
    return explainMissingSdk(thrown);
  }
}
