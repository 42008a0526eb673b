/**
 * Test support for the MCP HTTP server (not part of the published surface):
 * raw requests through `node:http` (which, unlike fetch, lets a test write
 * any Host header) and official SDK clients over Streamable HTTP.
 */

import { type IncomingHttpHeaders, request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

/** A JSON-RPC message as the server wrote it. */
export interface JsonRpcMessage {
  readonly jsonrpc: "2.0";
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

/** A finished raw response: status, headers, body text and the JSON-RPC messages in it. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly messages: readonly JsonRpcMessage[];
}

/** The JSON-RPC messages of a body: a JSON document, or the `data:` lines of an event stream. */
export function messagesOf(contentType: string | undefined, body: string): JsonRpcMessage[] {
  if (contentType?.startsWith("text/event-stream")) {
    return body
      .split("\n")
      .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
      .map((line) => JSON.parse(line.slice(5)) as JsonRpcMessage);
  }
  if (body.trim() === "") return [];
  const parsed = JSON.parse(body) as JsonRpcMessage | JsonRpcMessage[];
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * Sends one request with `node:http` and collects the whole response.
 * `body` objects are sent as JSON; MCP's Accept and Content-Type headers are
 * set unless `headers` overrides them.
 *
 * @example
 * const response = await rawRequest(url, { body: { jsonrpc: "2.0", id: 1, method: "ping" } });
 */
export function rawRequest(
  url: string,
  options: {
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: unknown;
  } = {},
): Promise<RawResponse> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        // A fresh connection each time: a test sees exactly what a new client would.
        agent: false,
        method: options.method ?? "POST",
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
          ...options.headers,
        },
      },
      (incoming) => {
        let text = "";
        incoming.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        incoming.once("end", () => {
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: text,
            messages: messagesOf(incoming.headers["content-type"], text),
          });
        });
        incoming.once("error", reject);
      },
    );
    outgoing.once("error", reject);
    outgoing.end(body);
  });
}

/**
 * An `initialize` request body, for raw requests: the client declares
 * `capabilities` (default none) and `clientInfo` (default "raw" 1.0.0).
 *
 * @example
 * await rawRequest(url, { body: initializeBody() });
 */
export function initializeBody(
  capabilities: Record<string, unknown> = {},
  clientInfo: { readonly name: string; readonly version: string } = {
    name: "raw",
    version: "1.0.0",
  },
) {
  return {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, clientInfo },
  };
}

/**
 * Opens a session with a raw initialize (`body`, default {@link initializeBody}`()`) and
 * answers its `Mcp-Session-Id`.
 *
 * @example
 * const session = await openRawSession(server.url);
 */
export async function openRawSession(
  url: string,
  body: object = initializeBody(),
): Promise<string> {
  const answer = await rawRequest(url, { body });
  return String(answer.headers["mcp-session-id"]);
}

/** A `tools/call` request body, for raw requests (a stateless server needs no initialize first). */
export function toolCallBody(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/**
 * An official SDK client connected to `url` over Streamable HTTP, with an
 * optional bearer token and fetch.
 *
 * @example
 * const client = await connectHttpClient(server.url);
 * await client.callTool({ name: "add", arguments: { left: 1, right: 2 } });
 */
export async function connectHttpClient(
  url: string,
  options: {
    readonly token?: string;
    readonly fetch?: typeof fetch;
  } = {},
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.token === undefined
      ? {}
      : { requestInit: { headers: { authorization: `Bearer ${options.token}` } } }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const client = new Client({ name: "toolbound-http-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}
