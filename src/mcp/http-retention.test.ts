/**
 * What a client can make serveToolRegistryHttp keep, measured: a session's
 * oversized initialize declarations, the requests of cancelled calls, a
 * progress token repeated in every update, and the stop signal's listeners.
 * Heap readings are taken after garbage collection settles (see
 * test/soak/support.ts); each bound is far under what the code before the fix
 * kept, and far over the noise of a settled heap.
 */
import { afterEach, describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import { exposeGc, recordWarnings, settleHeap } from "../../test/soak/support.ts";
import { initializeBody, rawRequest, toolCallBody } from "../../test/support/mcp-http.ts";
import { probeTools } from "../../test/support/probe-tools.ts";
import { type McpHttpServer, serveToolRegistryHttp } from "./index.ts";

const gc = exposeGc();
const MB = 1024 * 1024;
// Each heap test takes about 2 s alone; a loaded machine may take several times that.
const HEAVY_TIMEOUT = 60_000;

const servers: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve() {
  const probe = probeTools();
  const server = await serveToolRegistryHttp(new ToolRegistry(probe.tools), {
    shutdownGraceMs: 0,
    log: () => {},
  });
  servers.push(server);
  return { server, ...probe };
}

/** An initialize request whose client declares `experimental` capabilities of `items` empty objects. */
function initialize(items: number) {
  return initializeBody(
    { experimental: { padding: { items: Array.from({ length: items }, () => ({})) } } },
    { name: "n".repeat(200_000), version: "1.0.0" },
  );
}

async function openSession(url: string, items: number): Promise<string> {
  const opened = await rawRequest(url, { body: initialize(items) });
  expect(opened.status).toBe(200);
  const id = opened.headers["mcp-session-id"];
  if (typeof id !== "string") throw new Error("no session id");
  await rawRequest(url, {
    headers: { "mcp-session-id": id },
    body: { jsonrpc: "2.0", method: "notifications/initialized" },
  });
  return id;
}

describe("what a client can make a session keep", () => {
  test(
    "a session keeps nothing of oversized initialize declarations (about 9 MB each before)",
    async () => {
      const { server } = await serve();
      await openSession(server.url, 10);
      const before = await settleHeap(gc);
      for (let session = 0; session < 6; session += 1) await openSession(server.url, 150_000);
      const after = await settleHeap(gc);
      expect(after - before).toBeLessThan(12 * MB);
    },
    HEAVY_TIMEOUT,
  );

  test(
    "a cancelled call's request is released, long id and all (about 0.5 MB a call before)",
    async () => {
      const { server, started, counts } = await serve();
      const session = await openSession(server.url, 0);
      const cancelOne = async (index: number) => {
        const id = `${index}:${"i".repeat(500_000)}`;
        const pending = rawRequest(server.url, {
          headers: { "mcp-session-id": session },
          body: { ...toolCallBody(0, "work", { ms: 60_000 }), id },
        });
        await started(index + 1);
        await rawRequest(server.url, {
          headers: { "mcp-session-id": session },
          body: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } },
        });
        const ended = await pending;
        expect(ended.messages.filter((message) => message.id === id)).toEqual([]);
      };
      await cancelOne(0);
      const before = await settleHeap(gc);
      for (let index = 1; index <= 24; index += 1) await cancelOne(index);
      const after = await settleHeap(gc);
      expect(counts.aborted).toBe(25);
      expect(after - before).toBeLessThan(4 * MB);
    },
    HEAVY_TIMEOUT,
  );

  test(
    "twelve calls in flight raise no MaxListenersExceededWarning",
    async () => {
      const { server, started } = await serve();
      const session = await openSession(server.url, 0);
      const recorded = recordWarnings("MaxListenersExceededWarning");
      try {
        const calls = Array.from({ length: 12 }, (_, index) =>
          rawRequest(server.url, {
            headers: { "mcp-session-id": session },
            body: toolCallBody(index + 1, "work", { ms: 200 }),
          }),
        );
        await started(12);
        await Promise.all(calls);
        expect(recorded.warnings).toEqual([]);
      } finally {
        recorded.stop();
      }
    },
    HEAVY_TIMEOUT,
  );
});

describe("a progress token", () => {
  test("one planted on Object.prototype stands in for none: the call runs and sends no progress", async () => {
    const { server } = await serve();
    const session = await openSession(server.url, 0);
    // The SDK's own code reads the planted getter too (its reads are not ours to change): what
    // is asserted is that ours never takes it for the client's token.
    Object.defineProperty(Object.prototype, "progressToken", {
      configurable: true,
      get: () => "p".repeat(2_000),
    });
    let answered: Awaited<ReturnType<typeof rawRequest>>;
    try {
      const body = toolCallBody(1, "steps", {});
      answered = await rawRequest(server.url, {
        headers: { "mcp-session-id": session },
        body: { ...body, params: { ...body.params, _meta: {} } },
      });
    } finally {
      delete (Object.prototype as Record<string, unknown>).progressToken;
    }
    expect(
      answered.messages.filter((message) => message.method === "notifications/progress"),
    ).toEqual([]);
    const [answer] = answered.messages.filter((message) => message.id === 1);
    expect(answer?.result?.isError).toBe(false);
  });

  test.each([
    [1024, "is taken", 1],
    [1025, "is refused before the Tool runs", 0],
  ])("of %i characters %s", async (length, _outcome, runs) => {
    const { server, counts } = await serve();
    const session = await openSession(server.url, 0);
    const body = toolCallBody(1, "work", { ms: 0 });
    const answered = await rawRequest(server.url, {
      headers: { "mcp-session-id": session },
      body: { ...body, params: { ...body.params, _meta: { progressToken: "p".repeat(length) } } },
    });
    const [answer] = answered.messages.filter((message) => message.id === 1);
    expect(counts.executions).toBe(runs);
    if (runs === 1) expect(answer?.result?.isError).toBe(false);
    else {
      expect(answer?.error).toEqual({
        code: -32602,
        message: `MCP error -32602: progressToken is ${length} characters long; at most 1024 are accepted`,
      });
    }
  });
});
