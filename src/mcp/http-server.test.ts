/**
 * serveToolRegistryHttp in one process, driven by the official SDK client
 * over Streamable HTTP (and by raw requests where the client would hide
 * what is being tested): both modes, progress and logs, cancellation,
 * sessions.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  LATEST_PROTOCOL_VERSION,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import examples from "../../examples/tools.ts";
import {
  connectHttpClient,
  messagesOf,
  rawRequest,
  toolCallBody,
} from "../../test/support/mcp-http.ts";
import { probeTools } from "../../test/support/probe-tools.ts";
import { type McpHttpOptions, type McpHttpServer, serveToolRegistryHttp } from "./index.ts";

const servers: McpHttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: McpHttpOptions = {}) {
  const probe = probeTools();
  const logged: string[] = [];
  const server = await serveToolRegistryHttp(new ToolRegistry([...examples, ...probe.tools]), {
    shutdownGraceMs: 0,
    log: (line) => logged.push(line),
    ...options,
  });
  servers.push(server);
  return { server, logged, ...probe };
}

async function client(url: string, options: Parameters<typeof connectHttpClient>[1] = {}) {
  const connected = await connectHttpClient(url, options);
  clients.push(connected);
  return connected;
}

describe.each([
  ["sessions", false],
  ["stateless", true],
])("in %s mode", (_mode, stateless) => {
  test("binds 127.0.0.1 on a free port and serves tools/list and tools/call at /mcp", async () => {
    const { server } = await serve({ stateless });
    expect(server.host).toBe("127.0.0.1");
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    const mcp = await client(server.url);
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain("work");
    const result = await mcp.callTool({ name: "add", arguments: { left: 20, right: 22 } });
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":42}' }], isError: false });
  });

  test("progress and log lines reach a client that asked for them, in order", async () => {
    const { server } = await serve({ stateless });
    const mcp = await client(server.url);
    const logs: unknown[] = [];
    mcp.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    const progress: number[] = [];
    const result = await mcp.callTool({ name: "steps", arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(result.isError).toBe(false);
    expect(progress).toEqual([1, 2, 3]);
    expect(logs.filter((line) => !String(line).includes("detail"))).toEqual([
      "step 1",
      "step 2",
      "step 3",
    ]);
  });

  test("a cancelled call has its Tool's signal aborted and gets no answer (stateless: the client closes its request; sessions: notifications/cancelled)", async () => {
    const { server, counts, started } = await serve({ stateless });
    const mcp = await client(server.url);
    const sessionId = (mcp.transport as { sessionId?: string } | undefined)?.sessionId;
    const controller = new AbortController();
    const pending = fetch(server.url, {
      method: "POST",
      headers: {
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
      },
      body: JSON.stringify(toolCallBody(7, "work", { ms: 60_000 })),
      signal: controller.signal,
    }).then((response) => response.text());
    await started();
    if (stateless) {
      controller.abort();
      await expect(pending).rejects.toThrow();
      await expect.poll(() => counts.aborted).toBe(1);
    } else {
      // A session outlives one connection: the client cancels with notifications/cancelled.
      await mcp.notification({
        method: "notifications/cancelled",
        params: { requestId: 7, reason: "the user pressed stop" },
      });
      await expect.poll(() => counts.aborted).toBe(1);
      // No answer for a cancelled call, and its event stream ends instead of staying open.
      const body = await pending;
      expect(messagesOf("text/event-stream", body).filter((message) => message.id === 7)).toEqual(
        [],
      );
    }
    expect(counts.finished).toBe(0);
  });
});

describe("sessions", () => {
  test("the SDK client's cancellation (notifications/cancelled) aborts the Tool and the session goes on", async () => {
    const { server, counts, started } = await serve();
    const mcp = await client(server.url);
    const controller = new AbortController();
    const pending = mcp.callTool({ name: "work", arguments: { ms: 60_000 } }, undefined, {
      signal: controller.signal,
    });
    await started();
    controller.abort(new Error("the user pressed stop"));
    await expect(pending).rejects.toThrow("the user pressed stop");
    await expect.poll(() => counts.aborted).toBe(1);
    const after = await mcp.callTool({ name: "add", arguments: { left: 1, right: 1 } });
    expect(after.content).toEqual([{ type: "text", text: '{"sum":2}' }]);
  });

  test("an unknown session id gets 404, a request without one that is not an initialize gets 400", async () => {
    const { server, counts } = await serve();
    const unknown = await rawRequest(server.url, {
      headers: { "mcp-session-id": "no-such-session" },
      body: toolCallBody(1, "work", { ms: 0 }),
    });
    expect(unknown.status).toBe(404);
    const uninitialized = await rawRequest(server.url, {
      body: toolCallBody(1, "work", { ms: 0 }),
    });
    expect(uninitialized.status).toBe(400);
    expect(counts.executions).toBe(0);
  });

  test("past maxSessions a new session gets 503; ending one (DELETE) makes room", async () => {
    const { server } = await serve({ maxSessions: 2 });
    const first = await client(server.url);
    await client(server.url);
    await expect(client(server.url)).rejects.toThrow(/503|Too many sessions/);
    await (
      first.transport as unknown as { terminateSession: () => Promise<void> }
    ).terminateSession();
    const third = await client(server.url);
    expect((await third.listTools()).tools.length).toBeGreaterThan(0);
  });

  test("a session without requests (and no open stream) for sessionIdleMs is closed", async () => {
    const { server } = await serve({ sessionIdleMs: 1_000 });
    const initialize = await rawRequest(server.url, {
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: "raw", version: "1.0.0" },
        },
      },
    });
    const sessionId = String(initialize.headers["mcp-session-id"]);
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const soon = await rawRequest(server.url, {
      headers: { "mcp-session-id": sessionId },
      body: ping,
    });
    expect(soon.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_600));
    const late = await rawRequest(server.url, {
      headers: { "mcp-session-id": sessionId },
      body: ping,
    });
    expect(late.status).toBe(404);
  });
});

describe("stateless", () => {
  test("a tools/call POST needs no session, and GET gets 405", async () => {
    const { server } = await serve({ stateless: true });
    const answer = await rawRequest(server.url, {
      body: toolCallBody(3, "add", { left: 2, right: 3 }),
    });
    expect(answer.status).toBe(200);
    expect(answer.messages).toEqual([
      {
        jsonrpc: "2.0",
        id: 3,
        result: { content: [{ type: "text", text: '{"sum":5}' }], isError: false },
      },
    ]);
    const get = await rawRequest(server.url, { method: "GET" });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
  });
});
