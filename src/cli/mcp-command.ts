/**
 * `toolbound mcp <tools-module>`: serve a tools module over MCP on standard
 * input and output. The MCP SDK, an optional peer dependency, is loaded on
 * first use (`mcp-sdk.ts`).
 */

import type { ToolRegistry } from "../../course/src/index.ts";
import { CliError, oneLine } from "./cli-error.ts";
import { loadStdioSdk } from "./mcp-sdk.ts";
import { describeOutputFlags, type OutputFlags, outputCallOptions } from "./output-flags.ts";
import { exitAfterFlush, signalExitCode } from "./process-exit.ts";

/**
 * Runs `toolbound mcp`: serves `registry` over stdio until standard input
 * ends (exit 0) or SIGINT/SIGTERM arrives (exit 130/143); either way the
 * server closes first, which aborts the signal of every call in flight.
 * Standard output carries only the protocol; one line on standard error says
 * what is served (and the output flags, when given), and non-recoverable
 * Tool errors are logged there too. `flags` (default none) become the call
 * options of every `tools/call`. `beforeExit` (default none) runs once the
 * server has closed and before the process exits (the `--otel` flush).
 *
 * @example
 * await runMcpCommand(await loadToolRegistry("./dist/examples/tools.js"), "./dist/examples/tools.js", "0.1.0");
 * await runMcpCommand(registry, specifier, "0.1.0", { maxOutputCharacters: 50_000, truncate: "tail" });
 */
export async function runMcpCommand(
  registry: ToolRegistry,
  specifier: string,
  version: string,
  flags: OutputFlags = {},
  beforeExit?: () => Promise<void>,
): Promise<void> {
  const { serveToolRegistry, Transport } = await loadStdioSdk().catch(async (thrown: unknown) => {
    await beforeExit?.();
    throw thrown;
  });
  const callOptions = outputCallOptions(flags);
  let server: Awaited<ReturnType<typeof serveToolRegistry>>;
  try {
    server = await serveToolRegistry(registry, new Transport(), {
      name: "toolbound",
      version,
      ...(callOptions === undefined ? {} : { callOptions }),
    });
  } catch (thrown) {
    await beforeExit?.();
    // A Tool name or schema MCP cannot carry (SchemaToolError), found before serving anything.
    throw new CliError(`cannot serve tools module ${specifier} over MCP: ${oneLine(thrown)}`);
  }
  server.onerror = (error) => {
    process.stderr.write(`toolbound mcp: ${oneLine(error)}\n`);
  };
  let closing = false;
  const shutdown = (code: number): void => {
    if (closing) return;
    closing = true;
    // Closing aborts the calls in flight; then leave, even if a Tool ignores its signal.
    const leave = (): void => {
      exitAfterFlush(code);
    };
    const flush = (): Promise<void> => beforeExit?.() ?? Promise.resolve();
    server.close().then(flush, flush).then(leave, leave);
  };
  process.stdin.once("end", () => shutdown(0));
  process.once("SIGINT", () => shutdown(signalExitCode("SIGINT")));
  process.once("SIGTERM", () => shutdown(signalExitCode("SIGTERM")));
  const count = registry.size === 1 ? "1 Tool" : `${registry.size} Tools`;
  process.stderr.write(
    `toolbound mcp: serving ${count} from ${specifier} over stdio${describeOutputFlags(flags)}\n`,
  );
}
