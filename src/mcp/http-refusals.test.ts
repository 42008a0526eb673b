/**
 * What the HTTP server refuses before reading a request's body, each with
 * the attack written out and what it touched counted: requests without the
 * token (401), rebinding Host and Origin headers (403), an oversized body
 * (413), and options that are refused before anything listens.
 */
import { request } from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import { connectHttpClient, rawRequest, toolCallBody } from "../../test/support/mcp-http.ts";
import { probeTools } from "../../test/support/probe-tools.ts";
import { type McpHttpOptions, type McpHttpServer, serveToolRegistryHttp } from "./index.ts";

const TOKEN = "tb-7f3c9a1e5d2b4c6a8e0f";
const servers: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: McpHttpOptions = {}) {
  const probe = probeTools();
  const logged: string[] = [];
  const server = await serveToolRegistryHttp(new ToolRegistry(probe.tools), {
    log: (line) => logged.push(line),
    ...options,
  });
  servers.push(server);
  return { server, logged, counts: probe.counts };
}

describe("the bearer token", () => {
  test.each([
    ["no Authorization header", {}],
    ["a wrong token", { authorization: "Bearer tb-wrong" }],
    ["the token in another scheme", { authorization: `Basic ${TOKEN}` }],
    ["the token with a character more", { authorization: `Bearer ${TOKEN}x` }],
  ])("%s: 401 with WWW-Authenticate, and the Tool never runs", async (_what, headers) => {
    const { server, counts, logged } = await serve({ token: TOKEN, stateless: true });
    const answer = await rawRequest(server.url, {
      headers,
      body: toolCallBody(1, "work", { ms: 0 }),
    });
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe('Bearer realm="toolbound"');
    expect(answer.messages).toEqual([
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Unauthorized: a valid bearer token is required" },
        id: null,
      },
    ]);
    expect(counts.executions).toBe(0);
    expect(logged.join("\n")).not.toContain(TOKEN);
  });

  test("nothing else is reachable without it: another path, GET and DELETE are 401 too, not 404 or 405", async () => {
    const { server } = await serve({ token: TOKEN });
    const other = `http://127.0.0.1:${server.port}/not-mcp`;
    for (const [url, method] of [
      [other, "POST"],
      [server.url, "GET"],
      [server.url, "DELETE"],
    ] as const) {
      expect((await rawRequest(url, { method })).status).toBe(401);
    }
  });

  test("a client with the token connects and calls; the token is never logged", async () => {
    const { server, counts, logged } = await serve({ token: TOKEN });
    const mcp = await connectHttpClient(server.url, { token: TOKEN });
    const result = await mcp.callTool({ name: "work", arguments: { ms: 1 } });
    await mcp.close();
    expect(result.isError).toBe(false);
    expect(counts.executions).toBe(1);
    expect(logged.join("\n")).not.toContain(TOKEN);
  });

  test("the SDK client without the token is refused at connect", async () => {
    const { server, counts } = await serve({ token: TOKEN });
    await expect(connectHttpClient(server.url)).rejects.toThrow(/401|Unauthorized/);
    expect(counts.executions).toBe(0);
  });
});

describe("DNS rebinding protection", () => {
  test.each([
    ["a rebinding Host", { host: "evil.example" }],
    ["a rebinding Host with the server's port", { host: "evil.example:8080" }],
    ["a rebinding Origin", { origin: "http://evil.example" }],
    ["a sandboxed page's Origin", { origin: "null" }],
  ])("%s gets 403 and the Tool never runs", async (_what, headers) => {
    const { server, counts } = await serve({ stateless: true });
    const answer = await rawRequest(server.url, {
      headers,
      body: toolCallBody(1, "work", { ms: 0 }),
    });
    expect(answer.status).toBe(403);
    expect(answer.messages[0]?.error?.message).toMatch(
      /^Forbidden: (Host|Origin) .* is not allowed$/,
    );
    expect(counts.executions).toBe(0);
  });

  test("a rebinding request is refused before the token is even looked at", async () => {
    const { server } = await serve({ token: TOKEN });
    const answer = await rawRequest(server.url, {
      headers: { host: "evil.example", authorization: `Bearer ${TOKEN}` },
      body: toolCallBody(1, "work", { ms: 0 }),
    });
    expect(answer.status).toBe(403);
  });

  test("allowedHosts and allowedOrigins let a named host and page in", async () => {
    const { server, counts } = await serve({
      stateless: true,
      allowedHosts: ["tools.internal"],
      allowedOrigins: ["https://app.example.com"],
    });
    const answer = await rawRequest(server.url, {
      headers: { host: "tools.internal", origin: "https://app.example.com" },
      body: toolCallBody(1, "work", { ms: 0 }),
    });
    expect(answer.status).toBe(200);
    expect(counts.executions).toBe(1);
    const loopbackName = await rawRequest(server.url, {
      headers: { host: "localhost" },
      body: toolCallBody(2, "work", { ms: 0 }),
    });
    expect(loopbackName.status).toBe(403);
  });
});

const HUNDRED_MB = 100 * 1024 * 1024;

/** Streams up to 100 MB of spaces and reports the status and how much could be written at all. */
function sendHugeBody(url: string, declareLength: boolean) {
  return new Promise<{ status: number | undefined; atResponse: number; written: number }>(
    (resolve) => {
      let written = 0;
      let atResponse = Number.NaN;
      let status: number | undefined;
      const outgoing = request(url, {
        method: "POST",
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          ...(declareLength ? { "content-length": String(HUNDRED_MB) } : {}),
        },
      });
      outgoing.once("response", (incoming) => {
        status = incoming.statusCode;
        atResponse = written;
        incoming.resume();
      });
      outgoing.once("error", () => {});
      outgoing.once("close", () => resolve({ status, atResponse, written }));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (written < HUNDRED_MB && !outgoing.destroyed) {
          written += chunk.length;
          if (!outgoing.write(chunk)) {
            outgoing.once("drain", pump);
            return;
          }
        }
        outgoing.end();
      };
      pump();
    },
  );
}

describe("request bodies", () => {
  test.each([
    ["declared with Content-Length", true],
    ["streamed without a length", false],
  ])(
    "a 100 MB body %s gets 413 after a few MB, and the connection closes before all of it is read",
    async (_what, declared) => {
      const { server, counts } = await serve({ stateless: true });
      const { status, atResponse, written } = await sendHugeBody(server.url, declared);
      expect(status).toBe(413);
      // The bound is 4 MiB; socket buffers hold a few MB more by the time the answer is read.
      expect(atResponse).toBeLessThan(HUNDRED_MB / 4);
      // After the answer the rest is drained (never kept) for a moment at most, then the socket closes.
      expect(written).toBeLessThan(HUNDRED_MB);
      expect(counts.executions).toBe(0);
    },
  );

  test("maxRequestBytes sets the bound: a call just over it is refused, one under it runs", async () => {
    const { server, counts } = await serve({ stateless: true, maxRequestBytes: 2_048 });
    const padding = (size: number) => toolCallBody(1, "work", { ms: 0, pad: "x".repeat(size) });
    const over = await rawRequest(server.url, { body: padding(2_048) });
    expect(over.status).toBe(413);
    expect(counts.executions).toBe(0);
    const under = await rawRequest(server.url, { body: padding(1_500) });
    expect(under.status).toBe(200);
    expect(counts.executions).toBe(1);
  });
});

describe("options refused before anything listens", () => {
  test.each([
    ["port", { port: 70_000 }, /^port must be a whole number from 0 to 65535$/],
    ["path", { path: "mcp" }, /^path must start with "\/"/],
    ["stateless", { stateless: "yes" }, /^stateless must be a boolean$/],
    ["maxRequestBytes", { maxRequestBytes: 10 }, /^maxRequestBytes must be a whole number/],
    ["maxSessions", { maxSessions: 0 }, /^maxSessions must be a whole number/],
    ["shutdownGraceMs", { shutdownGraceMs: -1 }, /^shutdownGraceMs must be a whole number/],
    ["token", { token: "has space" }, /^token must be a non-empty string/],
    ["allowedHosts", { allowedHosts: "localhost" }, /^allowedHosts must be an array of strings$/],
    ["allowedOrigins", { allowedOrigins: ["localhost"] }, /^allowedOrigins: "localhost" is not/],
  ])("a bad %s is a TypeError naming it", async (_name, options, message) => {
    const probe = probeTools();
    await expect(
      serveToolRegistryHttp(new ToolRegistry(probe.tools), options as McpHttpOptions),
    ).rejects.toThrow(message);
  });

  test("a registry that is not a ToolRegistry is a TypeError", async () => {
    await expect(serveToolRegistryHttp({} as ToolRegistry)).rejects.toThrow(TypeError);
  });
});
