/**
 * What the HTTP server checks before it reads a byte of a request's body:
 * the Host and Origin headers (DNS rebinding protection) and the bearer
 * token. Each check reads headers only.
 */

import { hash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import {
  apply,
  getOwnPropertyDescriptor,
  ownDataValue,
  regExpTest,
  sealedRegExp,
  setAdd,
  setHas,
  stringCharCodeAt,
  stringSlice,
} from "../../course/src/internal.ts";

// Everything these checks call is captured when this module loads. The server's Tools run in
// this process and may replace built-ins afterwards (`Set.prototype.has`,
// `Array.prototype.includes`, `RegExp.prototype.exec`, `URL`, a Hash's `digest`), which would
// let a foreign Host, a foreign Origin or a wrong token through. A named import of a built-in
// module is a live binding that `module.syncBuiltinESMExports()` refreshes: copied into consts.
const nativeHash = hash;
const nativeTimingSafeEqual = timingSafeEqual;
const nativeIsIP = isIP;
const nativeStringify = JSON.stringify;
const NativeSet = Set;
const NativeURL = URL;
const NativeUint8Array = Uint8Array;
const stringToLowerCase = String.prototype.toLowerCase;

/** A getter of `URL.prototype`, as it was at load. */
function urlGetter(key: "hostname" | "origin"): (url: URL) => string {
  const get = getOwnPropertyDescriptor(URL.prototype, key)?.get;
  if (typeof get !== "function") throw new TypeError(`toolbound: the runtime lacks URL's ${key}`);
  return (url) => apply(get, url, []) as string;
}
const urlHostname = urlGetter("hostname");
const urlOrigin = urlGetter("origin");

const lowerCase = (text: string): string => apply(stringToLowerCase, text, []) as string;

/** Whether `text` holds the character `code`. */
function holds(text: string, code: number): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (stringCharCodeAt(text, index) === code) return true;
  }
  return false;
}

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
  const bracketed =
    stringCharCodeAt(host, 0) === 0x5b && stringCharCodeAt(host, host.length - 1) === 0x5d;
  const bare = bracketed ? stringSlice(host, 1, -1) : host;
  if (bare === "localhost" || bare === "::1") return true;
  return nativeIsIP(bare) === 4 && stringSlice(bare, 0, 4) === "127.";
}

/** Whether `hostname` is one of {@link LOOPBACK_HOSTNAMES} (by index: no live `includes`). */
function isLoopbackHostname(hostname: string): boolean {
  for (let index = 0; index < LOOPBACK_HOSTNAMES.length; index += 1) {
    if (LOOPBACK_HOSTNAMES[index] === hostname) return true;
  }
  return false;
}

// A Host header is a name or a bracketed IPv6 address, then an optional port.
// Anything else (userinfo, a path, spaces) is refused before a URL parser
// could read `evil.example@127.0.0.1` as the loopback host.
// Sealed: its own `exec` is the original, whatever `RegExp.prototype.exec` becomes.
const HOST_HEADER = sealedRegExp(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$/);

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
  const hostname = match?.[1];
  return hostname === undefined ? undefined : lowerCase(hostname);
}

// "null" (a sandboxed frame, a file) and anything with a path are not origins we could allow.
const ORIGIN_SHAPE = sealedRegExp(/^https?:\/\/[^/?#@\s]+$/i);

/** The serialized origin of an Origin header (`scheme://host[:port]`), or undefined when it is not one. */
function originOf(originHeader: string): URL | undefined {
  if (!regExpTest(ORIGIN_SHAPE, originHeader)) return undefined;
  try {
    return new NativeURL(originHeader);
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
  // Sets filled with the captured `add`, from lists read by index: `new Set(list)` would call
  // the live `Set.prototype.add` and the live array iterator.
  let hosts: Set<string> | undefined;
  if (allowedHosts !== undefined) {
    hosts = new NativeSet();
    for (let index = 0; index < allowedHosts.length; index += 1) {
      const host = allowedHosts[index];
      const hostname = typeof host === "string" ? hostnameOf(host) : undefined;
      if (hostname === undefined || hostname !== lowerCase(host as string)) {
        throw new TypeError(
          `allowedHosts: ${nativeStringify(host)} is not a hostname (no port: any port is allowed)`,
        );
      }
      setAdd(hosts, hostname);
    }
  } else if (loopback) {
    hosts = new NativeSet();
    for (let index = 0; index < LOOPBACK_HOSTNAMES.length; index += 1) {
      setAdd(hosts, LOOPBACK_HOSTNAMES[index] as string);
    }
    // The address bound too: a server on 127.0.0.2 answers to the URL it prints.
    const own = hostnameOf(holds(bindHost, 0x3a) ? `[${bindHost}]` : bindHost);
    if (own !== undefined) setAdd(hosts, own);
  }
  let origins: Set<string> | "loopback";
  if (allowedOrigins !== undefined) {
    origins = new NativeSet();
    for (let index = 0; index < allowedOrigins.length; index += 1) {
      const origin = allowedOrigins[index];
      const url = typeof origin === "string" ? originOf(origin) : undefined;
      if (url === undefined) {
        throw new TypeError(
          `allowedOrigins: ${nativeStringify(origin)} is not an http(s) origin such as https://app.example.com`,
        );
      }
      setAdd(origins, urlOrigin(url));
    }
  } else {
    origins = loopback ? "loopback" : new NativeSet();
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
  // Own headers only: a `host` planted on Object.prototype must not stand in for a missing one.
  const host = ownDataValue(headers, "host") as string | undefined;
  if (rules.allowedHosts !== undefined) {
    const hostname = hostnameOf(host);
    // The captured `has`: the rules' sets are made by `headerRules`, real Sets.
    if (hostname === undefined || !setHas(rules.allowedHosts as Set<string>, hostname)) {
      return `Host ${nativeStringify(host ?? "")} is not allowed`;
    }
  }
  const origin = ownDataValue(headers, "origin") as string | undefined;
  if (origin !== undefined) {
    const url = originOf(origin);
    const allowed =
      url !== undefined &&
      (rules.allowedOrigins === "loopback"
        ? isLoopbackHostname(urlHostname(url))
        : setHas(rules.allowedOrigins as Set<string>, urlOrigin(url)));
    if (!allowed) return `Origin ${nativeStringify(origin)} is not allowed`;
  }
  return undefined;
}

// A bearer token travels in a header: visible ASCII, no spaces or controls.
const TOKEN = sealedRegExp(/^[\x21-\x7e]+$/);

/**
 * Checks a bearer token once, when the server is made: a non-empty string of
 * visible ASCII characters. Throws a TypeError (which never quotes the token).
 *
 * @example
 * checkToken("s3cr3t-token"); // fine
 */
export function checkToken(token: unknown): string {
  if (typeof token !== "string" || !regExpTest(TOKEN, token)) {
    throw new TypeError(
      "token must be a non-empty string of visible ASCII characters (no spaces or line breaks)",
    );
  }
  return token;
}

const DIGEST_BYTES = 32;

/**
 * The SHA-256 of `text` (UTF-8), by the captured one-shot `crypto.hash`: it runs in Node's
 * internals, where a Hash object's `update` and `digest` (which a Tool could replace, to
 * read the token or to answer with its digest) are never looked up.
 */
function digest(text: string): Uint8Array {
  // Latin-1 ("binary"): one character per byte of the digest.
  const binary = nativeHash("sha256", text, "binary");
  const bytes = new NativeUint8Array(DIGEST_BYTES);
  for (let index = 0; index < DIGEST_BYTES; index += 1) {
    bytes[index] = stringCharCodeAt(binary, index);
  }
  return bytes;
}

const BEARER = sealedRegExp(/^Bearer +(\S+) *$/i);

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
    const match = BEARER.exec(authorization ?? "");
    // Compared even when the header is missing, against a value that cannot match.
    const sent = digest(match?.[1] ?? "\n");
    return nativeTimingSafeEqual(sent, expected) && match !== null;
  };
}
