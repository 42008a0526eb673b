/**
 * What the HTTP server checks before it reads a byte of a request's body:
 * the Host and Origin headers (DNS rebinding protection) and the bearer
 * token. Each check reads headers only.
 */

import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";

/**
 * The hostnames of the loopback interface as a Host header writes them: the
 * default `allowedHosts` of a loopback server.
 *
 * @example
 * LOOPBACK_HOSTNAMES.includes("[::1]"); // true
 */
export const LOOPBACK_HOSTNAMES: readonly string[] = Object.freeze([
  "localhost",
  "127.0.0.1",
  "[::1]",
]);

/**
 * Whether a bind address is loopback only (so rebinding protection is on by default).
 *
 * @example
 * isLoopbackAddress("127.0.0.1"); // true
 * isLoopbackAddress("0.0.0.0"); // false
 */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare === "localhost" || bare === "::1") return true;
  return isIP(bare) === 4 && bare.startsWith("127.");
}

// A Host header is a name or a bracketed IPv6 address, then an optional port.
// Anything else (userinfo, a path, spaces) is refused before a URL parser
// could read `evil.example@127.0.0.1` as the loopback host.
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$/;

/**
 * The hostname of a Host header, lower-cased, or undefined when it is malformed.
 *
 * @example
 * hostnameOf("LocalHost:8080"); // "localhost"
 * hostnameOf("evil.example@127.0.0.1"); // undefined
 */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined) return undefined;
  const match = HOST_HEADER.exec(hostHeader);
  return match?.[1]?.toLowerCase();
}

/** The serialized origin of an Origin header (`scheme://host[:port]`), or undefined when it is not one. */
function originOf(originHeader: string): URL | undefined {
  // "null" (a sandboxed frame, a file) and anything with a path are not origins we could allow.
  if (!/^https?:\/\/[^/?#@\s]+$/i.test(originHeader)) return undefined;
  try {
    return new URL(originHeader);
  } catch {
    return undefined;
  }
}

/**
 * The Host and Origin rules of one server. `allowedHosts` are hostnames
 * (any port); `undefined` means Host is not checked. `allowedOrigins` are
 * origins (`https://app.example.com`); `"loopback"` allows any http(s)
 * origin on a loopback hostname, whatever its port.
 *
 * @example
 * const rules: HeaderRules = { allowedHosts: new Set(["tools.internal"]), allowedOrigins: new Set() };
 */
export interface HeaderRules {
  readonly allowedHosts: ReadonlySet<string> | undefined;
  readonly allowedOrigins: ReadonlySet<string> | "loopback";
}

/**
 * The rules for a server bound to `bindHost`: given lists win; otherwise a
 * loopback bind allows only loopback Host and Origin headers, and any other
 * bind checks no Host and refuses every request that carries an Origin (a
 * browser's), since no origin was named. Throws a TypeError for an entry that
 * is not a hostname or an origin.
 *
 * @example
 * headerRules("127.0.0.1", undefined, undefined); // loopback hosts and origins only
 */
export function headerRules(
  bindHost: string,
  allowedHosts: readonly string[] | undefined,
  allowedOrigins: readonly string[] | undefined,
): HeaderRules {
  const loopback = isLoopbackAddress(bindHost);
  let hosts: ReadonlySet<string> | undefined;
  if (allowedHosts !== undefined) {
    hosts = new Set(
      allowedHosts.map((host) => {
        const hostname = typeof host === "string" ? hostnameOf(host) : undefined;
        if (hostname === undefined || hostname !== host.toLowerCase()) {
          throw new TypeError(
            `allowedHosts: ${JSON.stringify(host)} is not a hostname (no port: any port is allowed)`,
          );
        }
        return hostname;
      }),
    );
  } else if (loopback) {
    // The address bound too: a server on 127.0.0.2 answers to the URL it prints.
    const own = hostnameOf(bindHost.includes(":") ? `[${bindHost}]` : bindHost);
    hosts = new Set(own === undefined ? LOOPBACK_HOSTNAMES : [...LOOPBACK_HOSTNAMES, own]);
  }
  let origins: ReadonlySet<string> | "loopback";
  if (allowedOrigins !== undefined) {
    origins = new Set(
      allowedOrigins.map((origin) => {
        const url = typeof origin === "string" ? originOf(origin) : undefined;
        if (url === undefined) {
          throw new TypeError(
            `allowedOrigins: ${JSON.stringify(origin)} is not an http(s) origin such as https://app.example.com`,
          );
        }
        return url.origin;
      }),
    );
  } else {
    origins = loopback ? "loopback" : new Set();
  }
  return { allowedHosts: hosts, allowedOrigins: origins };
}

/**
 * Why the request's Host or Origin header is refused, or undefined when both
 * pass. A request without an Origin (any non-browser client) passes that
 * check; one without a Host header fails wherever hosts are checked.
 *
 * @example
 * refusedHeader({ host: "evil.example:8080" }, rules); // "Host evil.example:8080 is not allowed"
 */
export function refusedHeader(
  headers: IncomingHttpHeaders,
  rules: HeaderRules,
): string | undefined {
  if (rules.allowedHosts !== undefined) {
    const hostname = hostnameOf(headers.host);
    if (hostname === undefined || !rules.allowedHosts.has(hostname)) {
      return `Host ${JSON.stringify(headers.host ?? "")} is not allowed`;
    }
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    const url = originOf(origin);
    const allowed =
      url !== undefined &&
      (rules.allowedOrigins === "loopback"
        ? LOOPBACK_HOSTNAMES.includes(url.hostname)
        : rules.allowedOrigins.has(url.origin));
    if (!allowed) return `Origin ${JSON.stringify(origin)} is not allowed`;
  }
  return undefined;
}

// A bearer token travels in a header: visible ASCII, no spaces or controls.
const TOKEN = /^[\x21-\x7e]+$/;

/**
 * Checks a bearer token once, when the server is made: a non-empty string of
 * visible ASCII characters. Throws a TypeError (which never quotes the token).
 *
 * @example
 * checkToken("s3cr3t-token"); // fine
 */
export function checkToken(token: unknown): string {
  if (typeof token !== "string" || !TOKEN.test(token)) {
    throw new TypeError(
      "token must be a non-empty string of visible ASCII characters (no spaces or line breaks)",
    );
  }
  return token;
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/**
 * A constant-time check of `Authorization: Bearer <token>`. Both sides are
 * hashed first, so the comparison takes the same time whatever the length
 * or the content of what was sent.
 *
 * @example
 * const authorized = bearerCheck("s3cr3t-token");
 * authorized("Bearer s3cr3t-token"); // true
 */
export function bearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
    // Compared even when the header is missing, against a value that cannot match.
    const sent = digest(match?.[1] ?? "\n");
    return timingSafeEqual(sent, expected) && match !== null;
  };
}
