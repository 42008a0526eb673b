/**
 * The options of the Streamable HTTP server, their defaults and their
 * checks: every one is checked once, before anything listens.
 */

import type { McpBridgeOptions } from "./server.ts";

/**
 * Options of `serveToolRegistryHttp`: those of the stdio server (`name`,
 * `version`, `callOptions`, `log`) and:
 *
 * - `host`: the address to bind. Default `"127.0.0.1"` (this machine only).
 * - `port`: the port. Default `0`, a free port chosen by the system (read it
 *   from the returned server's `port` or `url`).
 * - `path`: the endpoint. Default `"/mcp"`.
 * - `token`: a bearer token every request must carry
 *   (`Authorization: Bearer <token>`), compared in constant time and never
 *   logged. Default none: no authentication (keep such a server on loopback).
 * - `allowedHosts`: hostnames (any port) the Host header may name. Default:
 *   `localhost`, `127.0.0.1`, `[::1]` and the address bound when bound to
 *   loopback; otherwise
 *   Host is not checked.
 * - `allowedOrigins`: origins (`https://app.example.com`) a request with an
 *   Origin header (a browser's) may come from. Default: any http(s) origin on
 *   a loopback hostname when bound to loopback; otherwise none.
 * - `stateless`: answer each POST with a fresh MCP server and no session, so
 *   instances behind a load balancer need no affinity. Default `false`
 *   (sessions, `Mcp-Session-Id`).
 * - `maxRequestBytes`: the largest request body read; a larger one gets 413.
 *   Default 4,194,304 (4 MiB, the SDK's).
 * - `maxSessions`: sessions open at once; more get 503. Default 1,000.
 * - `sessionIdleMs`: a session without requests for this long is closed.
 *   Default 1,800,000 (30 minutes).
 * - `shutdownGraceMs`: how long `close()` lets calls in flight finish before
 *   aborting them. Default 10,000.
 *
 * @example
 * await serveToolRegistryHttp(registry, { host: "0.0.0.0", port: 8080, token, allowedHosts: ["tools.internal"] });
 */
export interface McpHttpOptions extends McpBridgeOptions {
  readonly host?: string;
  readonly port?: number;
  readonly path?: string;
  readonly token?: string | undefined;
  readonly allowedHosts?: readonly string[];
  readonly allowedOrigins?: readonly string[];
  readonly stateless?: boolean;
  readonly maxRequestBytes?: number;
  readonly maxSessions?: number;
  readonly sessionIdleMs?: number;
  readonly shutdownGraceMs?: number;
}

/**
 * The options with their defaults filled in.
 *
 * @example
 * const settings: HttpSettings = checkHttpOptions({ port: 8080 });
 */
export interface HttpSettings {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly token: string | undefined;
  readonly allowedHosts: readonly string[] | undefined;
  readonly allowedOrigins: readonly string[] | undefined;
  readonly stateless: boolean;
  readonly maxRequestBytes: number;
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
  readonly shutdownGraceMs: number;
}

function wholeNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new TypeError(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function stringList(value: unknown, name: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === "string")) {
    throw new TypeError(`${name} must be an array of strings`);
  }
  return Object.freeze([...value]);
}

/**
 * Fills in the defaults of `options` and checks each field, throwing a
 * TypeError that names it (the token's value is never quoted).
 *
 * @example
 * checkHttpOptions({ port: 8080 }).host; // "127.0.0.1"
 */
export function checkHttpOptions(options: McpHttpOptions): HttpSettings {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("serveToolRegistryHttp options must be an object");
  }
  const host = options.host ?? "127.0.0.1";
  if (typeof host !== "string" || host.trim() === "") {
    throw new TypeError("host must be a non-blank string");
  }
  const path = options.path ?? "/mcp";
  if (typeof path !== "string" || !/^\/[A-Za-z0-9._~/-]*$/.test(path)) {
    throw new TypeError('path must start with "/" and hold only letters, digits and . _ ~ / -');
  }
  const stateless = options.stateless ?? false;
  if (typeof stateless !== "boolean") throw new TypeError("stateless must be a boolean");
  return {
    host,
    port: wholeNumber(options.port ?? 0, "port", 0, 65_535),
    path,
    token: options.token,
    allowedHosts: stringList(options.allowedHosts, "allowedHosts"),
    allowedOrigins: stringList(options.allowedOrigins, "allowedOrigins"),
    stateless,
    maxRequestBytes: wholeNumber(
      options.maxRequestBytes ?? 4 * 1024 * 1024,
      "maxRequestBytes",
      1024,
      2 ** 31 - 1,
    ),
    maxSessions: wholeNumber(options.maxSessions ?? 1_000, "maxSessions", 1, 1_000_000),
    sessionIdleMs: wholeNumber(
      options.sessionIdleMs ?? 1_800_000,
      "sessionIdleMs",
      1_000,
      2 ** 31 - 1,
    ),
    shutdownGraceMs: wholeNumber(
      options.shutdownGraceMs ?? 10_000,
      "shutdownGraceMs",
      0,
      2 ** 31 - 1,
    ),
  };
}
