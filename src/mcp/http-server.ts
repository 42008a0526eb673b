/**
 * Serving a ToolRegistry over MCP's Streamable HTTP transport (the SDK's own
 * `StreamableHTTPServerTransport`) on a plain `node:http` server: the same
 * request handling as the stdio server, behind Host/Origin checks and an
 * optional bearer token, in session or stateless mode, with a graceful stop.
 */

import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  ErrorCode,
  type JSONRPCMessage,
  McpError,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "../../course/src/index.ts";
import {
  addEventListener,
  addSlot,
  apply,
  controllerAbort,
  controllerSignal,
  freeze,
  mapGet,
  mapIteratorNext,
  mapSet,
  mapSize,
  mapValues,
  mathMax,
  mathMin,
  NativeAbortController,
  NativeError,
  NativePromise,
  ownDataValue,
  promiseThen,
  removeEventListener,
  setAdd,
  setDelete,
  setSize,
  signalAborted,
  signalReason,
  stringCharCodeAt,
  stringSlice,
} from "../../course/src/internal.ts";
import { oneLine } from "./bounded-text.ts";
import { trimClientDeclarations } from "./client-declarations.ts";
import { bearerCheck, checkToken, headerRules, refusedHeader } from "./http-guards.ts";
import { checkHttpOptions, type McpHttpOptions } from "./http-options.ts";
import {
  closeAll,
  closeIdle,
  closeServer,
  dateNow,
  ignore,
  mapDelete,
  NativeString,
  nativeClearInterval,
  nativeRandomUUID,
  nativeSetInterval,
  nativeStringify,
  ONCE,
  onClose,
  refuse,
  settled,
  waitFor,
} from "./http-plumbing.ts";
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

/** The answer that releases a cancelled call's request (see `wrap`): never delivered. */
function cancelledAnswer(id: RequestId): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: -32000, message: "Request cancelled" } };
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

  const stopping = new NativeAbortController();
  const stopSignal = controllerSignal(stopping);
  // One listener per call in flight: more than ten is ordinary, not a leak to warn about.
  setMaxListeners(0, stopSignal);
  const sessions = new Map<string, Session>();
  // Set by the first close(); from then on every new request is refused.
  let closing: Promise<void> | undefined;
  let callsInFlight = 0;
  let wakeStop = (): void => {};
  // Every tools/call gets the shutdown signal too; one aborted by it is answered, not dropped.
  // The signals are read and hooked through the captured getters and methods: a replaced
  // `aborted`, `abort` or `addEventListener` would keep a cancellation or the stop from the call.
  const wrap =
    (handler: McpCallHandler): McpCallHandler =>
    async (request, extra) => {
      const own = extra.signal;
      // One controller per call, unhooked in `finally` (AbortSignal.any would keep every call's
      // signal reachable from the server-wide one for as long as the server runs).
      const controller = new NativeAbortController();
      const abort = (): void =>
        controllerAbort(controller, signalReason(signalAborted(own) ? own : stopSignal));
      addEventListener(own, "abort", abort, ONCE);
      addEventListener(stopSignal, "abort", abort, ONCE);
      callsInFlight += 1;
      if (signalAborted(own) || signalAborted(stopSignal)) abort();
      try {
        return await handler(request, { ...extra, signal: controllerSignal(controller) });
      } catch (thrown) {
        if (signalAborted(stopSignal) && !signalAborted(own)) {
          const name = nativeStringify(stringSlice(request.params.name, 0, 80));
          throw new McpError(
            ErrorCode.InternalError,
            `the server stopped before Tool ${name} finished; its call was aborted and its effects are unknown`,
          );
        }
        throw thrown;
      } finally {
        removeEventListener(own, "abort", abort);
        removeEventListener(stopSignal, "abort", abort);
        callsInFlight -= 1;
        wakeStop();
        // A call the client cancelled gets no answer, so the SDK would keep its event stream (and
        // the keep-alive pings on it) open until the client leaves: end it here.
        if (signalAborted(own) && extra.sessionId !== undefined) {
          const transport = mapGet(sessions, extra.sessionId)?.transport;
          if (transport !== undefined) {
            transport.closeSSEStream(extra.requestId);
            // The SDK forgets a request only once it is answered, so every cancelled call's
            // id (of any length) stayed for the session's life. An answer sent after its stream
            // is gone reaches no one (the client cancelled; it expects none) and releases it.
            settled(transport.send(cancelledAnswer(extra.requestId)));
          }
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
      setAdd(openPosts, response);
      onClose(response, () => {
        setDelete(openPosts, response);
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
    onClose(response, () => settled(server.close()));
    await run(transport, request, response);
  }

  async function serveSession(request: IncomingMessage, response: ServerResponse) {
    // Own headers only (see `listener`).
    const id = ownDataValue(request.headers, "mcp-session-id");
    if (typeof id === "string") {
      const session = mapGet(sessions, id);
      if (session === undefined) return refuse(response, 404, "Session not found");
      session.active += 1;
      session.lastSeen = dateNow();
      try {
        await run(session.transport, request, response);
      } finally {
        session.active -= 1;
        session.lastSeen = dateNow();
      }
      return;
    }
    if (request.method !== "POST") {
      return refuse(response, 400, "Bad Request: Mcp-Session-Id header is required");
    }
    if (mapSize(sessions) + opening >= settings.maxSessions) {
      return refuse(response, 503, `Too many sessions (at most ${settings.maxSessions})`, {
        "retry-after": "5",
      });
    }
    opening += 1;
    const server = makeServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...transportOptions,
      sessionIdGenerator: nativeRandomUUID,
      onsessioninitialized: (sessionId) => {
        mapSet(sessions, sessionId, { server, transport, active: 1, lastSeen: dateNow() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) apply(mapDelete, sessions, [transport.sessionId]);
    };
    try {
      await server.connect(transport);
      await run(transport, request, response);
    } finally {
      opening -= 1;
      const session =
        transport.sessionId === undefined ? undefined : mapGet(sessions, transport.sessionId);
      if (session === undefined) await settled(server.close());
      else {
        session.active -= 1;
        // The session is open: what its client declared is cut to what we use before it is kept.
        trimClientDeclarations(server);
      }
    }
  }

  const endpoint = settings.path;
  async function listener(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // `headers` is node's non-configurable getter, but the object it answers inherits from
    // Object.prototype: only own headers count, so a planted `authorization` never stands in.
    const headers = request.headers;
    const refused = refusedHeader(headers, rules);
    if (refused !== undefined) return refuse(response, 403, `Forbidden: ${refused}`);
    const authorization = ownDataValue(headers, "authorization") as string | undefined;
    // Before the body, the path or anything else: nothing is reachable without the token.
    if (authorized !== undefined && !authorized(authorization)) {
      return refuse(response, 401, "Unauthorized: a valid bearer token is required", {
        "www-authenticate": 'Bearer realm="toolbound"',
      });
    }
    // The path is what comes before the first "?", found by code unit: no live `split`.
    const target = request.url ?? "";
    let end = 0;
    while (end < target.length && stringCharCodeAt(target, end) !== 0x3f) end += 1;
    const path = stringSlice(target, 0, end);
    if (path !== endpoint)
      return refuse(response, 404, `Not found: the MCP endpoint is ${endpoint}`);
    if (closing !== undefined) {
      return refuse(response, 503, "Service unavailable: the server is stopping");
    }
    if (settings.stateless) await serveStateless(request, response);
    else await serveSession(request, response);
  }

  const httpServer = createServer((request, response) => {
    promiseThen(listener(request, response), ignore, (thrown: unknown) => {
      const text = NativeString(thrown instanceof Error ? thrown.message : thrown);
      log(`toolbound mcp: HTTP request failed: ${stringSlice(oneLine(text), 0, 500)}`);
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
  // The Map's captured `values` and iterator `next`: no live iterator decides what is swept.
  const sweep = nativeSetInterval(
    () => {
      const idleSince = dateNow() - settings.sessionIdleMs;
      const each = mapValues(sessions);
      for (let step = mapIteratorNext(each); step.done !== true; step = mapIteratorNext(each)) {
        const session = step.value;
        if (session.active === 0 && session.lastSeen < idleSince) settled(session.server.close());
      }
    },
    mathMin(60_000, mathMax(1_000, settings.sessionIdleMs / 2)),
  );
  sweep.unref();

  const address = httpServer.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  async function stop(): Promise<void> {
    nativeClearInterval(sweep);
    const closed = new NativePromise<void>((resolve) => {
      apply(closeServer, httpServer, [() => resolve()]);
    });
    apply(closeIdle, httpServer, []);
    const drained = waitFor(() => callsInFlight === 0, settings.shutdownGraceMs);
    wakeStop = drained.wake;
    await drained.promise;
    controllerAbort(stopping, new NativeError("the server is stopping"));
    const flushed = waitFor(() => setSize(openPosts) === 0, ABORT_FLUSH_MS);
    wakeStop = flushed.wake;
    await flushed.promise;
    // All started, then awaited by index (no live Promise.all, iterator or `map`). A session's
    // close deletes it from the Map, which its iterator allows.
    const closes: Promise<void>[] = [];
    const each = mapValues(sessions);
    for (let step = mapIteratorNext(each); step.done !== true; step = mapIteratorNext(each)) {
      addSlot(closes, closes.length, settled(step.value.server.close()));
    }
    for (let index = 0; index < closes.length; index += 1) await closes[index];
    apply(closeAll, httpServer, []);
    await closed;
  }

  return freeze({
    url: `http://${urlHost}:${address.port}${endpoint}`,
    host: address.address,
    port: address.port,
    close: () => {
      closing ??= stop();
      return closing;
    },
  });
}
