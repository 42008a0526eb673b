/**
 * The command line's grammar (commander): `toolbound call`, `toolbound list`
 * and `toolbound mcp`, their help, and how a failure is reported.
 */

import { Command, Option } from "commander";
import type { ProviderFormat } from "../schema/index.ts";
import { runCallCommand } from "./call-command.ts";
import { CliError, oneLine } from "./cli-error.ts";
import { addHttpOptions, type HttpFlags, strayHttpFlags } from "./http-flags.ts";
import { LIST_FORMATS, listTools } from "./list-command.ts";
import { loadToolRegistry } from "./load-tools.ts";
import { runMcpCommand } from "./mcp-command.ts";
import { runMcpHttpCommand } from "./mcp-http-command.ts";
import { addOtelOption, type OtelSession, startOtel } from "./otel-flag.ts";
import { addOutputOptions, type OutputFlags, outputCallOptions } from "./output-flags.ts";
import { packageVersion } from "./package-info.ts";
import { exitAfterFlush } from "./process-exit.ts";

const MODULE_HELP =
  "a JavaScript module whose default export is a ToolRegistry or an array of Tool definitions";

const CALL_EXAMPLES = `
A call is a JSON object: {"name": "...", "arguments": {...}}, with an optional
"id" (default call-1, or call-<line number> on standard input).

Examples:
  $ toolbound call ./dist/examples/tools.js '{"name":"add","arguments":{"left":20,"right":22}}'
  $ printf '%s\\n' '{"name":"add","arguments":{"left":1,"right":2}}' | toolbound call ./dist/examples/tools.js

Each result message is printed as one JSON line, isError results included; a
string result's content is its own text (--format json for the course's JSON
text), and a Tool's images, audio and files appear as the line's "parts".
Ctrl-C cancels the call in flight and exits with code 130.

--max-output-characters, --truncate and --format apply to every call and win
over the tools module's own settings for the same field; a cut says what was cut:
  $ toolbound call ./dist/examples/tools.js --max-output-characters 50000 --truncate tail \\
      '{"name":"repeat","arguments":{"text":"log line ","times":10000}}'`;

const OTEL_HELP = `
--otel traces every call with OpenTelemetry (the Node SDK, set up by the standard OTEL_*
environment variables; it needs the peers @opentelemetry/api and @opentelemetry/sdk-node):
  $ OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 toolbound call ./dist/examples/tools.js --otel \\
      '{"name":"add","arguments":{"left":1,"right":2}}'`;

/** The flags a command receives besides its output flags. */
type TracingFlags = OutputFlags & { readonly otel?: boolean };

/** Starts the SDK when `--otel` was given. */
const otelFor = (flags: TracingFlags): Promise<OtelSession | undefined> =>
  flags.otel === true ? startOtel() : Promise.resolve(undefined);

const MCP_HELP = `
An MCP host starts it as: command "npx", args ["toolbound", "mcp", "/absolute/path/to/tools.js"],
adding for example "--max-output-characters", "50000" to let longer results through.
--max-output-characters, --truncate and --format apply to every tools/call and win
over the tools module's own settings for the same field. Results are text by default
(--format json for the course's JSON text); images, audio and files are sent as MCP
image, audio and resource content.
Standard output carries the protocol only; logs go to standard error.

Over Streamable HTTP (the endpoint is /mcp):
  $ toolbound mcp --http 8080 ./dist/examples/tools.js
  $ toolbound mcp --http 0.0.0.0:8080 --token-file ./mcp-token --allowed-host tools.internal ./dist/examples/tools.js
On SIGTERM or SIGINT it stops taking requests, lets calls in flight finish within
--shutdown-grace-ms, aborts the rest (each answered with an error) and exits 0.`;

/**
 * Builds the `toolbound` program. Commander's own errors (an unknown command,
 * a missing argument, a format outside the list) are printed as one line
 * `toolbound: …` on standard error; the actions throw CliError.
 *
 * @example
 * await createProgram().parseAsync(["node", "toolbound", "list", "./tools.js"]);
 */
export function createProgram(): Command {
  const version = packageVersion();
  const program = new Command()
    .name("toolbound")
    .description("Try and serve Tools behind the toolbound boundary.")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .configureOutput({
      // One line, in the same voice as the CLI's own errors (a suggestion stays on it).
      outputError: (text, write) =>
        write(
          `toolbound: ${text
            .replace(/^error: /, "")
            .replace(/\s*\n\s*/g, " ")
            .trim()}\n`,
        ),
    });

  addOtelOption(
    addOutputOptions(
      program
        .command("call")
        .description("execute one Tool call, or JSON Lines of calls from standard input")
        .argument("<tools-module>", MODULE_HELP)
        .argument(
          "[call-json]",
          "one call as JSON; without it, calls are read from standard input",
        ),
    ),
  )
    .addHelpText("after", CALL_EXAMPLES + OTEL_HELP)
    .action(async (specifier: string, callJson: string | undefined, flags: TracingFlags) => {
      const otel = await otelFor(flags);
      try {
        const loaded = await loadToolRegistry(specifier);
        const registry = otel === undefined ? loaded : otel.instrument(loaded);
        await runCallCommand(registry, callJson, process.stdin, outputCallOptions(flags));
      } finally {
        // The last spans are exported before the process ends, whatever the calls did.
        await otel?.shutdown();
      }
    });

  program
    .command("list")
    .description("print the Tool definitions as JSON")
    .argument("<tools-module>", MODULE_HELP)
    .addOption(
      new Option("-f, --format <format>", "write each Tool in a provider's request shape").choices(
        LIST_FORMATS,
      ),
    )
    .addHelpText(
      "after",
      "\nExample:\n  $ toolbound list ./dist/examples/tools.js --format anthropic",
    )
    .action(async (specifier: string, options: { format?: ProviderFormat }) => {
      const registry = await loadToolRegistry(specifier);
      process.stdout.write(`${listTools(registry, options.format)}\n`);
    });

  addOtelOption(
    addHttpOptions(
      addOutputOptions(
        program
          .command("mcp")
          .description(
            "serve the Tools over the Model Context Protocol on standard input and output, or over HTTP",
          )
          .argument("<tools-module>", MODULE_HELP),
      ),
    ),
  )
    .addHelpText("after", MCP_HELP + OTEL_HELP)
    .action(async (specifier: string, flags: TracingFlags & HttpFlags) => {
      const { http } = flags;
      const stray = http === undefined ? strayHttpFlags(flags) : [];
      if (stray.length > 0) throw new CliError(`${stray.join(", ")} needs --http`);
      const otel = await otelFor(flags);
      const loaded = await loadToolRegistry(specifier).catch(async (thrown: unknown) => {
        await otel?.shutdown();
        throw thrown;
      });
      const registry = otel === undefined ? loaded : otel.instrument(loaded);
      if (http === undefined) {
        await runMcpCommand(registry, specifier, version, flags, otel?.shutdown);
      } else {
        await runMcpHttpCommand(
          registry,
          specifier,
          version,
          flags,
          { ...flags, http },
          otel?.shutdown,
        );
      }
    });

  return program;
}

/**
 * Runs the command line with `argv` (as `process.argv`). A CliError is
 * printed as `toolbound: <message>` and exits with its code; anything else
 * is an unexpected failure, printed the same way, exit code 1.
 *
 * @example
 * await runCli(process.argv);
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  try {
    await createProgram().parseAsync([...argv]);
  } catch (thrown) {
    const code = thrown instanceof CliError ? thrown.exitCode : 1;
    const prefix = thrown instanceof CliError ? "" : "unexpected error: ";
    process.stderr.write(`toolbound: ${prefix}${oneLine(thrown)}\n`);
    await exitAfterFlush(code);
  }
}
