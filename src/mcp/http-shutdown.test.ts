/**
 * Stopping the HTTP server: calls in flight finish within the grace period
 * or are aborted through their signals and answered with an error; every
 * call gets exactly one answer; nothing new is taken once stopping begins.
 */
import { describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import { openRawSession, rawRequest, toolCallBody } from "../../test/support/mcp-http.ts";
import { probeTools } from "../../test/support/probe-tools.ts";
import { serveToolRegistryHttp } from "./index.ts";

/** Opens a session with a raw initialize and returns the headers later requests need. */
async function sessionHeaders(url: string, stateless: boolean): Promise<Record<string, string>> {
  if (stateless) return {};
  return { "mcp-session-id": await openRawSession(url) };
}

describe.each([
  ["sessions", false],
  ["stateless", true],
])("close() in %s mode", (_mode, stateless) => {
  test("a call that ends within the grace period gets its result; one that does not is aborted and answered with an error", async () => {
    const { tools, counts, started } = probeTools();
    const server = await serveToolRegistryHttp(new ToolRegistry(tools), {
      stateless,
      shutdownGraceMs: 500,
    });
    try {
      const headers = await sessionHeaders(server.url, stateless);
      const quick = rawRequest(server.url, { headers, body: toolCallBody(1, "work", { ms: 100 }) });
      const slow = rawRequest(server.url, {
        headers,
        body: toolCallBody(2, "work", { ms: 60_000 }),
      });
      await started(2);
      const closed = server.close();
      expect(server.close()).toBe(closed);
      const [quickAnswer, slowAnswer] = await Promise.all([quick, slow]);
      await closed;
      expect(quickAnswer.messages).toEqual([
        {
          jsonrpc: "2.0",
          id: 1,
          result: { content: [{ type: "text", text: '{"waited":100}' }], isError: false },
        },
      ]);
      expect(slowAnswer.messages).toEqual([
        {
          jsonrpc: "2.0",
          id: 2,
          error: {
            code: -32603,
            message:
              'MCP error -32603: the server stopped before Tool "work" finished; its call was aborted and its effects are unknown',
          },
        },
      ]);
      expect(counts).toEqual({ executions: 2, finished: 1, aborted: 1 });
      await expect(
        rawRequest(server.url, { body: toolCallBody(3, "work", { ms: 0 }) }),
      ).rejects.toThrow(/ECONNREFUSED/);
      expect(counts.executions).toBe(2);
    } finally {
      await server.close();
    }
  });
});

test("while stopping, a request on a connection that is still open gets 503 and runs nothing", async () => {
  const { tools, counts, started } = probeTools();
  const server = await serveToolRegistryHttp(new ToolRegistry(tools), {
    stateless: true,
    shutdownGraceMs: 2_000,
  });
  try {
    const pending = fetch(server.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify(toolCallBody(1, "work", { ms: 300 })),
      keepalive: true,
    });
    await started();
    const closed = server.close();
    // A second request from a client that still holds a connection (fetch reuses them).
    const late = await fetch(server.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify(toolCallBody(2, "work", { ms: 0 })),
    }).then(
      (response) => response.status,
      () => "refused",
    );
    expect([503, "refused"]).toContain(late);
    expect((await pending).status).toBe(200);
    await closed;
    expect(counts.executions).toBe(1);
  } finally {
    await server.close();
  }
});
