/**
 * The header checks of the HTTP server, as tables: Host headers that try to
 * pass for loopback, Origins a page could send, and bearer tokens.
 */
import { describe, expect, test } from "vitest";
import {
  bearerCheck,
  checkToken,
  headerRules,
  hostnameOf,
  isLoopbackAddress,
  refusedHeader,
} from "./http-guards.ts";

describe("reading a Host header", () => {
  test.each([
    ["localhost:8080", "localhost"],
    ["LOCALHOST", "localhost"],
    ["127.0.0.1", "127.0.0.1"],
    ["[::1]:3000", "[::1]"],
    ["tools.internal:443", "tools.internal"],
  ])("%s is hostname %s", (header, hostname) => {
    expect(hostnameOf(header)).toBe(hostname);
  });

  test.each([
    ["userinfo before a loopback address", "evil.example@127.0.0.1"],
    ["a path", "127.0.0.1/evil"],
    ["a space", "127.0.0.1 evil.example"],
    ["two ports", "127.0.0.1:80:80"],
    ["an empty header", ""],
    ["a port alone", ":8080"],
    ["a line break", "127.0.0.1\r\nX-Evil: 1"],
  ])("%s is malformed (%s)", (_what, header) => {
    expect(hostnameOf(header)).toBeUndefined();
  });
});

test("a server bound to another loopback address answers to that address, and no other name", () => {
  const rules = headerRules("127.0.0.2", undefined, undefined);
  expect(refusedHeader({ host: "127.0.0.2:8080" }, rules)).toBeUndefined();
  expect(refusedHeader({ host: "localhost:8080" }, rules)).toBeUndefined();
  expect(refusedHeader({ host: "127.0.0.3:8080" }, rules)).toMatch(/not allowed/);
  expect(refusedHeader({ host: "evil.example:8080" }, rules)).toMatch(/not allowed/);
});

describe("the default rules of a loopback server", () => {
  const rules = headerRules("127.0.0.1", undefined, undefined);

  test.each([
    [{ host: "127.0.0.1:8080" }],
    [{ host: "localhost:8080", origin: "http://localhost:5173" }],
    [{ host: "[::1]:8080", origin: "https://127.0.0.1" }],
  ])("accepts %j", (headers) => {
    expect(refusedHeader(headers, rules)).toBeUndefined();
  });

  test.each([
    ["a rebinding Host", { host: "evil.example:8080" }],
    ["a name ending like loopback", { host: "127.0.0.1.evil.example" }],
    ["no Host at all", {}],
    ["a rebinding Origin", { host: "127.0.0.1:8080", origin: "http://evil.example" }],
    ["the opaque origin of a sandboxed page", { host: "127.0.0.1", origin: "null" }],
    [
      "an Origin on a loopback-looking name",
      { host: "127.0.0.1", origin: "http://localhost.evil" },
    ],
    ["an Origin that is not http(s)", { host: "127.0.0.1", origin: "file://" }],
  ])("refuses %s", (_what, headers) => {
    expect(refusedHeader(headers, rules)).toMatch(/is not allowed$/);
  });
});

describe("configured rules", () => {
  test("allowedHosts replace the loopback names; any port passes", () => {
    const rules = headerRules("0.0.0.0", ["tools.internal"], undefined);
    expect(refusedHeader({ host: "tools.internal:9000" }, rules)).toBeUndefined();
    expect(refusedHeader({ host: "localhost:9000" }, rules)).toBe(
      'Host "localhost:9000" is not allowed',
    );
  });

  test("a server bound beyond loopback checks no Host by default but refuses every Origin", () => {
    const rules = headerRules("0.0.0.0", undefined, undefined);
    expect(refusedHeader({ host: "anything.example" }, rules)).toBeUndefined();
    expect(refusedHeader({ host: "x", origin: "http://localhost" }, rules)).toBe(
      'Origin "http://localhost" is not allowed',
    );
  });

  test("allowedOrigins match whole origins: scheme, host and port", () => {
    const rules = headerRules("127.0.0.1", undefined, ["https://app.example.com"]);
    expect(refusedHeader({ host: "127.0.0.1", origin: "https://app.example.com" }, rules)).toBe(
      undefined,
    );
    for (const origin of [
      "http://app.example.com",
      "https://app.example.com:8443",
      "http://localhost",
    ]) {
      expect(refusedHeader({ host: "127.0.0.1", origin }, rules)).toMatch(/not allowed/);
    }
  });

  test.each([
    ["allowedHosts", () => headerRules("127.0.0.1", ["localhost:8080"], undefined)],
    ["allowedHosts", () => headerRules("127.0.0.1", ["evil@localhost"], undefined)],
    ["allowedOrigins", () => headerRules("127.0.0.1", undefined, ["app.example.com"])],
    ["allowedOrigins", () => headerRules("127.0.0.1", undefined, ["https://app.example.com/path"])],
  ])("a bad %s entry is a TypeError naming the option", (option, make) => {
    expect(make).toThrow(new RegExp(`^${option}: `));
  });

  test.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.10", false],
    ["127.0.0.1.example", false],
  ])("bind address %s is loopback: %s", (host, loopback) => {
    expect(isLoopbackAddress(host)).toBe(loopback);
  });
});

describe("the bearer token", () => {
  const authorized = bearerCheck("s3cr3t-token");

  test.each([
    ["the token", "Bearer s3cr3t-token", true],
    ["the scheme in lower case", "bearer s3cr3t-token", true],
    ["a wrong token of the same length", "Bearer s3cr3t-tokeN", false],
    ["a prefix of the token", "Bearer s3cr3t", false],
    ["the token and more", "Bearer s3cr3t-token2", false],
    ["another scheme", "Basic s3cr3t-token", false],
    ["two tokens", "Bearer s3cr3t-token s3cr3t-token", false],
    ["nothing after the scheme", "Bearer ", false],
    ["no header", undefined, false],
  ])("%s: %s", (_what, header, expected) => {
    expect(authorized(header)).toBe(expected);
  });

  test.each([
    ["", "empty"],
    ["two words", "a space"],
    ["line\nbreak", "a line break"],
    ["tökén", "non-ASCII"],
  ])("a token %j is refused (%s) without being quoted", (token) => {
    expect(() => checkToken(token)).toThrow(TypeError);
    try {
      checkToken(token);
    } catch (thrown) {
      if (token !== "") expect((thrown as Error).message).not.toContain(token);
    }
  });
});
