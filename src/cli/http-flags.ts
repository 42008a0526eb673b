/**
 * The flags of `toolbound mcp --http`: the address, the token file, the
 * mode, the allowed Host and Origin values and the shutdown grace period.
 */

import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError, Option } from "commander";
import { CliError } from "./cli-error.ts";

/**
 * What commander hands over for these flags; all absent when not given.
 *
 * @example
 * const flags: HttpFlags = { http: { host: "127.0.0.1", port: 8080 }, stateless: true };
 */
export interface HttpFlags {
  readonly http?: HttpAddress;
  readonly tokenFile?: string;
  readonly stateless?: boolean;
  readonly allowedHost?: readonly string[];
  readonly allowedOrigin?: readonly string[];
  readonly shutdownGraceMs?: number;
}

/**
 * Where to listen.
 *
 * @example
 * const address: HttpAddress = parseHttpAddress("[::1]:8080"); // { host: "::1", port: 8080 }
 */
export interface HttpAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * Parses `--http [host:]port`: a port alone binds 127.0.0.1; a host may be a
 * name, an IPv4 address or a bracketed IPv6 address (`[::1]:8080`). Port 0
 * lets the system choose. Throws commander's InvalidArgumentError.
 *
 * @example
 * parseHttpAddress("8080"); // { host: "127.0.0.1", port: 8080 }
 * parseHttpAddress("0.0.0.0:8080"); // { host: "0.0.0.0", port: 8080 }
 */
export function parseHttpAddress(text: string): HttpAddress {
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?([0-9]{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || !(port <= 65_535)) {
    throw new InvalidArgumentError(
      "It must be [host:]port with a port from 0 to 65535, such as 8080, 127.0.0.1:8080 or [::1]:8080.",
    );
  }
  const host = match[1] ?? "127.0.0.1";
  return { host: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

/**
 * Parses `--shutdown-grace-ms`: whole milliseconds from 0 to 600000.
 *
 * @example
 * parseGraceMs("5000"); // 5000
 */
export function parseGraceMs(text: string): number {
  const value = /^[0-9]{1,6}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value <= 600_000)) {
    throw new InvalidArgumentError("It must be a whole number of milliseconds from 0 to 600000.");
  }
  return value;
}

const collect = (value: string, previous: readonly string[] = []): readonly string[] => [
  ...previous,
  value,
];

/**
 * Adds the HTTP flags to `command` and returns it.
 *
 * @example
 * addHttpOptions(program.command("mcp").argument("<tools-module>"));
 */
export function addHttpOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--http <[host:]port>",
        "serve over Streamable HTTP at http://host:port/mcp instead of stdio (host default 127.0.0.1; port 0 picks a free one)",
      ).argParser(parseHttpAddress),
    )
    .addOption(
      new Option(
        "--token-file <path>",
        "require Authorization: Bearer <token>, the token being this file's text without surrounding white space",
      ),
    )
    .addOption(
      new Option(
        "--stateless",
        "no sessions: every POST is answered on its own (for several instances behind a load balancer)",
      ),
    )
    .addOption(
      new Option(
        "--allowed-host <hostname>",
        "a Host header hostname to accept (repeatable; default localhost, 127.0.0.1 and [::1] on loopback)",
      ).argParser(collect),
    )
    .addOption(
      new Option(
        "--allowed-origin <origin>",
        "an Origin to accept, such as https://app.example.com (repeatable; default loopback origins on loopback)",
      ).argParser(collect),
    )
    .addOption(
      new Option(
        "--shutdown-grace-ms <ms>",
        "on SIGTERM or SIGINT, how long calls in flight may finish before they are aborted (default 10000)",
      ).argParser(parseGraceMs),
    );
}

/**
 * The HTTP flags given without `--http`, which would otherwise be ignored.
 *
 * @example
 * strayHttpFlags({ tokenFile: "token.txt" }); // ["--token-file"]
 */
export function strayHttpFlags(flags: HttpFlags): string[] {
  const given: [string, unknown][] = [
    ["--token-file", flags.tokenFile],
    ["--stateless", flags.stateless],
    ["--allowed-host", flags.allowedHost],
    ["--allowed-origin", flags.allowedOrigin],
    ["--shutdown-grace-ms", flags.shutdownGraceMs],
  ];
  return given.filter(([, value]) => value !== undefined).map(([flag]) => flag);
}

/**
 * Reads the bearer token from `path`: the file's text with surrounding white
 * space trimmed. Throws CliError naming the file (never its content) when it
 * cannot be read, is empty, or holds anything but visible ASCII characters.
 *
 * @example
 * const token = readTokenFile("/run/secrets/mcp-token");
 */
export function readTokenFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    throw new CliError(
      `cannot read token file ${path}${typeof code === "string" ? ` (${code})` : ""}`,
    );
  }
  const token = text.trim();
  if (token === "") throw new CliError(`token file ${path} is empty`);
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new CliError(
      `token file ${path} must hold one token of visible ASCII characters (no inner spaces or line breaks)`,
    );
  }
  return token;
}
