/**
 * `toolbound mcp --http [host:]port <tools-module>`: serve a tools module
 * over MCP Streamable HTTP until SIGTERM or SIGINT, then stop gracefully.
 */

import type { ToolRegistry } from "../../course/src/index.ts";
import { isLoopbackAddress } from "../mcp/http-guards.ts";
import { CliError, oneLine } from "./cli-error.ts";
import { type HttpAddress, type HttpFlags, readTokenFile } from "./http-flags.ts";
import { loadMcpModule } from "./mcp-sdk.ts";
import { describeOutputFlags, type OutputFlags, outputCallOptions } from "./output-flags.ts";
import { exitAfterFlush, signalExitCode } from "./process-exit.ts";

const DEFAULT_GRACE_MS = 10_000;

/**
 * The warning for a server anyone on the network can reach and call: bound
 * beyond loopback with no token. Undefined otherwise.
 *
 * @example
 * exposureWarning("0.0.0.0", false); // "toolbound mcp: warning: listening on 0.0.0.0 without …"
 */
export function exposureWarning(host: string, hasToken: boolean): string | undefined {
  if (hasToken || isLoopbackAddress(host)) return undefined;
  return `toolbound mcp: warning: listening on ${host} without --token-file: anyone who can reach this port can run these Tools`;
}

/**
 * Runs `toolbound mcp --http`: serves `registry` at `http://host:port/mcp`
 * and writes one line on standard error with the URL actually bound (a
 * port of 0 becomes a free one), the mode and whether a token is required.
 * The first SIGTERM or SIGINT stops it gracefully (calls in flight get the
 * grace period, then are aborted and answered with an error) and exits 0;
 * a second one exits at once with 128 plus its number. Standard input is not
 * read. `beforeExit` (default none) runs once the server has stopped, and
 * before leaving on a start-up failure (the `--otel` flush).
 *
 * @example
 * await runMcpHttpCommand(registry, "./dist/examples/tools.js", "0.1.0", {}, {
 *   http: { host: "127.0.0.1", port: 8080 },
 * });
 */
export async function runMcpHttpCommand(
  registry: ToolRegistry,
  specifier: string,
  version: string,
  outputFlags: OutputFlags,
  flags: HttpFlags & { readonly http: HttpAddress },
  beforeExit?: () => Promise<void>,
): Promise<void> {
  let token: string | undefined;
  let serveToolRegistryHttp: Awaited<ReturnType<typeof loadMcpModule>>["serveToolRegistryHttp"];
  try {
    token = flags.tokenFile === undefined ? undefined : readTokenFile(flags.tokenFile);
    ({ serveToolRegistryHttp } = await loadMcpModule());
  } catch (thrown) {
    await beforeExit?.();
    throw thrown;
  }
  const callOptions = outputCallOptions(outputFlags);
  const grace = flags.shutdownGraceMs ?? DEFAULT_GRACE_MS;
  let server: Awaited<ReturnType<typeof serveToolRegistryHttp>>;
  try {
    server = await serveToolRegistryHttp(registry, {
      name: "toolbound",
      version,
      host: flags.http.host,
      port: flags.http.port,
      stateless: flags.stateless ?? false,
      shutdownGraceMs: grace,
      ...(token === undefined ? {} : { token }),
      ...(flags.allowedHost === undefined ? {} : { allowedHosts: flags.allowedHost }),
      ...(flags.allowedOrigin === undefined ? {} : { allowedOrigins: flags.allowedOrigin }),
      ...(callOptions === undefined ? {} : { callOptions }),
    });
  } catch (thrown) {
    await beforeExit?.();
    throw new CliError(`cannot serve tools module ${specifier} over MCP HTTP: ${oneLine(thrown)}`);
  }
  let stopping = false;
  const onSignal = (name: NodeJS.Signals): void => {
    if (stopping) {
      void exitAfterFlush(signalExitCode(name));
      return;
    }
    stopping = true;
    process.stderr.write(
      `toolbound mcp: ${name}: stopping; calls in flight get up to ${grace} ms to finish\n`,
    );
    const leave = (): void => {
      void exitAfterFlush(0);
    };
    const flush = (): Promise<void> => beforeExit?.() ?? Promise.resolve();
    server.close().then(flush, flush).then(leave, leave);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const count = registry.size === 1 ? "1 Tool" : `${registry.size} Tools`;
  const mode = flags.stateless === true ? "stateless" : "sessions";
  const auth = token === undefined ? "no token" : "bearer token required";
  process.stderr.write(
    `toolbound mcp: serving ${count} from ${specifier} at ${server.url} (${mode}, ${auth})${describeOutputFlags(outputFlags)}\n`,
  );
  const warning = exposureWarning(server.host, token !== undefined);
  if (warning !== undefined) process.stderr.write(`${warning}\n`);
}
