/**
 * Serving a ToolRegistry over MCP's Streamable HTTP transport (the SDK's own
 * `StreamableHTTPServerTransport`) on a plain `node:http` server: the same
 * request handling as the stdio server, behind Host/Origin checks and an
 * optional bearer token, in session or stateless mode, with a graceful stop.
 */

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "../../course/src/index.ts";
import { oneLine } from "./bounded-text.ts";
import { bearerCheck, checkToken, headerRules, refusedHeader } from "./http-guards.ts";
import { checkHttpOptions, type McpHttpOptions } from "./http-options.ts";
import { type McpCallHandler, prepareMcpToolServer } from "./server.ts";

/**
 * A running {@link serveToolRegistryHttp} server.
 *
 * @example
 * const server = await serveToolRegistryHttp(registry, { port: 0 });
 * console.log(server.url); // http://127.0.0.1:49321/mcp
 * await server.close();
 */
export interface McpHttpServer {
  /** The endpoint's URL, with the port actually bound. */
  readonly url: string;
  /** The address bound (`127.0.0.1` unless `host` said otherwise). */
  readonly host: string;
  /** The port bound (the one chosen by the system when `port` was 0). */
  readonly port: number;
  /**
   * Stops gracefully: no new connections or requests (those that arrive get
   * 503), calls in flight get `shutdownGraceMs` to finish, then their signals
   * are aborted and each is answered with a JSON-RPC error; then every
   * session and connection is closed. Resolves once all of that is done;
   * calling it again returns the same promise.
   */
  close(): Promise<void>;
}

interface Session {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  active: number;
  lastSeen: number;
}

/** A JSON-RPC error body, as the SDK's transport writes its own refusals. */
function refuse(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  // The request's body is never read after a refusal: close the connection instead of draining it.
  response.writeHead(status, {
    "content-type": "application/json",
    connection: "close",
    ...headers,
  });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/** Resolves when `done()` holds or after `ms`, whichever is first; `wake` re-checks. */
function waitFor(done: () => boolean, ms: number): { promise: Promise<void>; wake: () => void } {
  let wake = (): void => {};
  const promise = new Promise<void>((resolve) => {
    if (done()) return resolve();
    const timer = setTimeout(resolve, ms);
    wake = () => {
      if (!done()) return;
      clearTimeout(timer);
      resolve();
    };
  });
  return { promise, wake };
}

/** How long the error answers of aborted calls get to reach their clients before connections close. */
const ABORT_FLUSH_MS = 2_000;

/**
 * Serves `registry` over MCP Streamable HTTP at `http://host:port/mcp` and
 * resolves once listening. Every request passes, in order and before its
 * body is read: the Host and Origin checks (403), the bearer token when one
 * is set (401, `WWW-Authenticate: Bearer`), the path (404) and, while
 * stopping, 503. Request bodies over `maxRequestBytes` are refused with 413
 * by the SDK's transport, which stops reading at the bound. `tools/list`
 * and `tools/call` behave as in {@link createMcpToolServer}, which also
 * documents `name`, `version`, `callOptions` and `log`.
 *
 * Session mode (the default) keeps one MCP server per `Mcp-Session-Id`:
 * `notifications/cancelled` reaches the Tool's signal, and `DELETE` ends a
 * session. Stateless mode (`stateless: true`) answers each POST with a fresh
 * server, so any instance behind a load balancer can take any request; a
 * client cancels a call there by closing its request. Rejects with a
 * TypeError for invalid options, with the errors of `createMcpToolServer`,
 * and with the listen error (a port in use, say).
 *
 * @example
 * const server = await serveToolRegistryHttp(new ToolRegistry(tools), {
 *   port: 8080,
 *   token: process.env.MCP_TOKEN,
 * });
 * process.once("SIGTERM", () => server.close());
 */
export async function serveToolRegistryHttp(
  registry: ToolRegistry,
  options: McpHttpOptions = {},
): Promise<McpHttpServer> {
  const settings = checkHttpOptions(options);
  const rules = headerRules(settings.host, settings.allowedHosts, settings.allowedOrigins);
  const authorized =
    settings.token === undefined ? undefined : bearerCheck(checkToken(settings.token));
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  const stopping = new AbortController();
  const sessions = new Map<string, Session>();
  // Set by the first close(); from then on every new request is refused.
  let closing: Promise<void> | undefined;
  let callsInFlight = 0;
  let wakeStop = (): void => {};
  // Every tools/call gets the shutdown signal too; one aborted by it is answered, not dropped.
  const wrap =
    (handler: McpCallHandler): McpCallHandler =>
    async (request, extra) => {
      callsInFlight += 1;
      // One controller per call, unhooked in `finally` (AbortSignal.any would keep every call's
      // signal reachable from the server-wide one for as long as the server runs).
      const controller = new AbortController();
      const abort = (): void =>
        controller.abort(extra.signal.aborted ? extra.signal.reason : stopping.signal.reason);
      extra.signal.addEventListener("abort", abort, { once: true });
      stopping.signal.addEventListener("abort", abort, { once: true });
      if (extra.signal.aborted || stopping.signal.aborted) abort();
      try {
        return await handler(request, { ...extra, signal: controller.signal });
      } catch (thrown) {
        if (stopping.signal.aborted && !extra.signal.aborted) {
          throw new McpError(
            ErrorCode.InternalError,
            `the server stopped before Tool ${JSON.stringify(request.params.name.slice(0, 80))} finished; its call was aborted and its effects are unknown`,
          );
        }
        throw thrown;
      } finally {
        extra.signal.removeEventListener("abort", abort);
        stopping.signal.removeEventListener("abort", abort);
        callsInFlight -= 1;
        wakeStop();
        // A call the client cancelled gets no answer, so the SDK would keep its event stream (and
        // the keep-alive pings on it) open until the client leaves: end it here.
        if (extra.signal.aborted && extra.sessionId !== undefined) {
          sessions.get(extra.sessionId)?.transport.closeSSEStream(extra.requestId);
        }
      }
    };
  const makeServer = prepareMcpToolServer(registry, options, wrap);

  let opening = 0;
  // POSTs whose answers are still being written (a session's GET stream is not one).
  const openPosts = new Set<ServerResponse>();

  const transportOptions = { maxRequestBodySize: settings.maxRequestBytes };

  async function run(
    transport: StreamableHTTPServerTransport,
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> {
    if (request.method === "POST") {
      openPosts.add(response);
      response.once("close", () => {
        openPosts.delete(response);
        wakeStop();
      });
    }
    await transport.handleRequest(request, response);
  }

  async function serveStateless(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== "POST") {
      return refuse(response, 405, "Method not allowed: this server is stateless; POST only", {
        allow: "POST",
      });
    }
    // No session id generator: the SDK's stateless mode.
    const transport = new StreamableHTTPServerTransport(transportOptions);
    const server = makeServer();
    await server.connect(transport);
    // The request's server ends with its connection: a client that goes away aborts its call.
    response.once("close", () => {
      server.close().catch(() => {});
    });
    await run(transport, request, response);
  }

  async function serveSession(request: IncomingMessage, response: ServerResponse) {
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (session === undefined) return refuse(response, 404, "Session not found");
      session.active += 1;
      session.lastSeen = Date.now();
      try {
        await run(session.transport, request, response);
      } finally {
        session.active -= 1;
        session.lastSeen = Date.now();
      }
      return;
    }
    if (request.method !== "POST") {
      return refuse(response, 400, "Bad Request: Mcp-Session-Id header is required");
    }
    if (sessions.size + opening >= settings.maxSessions) {
      return refuse(response, 503, `Too many sessions (at most ${settings.maxSessions})`, {
        "retry-after": "5",
      });
    }
    opening += 1;
    const server = makeServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...transportOptions,
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { server, transport, active: 1, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    try {
      await server.connect(transport);
      await run(transport, request, response);
    } finally {
      opening -= 1;
      const session =
        transport.sessionId === undefined ? undefined : sessions.get(transport.sessionId);
      if (session === undefined) await server.close().catch(() => {});
      else session.active -= 1;
    }
  }

  const endpoint = settings.path;
  async function listener(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refused = refusedHeader(request.headers, rules);
    if (refused !== undefined) return refuse(response, 403, `Forbidden: ${refused}`);
    // Before the body, the path or anything else: nothing is reachable without the token.
    if (authorized !== undefined && !authorized(request.headers.authorization)) {
      return refuse(response, 401, "Unauthorized: a valid bearer token is required", {
        "www-authenticate": 'Bearer realm="toolbound"',
      });
    }
    const path = (request.url ?? "").split("?")[0];
    if (path !== endpoint)
      return refuse(response, 404, `Not found: the MCP endpoint is ${endpoint}`);
    if (closing !== undefined) {
      return refuse(response, 503, "Service unavailable: the server is stopping");
    }
    if (settings.stateless) await serveStateless(request, response);
    else await serveSession(request, response);
  }

  const httpServer = createServer((request, response) => {
    listener(request, response).catch((thrown: unknown) => {
      log(
        `toolbound mcp: HTTP request failed: ${oneLine(String(thrown instanceof Error ? thrown.message : thrown)).slice(0, 500)}`,
      );
      refuse(response, 500, "Internal error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(settings.port, settings.host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });

  // Sessions nobody has used for a while are closed, so abandoned clients do not pile up.
  const sweep = setInterval(
    () => {
      const idleSince = Date.now() - settings.sessionIdleMs;
      for (const session of sessions.values()) {
        if (session.active === 0 && session.lastSeen < idleSince)
          session.server.close().catch(() => {});
      }
    },
    Math.min(60_000, Math.max(1_000, settings.sessionIdleMs / 2)),
  );
  sweep.unref();

  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  async function stop(): Promise<void> {
    clearInterval(sweep);
    const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    httpServer.closeIdleConnections();
    const drained = waitFor(() => callsInFlight === 0, settings.shutdownGraceMs);
    wakeStop = drained.wake;
    await drained.promise;
    stopping.abort(new Error("the server is stopping"));
    const flushed = waitFor(() => openPosts.size === 0, ABORT_FLUSH_MS);
    wakeStop = flushed.wake;
    await flushed.promise;
    await Promise.all(
      [...sessions.values()].map((session) => session.server.close().catch(() => {})),
    );
    httpServer.closeAllConnections();
    await closed;
  }

  return Object.freeze({
    url: `http://${urlHost}:${address.port}${endpoint}`,
    host: address.address,
    port: address.port,
    close: () => {
      closing ??= stop();
      return closing;
    },
  });
}
