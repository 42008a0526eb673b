/**
 * The plumbing of the MCP HTTP server, captured when the module loads: what
 * it calls on node's objects and the built-ins it uses per request, during the
 * idle sweep and while stopping, a JSON-RPC refusal and a bounded wait.
 */

import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { Server as HttpServer, OutgoingMessage, ServerResponse } from "node:http";
import {
  apply,
  freeze,
  getOwnPropertyDescriptor,
  NativePromise,
  promiseThen,
  reflectGet,
  startTimer,
  stopTimer,
} from "../../course/src/internal.ts";

// Per request, sweep and stop, built-ins captured at load: served Tools may replace the live
// ones (`Map.prototype.get` giving another client's session, `Date.now` keeping idle sessions,
// `setTimeout` lifting the grace). A built-in module's named import is a live binding
// `module.syncBuiltinESMExports()` refreshes (a replaced `randomUUID`): copied too.
/** `crypto.randomUUID` as it was at load. */
export const nativeRandomUUID = randomUUID;
/** `JSON.stringify` as it was at load. */
export const nativeStringify = JSON.stringify;
/** `String` as it was at load. */
export const NativeString = String;
/** `Date.now` as it was at load. */
export const dateNow = Date.now;
/** `Map.prototype.delete` as it was at load (call it with `apply`). */
export const mapDelete = Map.prototype.delete;
/** `setInterval` as it was at load (the idle sweep). */
export const nativeSetInterval = setInterval;
/** `clearInterval` as it was at load (the stop). */
export const nativeClearInterval = clearInterval;
// What we call on node's objects, as at load: replaced on the shared prototypes, it could
// answer a refusal with something else, or keep a stopped server's sockets open.
/** A method taken from a prototype, called with `apply`. */
export type Method = (...args: never[]) => unknown;
const headersSent = getOwnPropertyDescriptor(OutgoingMessage.prototype, "headersSent")?.get;
const writeHead = reflectGet(ServerResponse.prototype, "writeHead") as Method;
const endResponse = reflectGet(ServerResponse.prototype, "end") as Method;
const destroyResponse = reflectGet(ServerResponse.prototype, "destroy") as Method;
const addListener = reflectGet(EventEmitter.prototype, "on") as Method;
/** `http.Server`'s `close` as at load (call it with `apply`). */
export const closeServer = reflectGet(HttpServer.prototype, "close") as Method;
/** `http.Server`'s `closeIdleConnections` as at load (call it with `apply`). */
export const closeIdle = reflectGet(HttpServer.prototype, "closeIdleConnections") as Method;
/** `http.Server`'s `closeAllConnections` as at load (call it with `apply`). */
export const closeAll = reflectGet(HttpServer.prototype, "closeAllConnections") as Method;

/**
 * Null-prototype `{ once: true }`: `addEventListener` reads no option planted on Object.prototype.
 *
 * @example
 * addEventListener(signal, "abort", abort, ONCE);
 */
export const ONCE = freeze({ __proto__: null, once: true } as AddEventListenerOptions);

/**
 * Runs `listener` when `response` closes, by the captured `on` (`close` is emitted once).
 *
 * @example
 * onClose(response, () => settled(server.close()));
 */
export const onClose = (response: ServerResponse, listener: () => void): unknown =>
  apply(addListener, response, ["close", listener]);

/**
 * Does nothing: the handler of a settlement that needs none.
 *
 * @example
 * promiseThen(listener(request, response), ignore, report);
 */
export const ignore = (): void => {};
/**
 * `promise` with its rejection dropped, by the captured `then` (no live `catch`).
 *
 * @example
 * await settled(server.close());
 */
export const settled = (promise: Promise<unknown>): Promise<void> =>
  promiseThen(promise, ignore, ignore);

/**
 * Answers `response` with a JSON-RPC error body, as the SDK's transport writes
 * its own refusals, and closes the connection (the body is never read); a
 * response whose headers went out already is destroyed instead.
 *
 * @example
 * refuse(response, 404, "Session not found");
 */
export function refuse(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (apply(headersSent as Method, response, [])) {
    apply(destroyResponse, response, []);
    return;
  }
  // The request's body is never read after a refusal: close the connection instead of draining it.
  // Null prototypes: node reads no header, and the captured stringify no `toJSON`, planted there.
  apply(writeHead, response, [
    status,
    { __proto__: null, "content-type": "application/json", connection: "close", ...headers },
  ]);
  const error = { __proto__: null, code: -32000, message };
  const body = nativeStringify({ __proto__: null, jsonrpc: "2.0", error, id: null });
  apply(endResponse, response, [body]);
}

/**
 * Resolves when `done()` holds or after `ms`, whichever is first; `wake`
 * re-checks.
 *
 * @example
 * const drained = waitFor(() => callsInFlight === 0, 10_000);
 */
export function waitFor(
  done: () => boolean,
  ms: number,
): { promise: Promise<void>; wake: () => void } {
  let wake = (): void => {};
  // The captured Promise and timers: a replaced `setTimeout` would lift the grace period.
  const promise = new NativePromise<void>((resolve) => {
    if (done()) return resolve();
    const timer = startTimer(resolve, ms);
    wake = () => {
      if (!done()) return;
      stopTimer(timer);
      resolve();
    };
  });
  return { promise, wake };
}
