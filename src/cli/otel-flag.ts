/**
 * `--otel` on `toolbound call` and `toolbound mcp`: starts the OpenTelemetry
 * Node SDK (`@opentelemetry/sdk-node`), configured entirely by the standard
 * `OTEL_*` environment variables (exporters, endpoint, headers, protocol,
 * service name and resource, sampler, propagators, `OTEL_SDK_DISABLED`), and
 * traces every call of the tools module through `toolbound/otel`. The SDK
 * and `@opentelemetry/api` are optional peers, loaded here and only with the
 * flag; without them the flag is refused with one line saying what to install.
 */

import { Console } from "node:console";
import { type Command, Option } from "commander";
import type { ToolRegistry } from "../../course/src/index.ts";
import { CliError, oneLine } from "./cli-error.ts";

const PEERS = ["@opentelemetry/api", "@opentelemetry/sdk-node"] as const;

/**
 * The name the spans' resource carries unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` name one.
 *
 * @example
 * span.resource.attributes["service.name"]; // DEFAULT_SERVICE_NAME when the environment names none
 */
export const DEFAULT_SERVICE_NAME = "toolbound";

/**
 * What a command does with `--otel`: instrument the registry, and flush before the process ends.
 *
 * @example
 * const otel: OtelSession = await startOtel();
 */
export interface OtelSession {
  instrument(registry: ToolRegistry): ToolRegistry;
  /** Flushes and stops the SDK (waits for the last export); never rejects. */
  shutdown(): Promise<void>;
}

/**
 * Adds `--otel` to `command` and returns it.
 *
 * @example
 * addOtelOption(program.command("call").argument("<tools-module>"));
 */
export function addOtelOption(command: Command): Command {
  return command.addOption(
    new Option(
      "--otel",
      "trace every call with OpenTelemetry (needs @opentelemetry/api and @opentelemetry/sdk-node; " +
        "configured by the OTEL_* environment variables)",
    ),
  );
}

async function loadPeers() {
  try {
    const [sdk, otel] = await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("../otel/index.ts"),
    ]);
    return { NodeSDK: sdk.NodeSDK, instrumentRegistry: otel.instrumentRegistry };
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    const message = oneLine(thrown);
    if (code === "ERR_MODULE_NOT_FOUND" && PEERS.some((peer) => message.includes(peer))) {
      throw new CliError(
        `--otel needs the optional peer dependencies ${PEERS.join(" and ")}; ` +
          `install them with: npm install ${PEERS.join(" ")}`,
      );
    }
    throw thrown;
  }
}

/** True when the environment already names the service. */
function serviceNamed(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SERVICE_NAME ?? "") !== "") return true;
  return /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? "");
}

/**
 * Loads the peers, sends whatever is written through `console` to standard
 * error (standard output carries the results, or the MCP protocol, and the
 * SDK's console exporters write through `console`), and starts the SDK.
 *
 * @example
 * const otel = await startOtel();
 * try { await runCallCommand(otel.instrument(registry), json); } finally { await otel.shutdown(); }
 */
export async function startOtel(env: NodeJS.ProcessEnv = process.env): Promise<OtelSession> {
  const { NodeSDK, instrumentRegistry } = await loadPeers();
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const sdk = new NodeSDK(serviceNamed(env) ? {} : { serviceName: DEFAULT_SERVICE_NAME });
  sdk.start();
  return {
    instrument: (registry) => instrumentRegistry(registry),
    shutdown: () =>
      sdk.shutdown().catch((thrown: unknown) => {
        process.stderr.write(`toolbound: OpenTelemetry shutdown failed: ${oneLine(thrown)}\n`);
      }),
  };
}
