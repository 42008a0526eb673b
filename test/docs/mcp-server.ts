/**
 * Checks an MCP server a document shows (a ```ts block that serves on
 * standard input and output, a host's configuration, a `toolbound mcp`
 * command) the way a host uses it: started as a process under the official
 * MCP client, which lists its Tools and calls one, then closes it.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import ts from "typescript";
import type { BlockModule } from "./block-modules.ts";
import { ROOT } from "./markdown.ts";

/**
 * A block's module as JavaScript for `node --input-type=module --eval`, run
 * from the root: `toolbound` then resolves through the package's own exports
 * map to the build, as in a user's install.
 */
export function transpiledServer(module: BlockModule): string {
  return ts.transpileModule(module.source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  }).outputText;
}

/**
 * Starts `node …args` from the root as an MCP server, lists its Tools, calls
 * the first with empty arguments (any result, error or not, shows the call
 * path works), closes it, and answers the Tools' names. Its standard error
 * goes into the failure message. `env` is added to the test's environment.
 */
export async function checkServer(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<string[]> {
  const inherited = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    cwd: ROOT,
    env: { ...Object.fromEntries(inherited), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "toolbound-doc-test", version: "0.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const first = tools[0];
    if (first !== undefined) {
      const result = await client.callTool({ name: first.name, arguments: {} });
      if (!Array.isArray(result.content)) throw new Error("tools/call answered without content");
    }
    return tools.map((tool) => tool.name);
  } catch (error) {
    throw new Error(`the MCP server failed: ${String(error)}\nits standard error:\n${stderr}`);
  } finally {
    await client.close();
  }
}
