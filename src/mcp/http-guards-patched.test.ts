/**
 * The HTTP guards of `serveToolRegistryHttp` run for every request, after the
 * served Tools ran in the same process and may have replaced built-ins: the
 * Host, Origin and bearer-token checks must let through exactly what they
 * did. Each test replaces what a check used to call, aims it at that check's
 * own inputs, counts how often the replacement ran (never), and checks the
 * verdict is the true one.
 */
import { createRequire, syncBuiltinESMExports } from "node:module";
import { afterEach, describe, expect, test } from "vitest";
import { replace, restoreAll, underAttackNow } from "../../test/support/patched-builtins.ts";
import { bearerCheck, headerRules, isLoopbackAddress, refusedHeader } from "./http-guards.ts";

const require = createRequire(import.meta.url);
const crypto = require("node:crypto") as typeof import("node:crypto");
const net = require("node:net") as typeof import("node:net");

afterEach(restoreAll);

describe("the HTTP guards, after a served Tool replaced the built-ins", () => {
  const foreign = { host: "rebind.evil.example", origin: "http://rebind.evil.example" };

  test("Set.prototype.has, Array.prototype.includes and RegExp exec cannot let a foreign Host or Origin in", () => {
    const loopback = headerRules("127.0.0.1", undefined, undefined);
    const listed = headerRules("0.0.0.0", ["tools.internal"], ["https://app.example.com"]);
    const calls = { has: 0, includes: 0, exec: 0, lowerCase: 0 };
    replace(Set.prototype, "has", () => {
      calls.has += 1;
      return true;
    });
    replace(Array.prototype, "includes", () => {
      calls.includes += 1;
      return true;
    });
    // A Host header that is not one reads as "localhost", whatever it says.
    replace(RegExp.prototype, "exec", () => {
      calls.exec += 1;
      return Object.assign(["localhost", "localhost"], { index: 0 });
    });
    replace(String.prototype, "toLowerCase", () => {
      calls.lowerCase += 1;
      return "localhost";
    });
    const refusals = underAttackNow(() => [
      refusedHeader(foreign, loopback),
      refusedHeader({ host: "localhost", origin: foreign.origin }, loopback),
      refusedHeader({ host: "evil@localhost" }, loopback),
      refusedHeader(foreign, listed),
      refusedHeader({ host: "tools.internal", origin: "https://evil.example" }, listed),
    ]);
    expect(calls).toEqual({ has: 0, includes: 0, exec: 0, lowerCase: 0 });
    expect(refusals).toEqual([
      'Host "rebind.evil.example" is not allowed',
      'Origin "http://rebind.evil.example" is not allowed',
      'Host "evil@localhost" is not allowed',
      'Host "rebind.evil.example" is not allowed',
      'Origin "https://evil.example" is not allowed',
    ]);
  });

  test("a Host header planted on Object.prototype cannot stand in for a missing one", () => {
    const loopback = headerRules("127.0.0.1", undefined, undefined);
    let reads = 0;
    replace(
      Object.prototype,
      "host",
      () => {
        reads += 1;
        return "localhost";
      },
      true,
    );
    const refused = underAttackNow(() => refusedHeader({}, loopback));
    expect(reads).toBe(0);
    expect(refused).toBe('Host "" is not allowed');
  });

  test("a replaced URL cannot make a foreign Origin loopback, nor one listed", () => {
    const loopback = headerRules("127.0.0.1", undefined, undefined);
    const listed = headerRules("0.0.0.0", undefined, ["https://app.example.com"]);
    let calls = 0;
    replace(globalThis, "URL", function FakeURL(this: unknown, text: string) {
      calls += 1;
      return { hostname: "localhost", origin: "https://app.example.com", href: text };
    });
    const refused = underAttackNow(() => [
      refusedHeader({ host: "localhost", origin: foreign.origin }, loopback),
      refusedHeader({ host: "x", origin: foreign.origin }, listed),
    ]);
    expect(calls).toBe(0);
    expect(refused).toEqual([
      'Origin "http://rebind.evil.example" is not allowed',
      'Origin "http://rebind.evil.example" is not allowed',
    ]);
  });

  test.each([
    ["hostname", "localhost"],
    ["origin", "https://app.example.com"],
  ] as const)("a replaced URL %s getter cannot let a foreign Origin in", (key, forged) => {
    const loopback = headerRules("127.0.0.1", undefined, undefined);
    const listed = headerRules("0.0.0.0", undefined, ["https://app.example.com"]);
    let calls = 0;
    replace(
      URL.prototype,
      key,
      () => {
        calls += 1;
        return forged;
      },
      true,
    );
    const refused = underAttackNow(() => [
      refusedHeader({ host: "localhost", origin: foreign.origin }, loopback),
      refusedHeader({ host: "x", origin: foreign.origin }, listed),
    ]);
    expect(calls).toBe(0);
    expect(refused).toEqual([
      'Origin "http://rebind.evil.example" is not allowed',
      'Origin "http://rebind.evil.example" is not allowed',
    ]);
  });

  test("timingSafeEqual, createHash and a Hash's digest cannot let a wrong token in", () => {
    const authorized = bearerCheck("correct-horse-battery");
    const expected = crypto.createHash("sha256").update("correct-horse-battery").digest();
    const calls = { timingSafeEqual: 0, createHash: 0, digest: 0, update: 0 };
    replace(crypto, "timingSafeEqual", () => {
      calls.timingSafeEqual += 1;
      return true;
    });
    const originalCreateHash = crypto.createHash;
    replace(crypto, "createHash", (...args: Parameters<typeof crypto.createHash>) => {
      calls.createHash += 1;
      return originalCreateHash(...args);
    });
    // A live ESM binding of node:crypto follows its CommonJS object after this call.
    syncBuiltinESMExports();
    const HashPrototype = Object.getPrototypeOf(originalCreateHash("sha256")) as object;
    // The attack: whatever was sent, its digest is the token's.
    replace(HashPrototype, "digest", () => {
      calls.digest += 1;
      return Buffer.from(expected);
    });
    replace(HashPrototype, "update", function update(this: unknown) {
      calls.update += 1;
      return this;
    });
    const verdicts = underAttackNow(() => [
      authorized("Bearer wrong-token-wrong-token-wrong"),
      authorized(undefined),
      authorized("Bearer correct-horse-battery"),
    ]);
    expect(calls).toEqual({ timingSafeEqual: 0, createHash: 0, digest: 0, update: 0 });
    expect(verdicts).toEqual([false, false, true]);
  });

  const EVIL = "rebind.evil.example";
  /** Each attack on the rules, and the count of its replacement's calls. */
  const ruleAttacks: Array<[string, (count: () => void) => void]> = [
    [
      "net.isIP (a live ESM binding) answering 0: a loopback bind loses its Host check",
      (count) => {
        replace(net, "isIP", () => {
          count();
          return 0;
        });
        syncBuiltinESMExports();
      },
    ],
    [
      "String.prototype.startsWith answering false: 127.0.0.2 is not loopback",
      (count) =>
        replace(String.prototype, "startsWith", () => {
          count();
          return false;
        }),
    ],
    [
      "String.prototype.slice answering nothing: [::1] is not loopback",
      (count) =>
        replace(String.prototype, "slice", () => {
          count();
          return "";
        }),
    ],
    [
      "String.prototype.includes answering true: the bound address bracketed as IPv6",
      (count) =>
        replace(String.prototype, "includes", () => {
          count();
          return true;
        }),
    ],
    [
      "Set.prototype.add adding a foreign host to every set",
      (count) => {
        const add = Set.prototype.add;
        replace(Set.prototype, "add", function forged(this: Set<unknown>, value: unknown) {
          count();
          Reflect.apply(add, this, [value]);
          return Reflect.apply(add, this, [EVIL]);
        });
      },
    ],
    [
      "Array.prototype.map adding a foreign host or origin to the lists",
      (count) => {
        const map = Array.prototype.map;
        replace(Array.prototype, "map", function forged(this: unknown[], ...args: unknown[]) {
          count();
          const extra = String(this[0]).startsWith("http") ? `http://${EVIL}` : EVIL;
          return Reflect.apply(map, this.concat(extra), args);
        });
      },
    ],
    [
      "the array iterator yielding a foreign host after the list",
      (count) =>
        replace(Array.prototype, Symbol.iterator, function forged(this: unknown[]) {
          count();
          const items = this.concat(EVIL);
          let index = 0;
          return {
            next: () => {
              index += 1;
              return index <= items.length
                ? { done: false, value: items[index - 1] }
                : { done: true, value: undefined };
            },
          };
        }),
    ],
  ];

  test.each(ruleAttacks)("rules made after %s are the true ones", (_attack, plant) => {
    let calls = 0;
    plant(() => {
      calls += 1;
    });
    const made = underAttackNow(() => ({
      loopback: [isLoopbackAddress("127.0.0.2"), isLoopbackAddress("[::1]")],
      bound: headerRules("127.0.0.2", undefined, undefined),
      listed: headerRules("0.0.0.0", ["tools.internal"], ["https://app.example.com"]),
    }));
    expect(calls).toBe(0);
    expect(made).toEqual({
      loopback: [true, true],
      bound: {
        allowedHosts: new Set(["localhost", "127.0.0.1", "[::1]", "127.0.0.2"]),
        allowedOrigins: "loopback",
      },
      listed: {
        allowedHosts: new Set(["tools.internal"]),
        allowedOrigins: new Set(["https://app.example.com"]),
      },
    });
  });
});
