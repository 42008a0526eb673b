/**
 * serveToolRegistryHttp's graceful stop, idle sweep and start, after a
 * served Tool replaced built-ins (its request path: see
 * http-server-patched.test.ts). Each test plants a replacement aimed at what
 * the server reads there, counts how often it ran (never), and checks the
 * server still stops, sweeps and starts as it says.
 */
import { Server as HttpServer, ServerResponse } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import { openRawSession, rawRequest, toolCallBody } from "../../test/support/mcp-http.ts";
import {
  type BuiltinAttack,
  replace,
  restoreAll,
  underAttack,
} from "../../test/support/patched-builtins.ts";
import { probeTools } from "../../test/support/probe-tools.ts";
import { type McpHttpOptions, type McpHttpServer, serveToolRegistryHttp } from "./index.ts";

const servers: McpHttpServer[] = [];
afterEach(async () => {
  restoreAll();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const GRACE_MS = 321;

async function serve(options: McpHttpOptions = {}) {
  const probe = probeTools();
  const server = await serveToolRegistryHttp(new ToolRegistry(probe.tools), {
    shutdownGraceMs: GRACE_MS,
    log: () => undefined,
    ...options,
  });
  servers.push(server);
  return { server, ...probe };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "closed" when `close()` resolves within `ms`, else "still open". */
const closedWithin = (server: McpHttpServer, ms: number) =>
  Promise.race([server.close().then(() => "closed"), sleep(ms).then(() => "still open")]);

const STOPPING = "the server is stopping";

/** Replacements aimed at what `close()` calls; each counts its aimed runs. */
const stopAttacks: BuiltinAttack[] = [
  [
    "setTimeout never firing for the grace period (close() would wait for the call forever)",
    (count) => {
      const setTimeoutOriginal = globalThis.setTimeout;
      replace(globalThis, "setTimeout", (...args: Parameters<typeof setTimeout>) => {
        if (args[1] !== GRACE_MS) return Reflect.apply(setTimeoutOriginal, globalThis, args);
        count();
        return setTimeoutOriginal(() => undefined, 0);
      });
    },
  ],
  [
    "AbortController.prototype.abort ignoring the stop",
    (count) => {
      const abort = AbortController.prototype.abort;
      replace(
        AbortController.prototype,
        "abort",
        function forged(this: AbortController, reason?: unknown) {
          if ((reason as Error | undefined)?.message !== STOPPING) {
            return Reflect.apply(abort, this, [reason]);
          }
          count();
        },
      );
    },
  ],
  [
    "EventTarget.prototype.addEventListener dropping the call's abort listeners",
    (count) => {
      const add = EventTarget.prototype.addEventListener;
      replace(
        EventTarget.prototype,
        "addEventListener",
        function forged(this: EventTarget, ...args: Parameters<EventTarget["addEventListener"]>) {
          // Aimed at the server's own listener, an arrow function named `abort` (undici has a
          // `function abort` of its own).
          const listener = args[1] as { name?: unknown } | null;
          if (listener?.name !== "abort" || "prototype" in listener) {
            return Reflect.apply(add, this, args);
          }
          count();
        },
      );
    },
  ],
  [
    "Promise.all never settling for the sessions' closes",
    (count) => {
      const all = Promise.all;
      replace(Promise, "all", function forged(this: PromiseConstructor, values: unknown[]) {
        count();
        return Reflect.apply(all, this, [[...values, new Promise(() => undefined)]]);
      });
    },
  ],
  [
    "http.Server.prototype.closeAllConnections keeping every connection",
    (count) => replace(HttpServer.prototype, "closeAllConnections", () => count()),
  ],
];

describe("close(), after a served Tool replaced the built-ins", () => {
  test("the table of attacks is not empty", () => {
    expect(stopAttacks.length).toBeGreaterThan(0);
  });

  test.each(stopAttacks)(
    "%s: a call past the grace period is aborted, and close() resolves",
    async (_attack, plant) => {
      const { server, counts, started } = await serve();
      const session = await openRawSession(server.url);
      let calls = 0;
      plant(() => {
        calls += 1;
      });
      // The call starts under attack (it hooks its signals then); the test's own code awaits
      // one promise at a time, calling none of the replaced built-ins.
      const [closed, answer] = await underAttack(async () => {
        const slow = rawRequest(server.url, {
          headers: { "mcp-session-id": session },
          body: toolCallBody(1, "work", { ms: 60_000 }),
        });
        await started();
        return [await closedWithin(server, 3_000), await slow] as const;
      });
      expect(calls).toBe(0);
      expect(closed).toBe("closed");
      expect(counts).toEqual({ executions: 1, finished: 0, aborted: 1 });
      expect(answer.messages[0]?.error?.message).toContain("the server stopped before Tool");
    },
  );

  test("a replaced Set.prototype.delete cannot keep an answered POST open, so close() waits for no flush", async () => {
    const { server } = await serve({ stateless: true });
    await rawRequest(server.url, { body: toolCallBody(1, "work", { ms: 0 }) });
    const deleteOriginal = Set.prototype.delete;
    let calls = 0;
    replace(Set.prototype, "delete", function forged(this: Set<unknown>, value: unknown) {
      if (!(value instanceof ServerResponse)) return Reflect.apply(deleteOriginal, this, [value]);
      calls += 1;
      return false;
    });
    const closed = await underAttack(async () => {
      await rawRequest(server.url, { body: toolCallBody(2, "work", { ms: 0 }) });
      // An open answer would hold close() for the 2 s flush.
      return closedWithin(server, 1_000);
    });
    expect(calls).toBe(0);
    expect(closed).toBe("closed");
  });
});

describe("the idle sweep, after a served Tool replaced the built-ins", () => {
  const mapValues = Map.prototype.values;
  const sweepAttacks: BuiltinAttack[] = [
    [
      "Map.prototype.values hiding the sessions",
      (count) =>
        replace(Map.prototype, "values", function forged(this: Map<unknown, unknown>) {
          const first = Reflect.apply(mapValues, this, []).next().value as unknown;
          const sessions = typeof first === "object" && first !== null && "lastSeen" in first;
          if (!sessions) return Reflect.apply(mapValues, this, []);
          count();
          return Reflect.apply(mapValues, new Map(), []);
        }),
    ],
    [
      "Date.now standing still (no session is ever idle)",
      (count) => {
        const now = Date.now();
        replace(Date, "now", () => {
          count();
          return now;
        });
      },
    ],
  ];

  test("the table of attacks is not empty", () => {
    expect(sweepAttacks.length).toBeGreaterThan(0);
  });

  test.each(sweepAttacks)(
    "%s: a session idle for sessionIdleMs is still closed",
    async (_attack, plant) => {
      const { server } = await serve({ sessionIdleMs: 1_000 });
      let calls = 0;
      plant(() => {
        calls += 1;
      });
      const [soon, late] = await underAttack(async () => {
        const session = await openRawSession(server.url);
        const ping = () =>
          rawRequest(server.url, {
            headers: { "mcp-session-id": session },
            body: { jsonrpc: "2.0", id: 2, method: "ping" },
          });
        const first = (await ping()).status;
        await sleep(2_600);
        return [first, (await ping()).status];
      });
      expect(calls).toBe(0);
      expect([soon, late]).toEqual([200, 404]);
    },
  );
});

describe("starting, after a Tool replaced the built-ins", () => {
  test("Math.min and Math.max cannot set the sweep's interval", async () => {
    const calls = { min: 0, max: 0 };
    replace(Math, "min", () => {
      calls.min += 1;
      return 2 ** 31 - 1;
    });
    replace(Math, "max", () => {
      calls.max += 1;
      return 2 ** 31 - 1;
    });
    const { server } = await underAttack(() => serve({ sessionIdleMs: 1_000 }));
    expect(calls).toEqual({ min: 0, max: 0 });
    const session = await openRawSession(server.url);
    await sleep(2_600);
    const late = await rawRequest(server.url, {
      headers: { "mcp-session-id": session },
      body: { jsonrpc: "2.0", id: 2, method: "ping" },
    });
    expect(late.status).toBe(404);
  });
});
