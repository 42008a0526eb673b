/**
 * Progress and log notifications from inside a Tool that an MCP server is
 * running. The course fixes a Tool's execution context at two fields
 * (`signal`, `toolCallId`), so nothing is added to it: the server runs each
 * `tools/call` inside an AsyncLocalStorage scope, and `reportProgress` /
 * `sendLogMessage` find the request they belong to there. Outside an MCP
 * call (the same Tool run by `executeToolCall` directly, by Pi, by the AI
 * SDK) they do nothing and resolve `false`, so a Tool stays portable.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import {
  ErrorCode,
  type LoggingLevel,
  McpError,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { numberIsFinite, ownDataValue } from "../../course/src/internal.ts";
import { cutText } from "./bounded-text.ts";

/**
 * The longest progress or log message sent, in code points; longer ones are cut with a marker.
 *
 * @example
 * MAX_NOTICE_CHARACTERS; // 4096
 */
export const MAX_NOTICE_CHARACTERS = 4096;

/**
 * The longest `progressToken` a `tools/call` may carry, in UTF-16 code units.
 * Every progress notification repeats the token, and the transport queues
 * notifications for a client that does not read them: a 4 MB token grew the
 * server's memory by about 3 MB per update. Tokens are ids (a number, a
 * UUID); a longer one is refused before the Tool runs.
 */
const MAX_PROGRESS_TOKEN_LENGTH = 1024;

/**
 * What a Tool reports with {@link reportProgress}: MCP's `progress`, `total` and `message`.
 *
 * @example
 * const update: McpProgressUpdate = { progress: 3, total: 10, message: "page 3" };
 */
export interface McpProgressUpdate {
  /** Work done so far; must be finite and greater than the last value reported for this call. */
  readonly progress: number;
  /** Work in total, when known; finite and not negative. */
  readonly total?: number | undefined;
  /** A short human-readable note, cut to {@link MAX_NOTICE_CHARACTERS} code points. */
  readonly message?: string | undefined;
}

/** The MCP log levels, least severe first (RFC 5424's, as the protocol names them). */
const LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** One `tools/call` in flight: how to reach its client, and what was already sent. */
interface RequestNotices {
  readonly progressToken: string | number | undefined;
  readonly send: (notification: ServerNotification) => Promise<void>;
  /** The least severe level the client asked for (`logging/setLevel`), if it asked. */
  readonly minimumLevel: () => LoggingLevel | undefined;
  lastProgress: number;
  open: boolean;
}

const current = new AsyncLocalStorage<RequestNotices>();

/**
 * What the server hands over about one request (a subset of the SDK's handler `extra`).
 *
 * @example
 * const channel: NoticeChannel = extra; // the SDK's RequestHandlerExtra fits
 */
export interface NoticeChannel {
  readonly _meta?: { readonly progressToken?: string | number | undefined } | undefined;
  readonly sendNotification: (notification: ServerNotification) => Promise<void>;
}

/**
 * Runs `call` (one `tools/call`) so that {@link reportProgress} and
 * {@link sendLogMessage}, called from the Tool it runs, reach this request's
 * client; once it settles they do nothing. Used by the server for every call.
 *
 * @example
 * server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
 *   withRequestNotices(extra, () => level, () => callRegistryTool(tools, request.params, extra, settings)));
 */
export async function withRequestNotices<T>(
  channel: NoticeChannel,
  minimumLevel: () => LoggingLevel | undefined,
  call: () => Promise<T>,
): Promise<T> {
  // Own fields only: a `progressToken` planted on Object.prototype would otherwise stand in for
  // one the client never sent (and, long, get every call with `_meta` refused).
  const meta: unknown = ownDataValue(channel, "_meta");
  const token =
    typeof meta === "object" && meta !== null ? ownDataValue(meta, "progressToken") : undefined;
  if (typeof token === "string" && token.length > MAX_PROGRESS_TOKEN_LENGTH) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `progressToken is ${token.length} characters long; at most ${MAX_PROGRESS_TOKEN_LENGTH} are accepted`,
    );
  }
  const notices: RequestNotices = {
    progressToken: typeof token === "string" || typeof token === "number" ? token : undefined,
    send: channel.sendNotification,
    minimumLevel,
    lastProgress: Number.NEGATIVE_INFINITY,
    open: true,
  };
  try {
    return await current.run(notices, call);
  } finally {
    // A Tool that kept a callback past its call must not write into a finished request.
    notices.open = false;
  }
}

/**
 * A level's severity (its place in LEVELS), or -1. By index, not the live
 * `indexOf`: a Tool that replaced it would decide which of its messages pass
 * the client's minimum level, and which levels are refused.
 */
function severityOf(level: unknown): number {
  for (let index = 0; index < LEVELS.length; index += 1) {
    if (LEVELS[index] === level) return index;
  }
  return -1;
}

/** The levels, for a refusal's message (written out: no live `join`). */
const LEVEL_LIST = "debug, info, notice, warning, error, critical, alert, emergency";

function finiteNumber(value: unknown, what: string): number {
  // The captured `Number.isFinite`: a replaced one would let NaN or Infinity through.
  if (typeof value !== "number" || !numberIsFinite(value)) {
    throw new TypeError(`${what} must be a finite number`);
  }
  return value;
}

const cutNotice = (text: string): string =>
  cutText(text, MAX_NOTICE_CHARACTERS, (total) => `… [${total} characters, cut]`);

/** Sends, and never rejects: a client that went away is not the Tool's failure. */
async function deliver(
  notices: RequestNotices,
  notification: ServerNotification,
): Promise<boolean> {
  try {
    await notices.send(notification);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reports progress of the MCP `tools/call` whose Tool is running, as a
 * `notifications/progress` to the client, when the client asked for progress
 * (sent a `progressToken`). Resolves `true` when sent; `false` when there is
 * no such call (the Tool runs outside an MCP server), the client did not ask,
 * the call has finished, `progress` is not greater than the last value sent
 * (MCP requires it to increase), or the client is gone. Never rejects. Throws
 * a TypeError at once (synchronously) for a non-finite `progress` or
 * `total`, a negative `total`, or a `message` that is not a string; a longer
 * message is cut to
 * {@link MAX_NOTICE_CHARACTERS} code points. The call is found through the
 * async context the Tool's `execute` runs in (what it awaits, timers and
 * callbacks it sets up); a callback of an object made before the call (a
 * shared connection's events) runs outside it: bind such a callback with
 * `AsyncResource.bind` from `node:async_hooks` inside `execute`.
 *
 * @example
 * execute: async ({ files }, { signal }) => {
 *   for (const [index, file] of files.entries()) {
 *     await convert(file, signal);
 *     await reportProgress({ progress: index + 1, total: files.length, message: file });
 *   }
 * }
 */
export function reportProgress(update: McpProgressUpdate): Promise<boolean> {
  return progressTo(current.getStore(), update);
}

/**
 * Internal to `toolbound/mcp`: a reporter bound to the MCP call running
 * now, for a callback that the SDK or a stream will call later from another
 * async context (where {@link reportProgress} would find no call).
 * Undefined outside an MCP call.
 *
 * @example
 * const relay = progressReporter(); // inside execute
 * remote.on("progress", (update) => relay?.(update));
 */
export function progressReporter(): ((update: McpProgressUpdate) => Promise<boolean>) | undefined {
  const notices = current.getStore();
  return notices === undefined ? undefined : (update) => progressTo(notices, update);
}

/** What a notice that is not sent resolves to (one settled promise, shared). */
const NOT_SENT: Promise<boolean> = Promise.resolve(false);

/**
 * Checks `update` at once (a TypeError is thrown synchronously, so that a
 * malformed update is never an unhandled rejection of a call nobody awaits),
 * then sends it.
 */
function progressTo(
  notices: RequestNotices | undefined,
  update: McpProgressUpdate,
): Promise<boolean> {
  if (typeof update !== "object" || update === null) {
    throw new TypeError("reportProgress needs { progress, total?, message? }");
  }
  const progress = finiteNumber(update.progress, "progress");
  const total = update.total === undefined ? undefined : finiteNumber(update.total, "total");
  if (total !== undefined && total < 0) throw new TypeError("total must not be negative");
  const message = update.message;
  if (message !== undefined && typeof message !== "string") {
    throw new TypeError("message must be a string");
  }
  if (notices === undefined || !notices.open || notices.progressToken === undefined) {
    return NOT_SENT;
  }
  if (!(progress > notices.lastProgress)) return NOT_SENT;
  notices.lastProgress = progress;
  return deliver(notices, {
    method: "notifications/progress",
    params: {
      progressToken: notices.progressToken,
      progress,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message: cutNotice(message) }),
    },
  });
}

/**
 * Sends a log line about the MCP `tools/call` whose Tool is running, as a
 * `notifications/message` (logger `"toolbound"`) on that call's stream,
 * unless the client asked (`logging/setLevel`) only for more severe levels.
 * Resolves `true` when sent; `false` outside an MCP call, after the call has
 * finished, below the client's level, or when the client is gone. Never
 * rejects. Throws a TypeError at once for an unknown level or a non-string
 * message; a
 * longer message is cut to {@link MAX_NOTICE_CHARACTERS} code points. The
 * call is found as {@link reportProgress} finds it.
 *
 * @example
 * await sendLogMessage("info", `fetched ${url}`);
 */
export function sendLogMessage(level: LoggingLevel, message: string): Promise<boolean> {
  // Checked at once, as reportProgress checks its update (see progressTo).
  const severity = severityOf(level);
  if (severity < 0) throw new TypeError(`level must be one of ${LEVEL_LIST}`);
  if (typeof message !== "string") throw new TypeError("message must be a string");
  return logTo(level, severity, message);
}

async function logTo(level: LoggingLevel, severity: number, message: string): Promise<boolean> {
  const notices = current.getStore();
  if (notices === undefined || !notices.open) return false;
  const minimum = notices.minimumLevel();
  if (minimum !== undefined && severity < severityOf(minimum)) return false;
  return deliver(notices, {
    method: "notifications/message",
    params: { level, logger: "toolbound", data: cutNotice(message) },
  });
}
