/**
 * Another MCP server's Tools behind our boundary: `fromMcpClient` turns a
 * connected SDK `Client` into Tool definitions for a `ToolRegistry`. Names
 * are checked, descriptions bounded, arguments validated locally before any
 * request, results bounded by the registry's output budgets like any Tool's,
 * and every way a request can fail becomes the Tool's failure.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ListToolsResultSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  type AnyCourseTool,
  type CourseJsonObject,
  defineTool,
  ToolContractError,
} from "../../course/src/index.ts";
import {
  isAbortSignal,
  NativeError,
  numberIsFinite,
  ownDataValue,
  signalAborted,
  signalReason,
} from "../../course/src/internal.ts";
import { compileArgumentCheck, compileOutputCheck, loadAjv } from "./json-schema-check.ts";
import { linearTimePatterns } from "./linear-patterns.ts";
import {
  type ClientSettings,
  clientSettings,
  describeTool,
  type FromMcpClientOptions,
  quoteName,
  toolName,
} from "./mcp-client-options.ts";
import { errorResultMessage, requestFailure, resultOutput } from "./mcp-client-results.ts";
import { CompileAccount, MAX_LISTING_COMPILE_COST } from "./pattern-budgets.ts";
import { progressReporter } from "./request-notices.ts";

/**
 * What {@link fromMcpClient} resolves with: the Tools, and a way to list
 * them again.
 *
 * @example
 * const github = await fromMcpClient(client, { prefix: "github_" });
 * const registry = new ToolRegistry([...myTools, ...github.tools]);
 */
export interface McpClientTools {
  /** The server's Tools as our definitions (the last listing that succeeded). */
  readonly tools: readonly AnyCourseTool[];
  /**
   * Lists the server's Tools again, with the same options and checks, and
   * resolves with the new definitions (also `tools` from then on). One
   * listing runs at a time: refreshes asked for while one runs share the
   * next listing, started when it ends, so every answer is a listing started
   * after it was asked for. A failed listing rejects its own callers and
   * leaves `tools` as it was. A registry made earlier is unchanged: make a
   * new one with them.
   *
   * @example
   * const tools = await remote.refresh();
   */
  refresh(): Promise<readonly AnyCourseTool[]>;
}

type ListedTool = Awaited<ReturnType<Client["listTools"]>>["tools"][number];

/** A Tool's checks: of the model's arguments, and of the server's structured content when it declares an output schema. */
interface ToolChecks {
  readonly input: (input: unknown) => string | undefined;
  readonly output: ((content: unknown) => string | undefined) | undefined;
}

/** Whether `value` has the methods of an SDK Client (a copy of the SDK other than ours fits too). */
function isClient(value: unknown): value is Client {
  if (typeof value !== "object" || value === null) return false;
  // What is used of it: requests (lists and calls go through `request`) and notifications.
  const { request, setNotificationHandler } = value as Record<string, unknown>;
  return typeof request === "function" && typeof setNotificationHandler === "function";
}

function invalid(message: string): never {
  throw new ToolContractError("INVALID_TOOL_DEFINITION", `fromMcpClient: ${message}`);
}

/** Every page of `tools/list`, stopping (and refusing) past `maxTools` of the Tools taken. */
async function listTools(client: Client, settings: ClientSettings): Promise<ListedTool[]> {
  const taken: ListedTool[] = [];
  let cursor: string | undefined;
  // One page per Tool at most: a server that hands out cursors forever is stopped.
  for (let page = 0; page <= settings.maxTools; page += 1) {
    let listed: Awaited<ReturnType<Client["listTools"]>>;
    try {
      // Through `request`, not `listTools`: the SDK's `listTools` compiles every output schema
      // with the client's own Ajv, in one run and with no budget; ours are compiled below.
      listed = await client.request(
        { method: "tools/list", ...(cursor === undefined ? {} : { params: { cursor } }) },
        ListToolsResultSchema,
        { timeout: settings.timeoutMs },
      );
    } catch (thrown) {
      throw new Error(
        `fromMcpClient: tools/list failed: ${requestFailure(thrown, settings.timeoutMs)}`,
        {
          cause: thrown,
        },
      );
    }
    for (const tool of listed.tools) {
      if (!settings.taken(tool.name)) continue;
      // A Tool that must run as a task cannot be answered by one tools/call.
      if (tool.execution?.taskSupport === "required") continue;
      taken.push(tool);
      if (taken.length > settings.maxTools) {
        invalid(
          `the server lists more than ${settings.maxTools} Tools (maxTools); narrow them with include or exclude`,
        );
      }
    }
    cursor = listed.nextCursor;
    if (cursor === undefined) return taken;
  }
  return invalid(`the server's tools/list did not end within ${settings.maxTools + 1} pages`);
}

type RemoteProgress = {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
};

/**
 * What to do with the server's progress notifications: relay them to our
 * own MCP caller, when this call is one. Taken inside the call, since the
 * SDK calls back later from its transport's async context.
 */
function progressRelay(): (update: RemoteProgress) => void {
  const report = progressReporter();
  return (update) => {
    // Own fields, by the captured isFinite: the SDK calls this after Tools ran in this process,
    // and a `total` or `message` planted on Object.prototype must not stand in for an absent one.
    const progress = ownDataValue(update, "progress") as number;
    const total = ownDataValue(update, "total") as number | undefined;
    const message = ownDataValue(update, "message");
    // Numbers the server sends are not trusted: only finite ones are passed on.
    if (
      !numberIsFinite(progress) ||
      (total !== undefined && !(numberIsFinite(total) && total >= 0))
    ) {
      return;
    }
    // Both fields own, undefined when absent: the reporter reads them, and an inherited one
    // would answer in their place.
    void report?.({ progress, total, message: typeof message === "string" ? message : undefined });
  };
}

/** One of the server's Tools as a definition of ours. */
function defineMcpTool(
  client: Client,
  tool: ListedTool,
  name: string,
  checks: ToolChecks,
  settings: ClientSettings,
  serverName: string,
): AnyCourseTool {
  const remoteName = tool.name;
  return defineTool<Record<string, unknown>, unknown>({
    name,
    description: describeTool(tool, serverName, settings.maxDescriptionCharacters),
    parameters: tool.inputSchema as CourseJsonObject,
    format: settings.format,
    validate: (input) => {
      const error = checks.input(input);
      return error === undefined
        ? { ok: true, value: input as Record<string, unknown> }
        : { ok: false, error };
    },
    execute: async (args, { signal }) => {
      let result: CallToolResult;
      try {
        // Through `request`, not `callTool`: the SDK's `callTool` checks structured content
        // with the client's own validator, which no budget bounds; ours is checked below.
        result = (await client.request(
          { method: "tools/call", params: { name: remoteName, arguments: args } },
          CallToolResultSchema,
          {
            signal,
            timeout: settings.timeoutMs,
            resetTimeoutOnProgress: true,
            onprogress: progressRelay(),
          },
        )) as CallToolResult;
      } catch (thrown) {
        // Cancelled by the run: the boundary answers with the run's reason, not a failure. Read
        // through the intrinsic getters: a getter planted on AbortSignal.prototype could turn a
        // failure into a forged cancellation, or a cancellation into a failure.
        if (isAbortSignal(signal) && signalAborted(signal)) throw signalReason(signal);
        throw new NativeError(requestFailure(thrown, settings.timeoutMs));
      }
      // Own fields only (the SDK parsed the result): an `isError` or `structuredContent`
      // planted on Object.prototype must not fail a good result or fill a missing one.
      if (ownDataValue(result, "isError") === true) {
        throw new NativeError(errorResultMessage(result));
      }
      if (checks.output !== undefined) {
        // A Tool that declares an output schema answers with structured content that fits it.
        const structured = ownDataValue(result, "structuredContent");
        if (structured === undefined) {
          throw new NativeError(
            "the server returned no structured content, though the Tool declares an output schema",
          );
        }
        const mismatch = checks.output(structured);
        if (mismatch !== undefined) throw new NativeError(mismatch);
      }
      return resultOutput(result);
    },
  });
}

/** All the server's Tools (those taken), checked, as definitions. */
async function defineAll(client: Client, settings: ClientSettings): Promise<AnyCourseTool[]> {
  const [listed, ajv, regExp] = await Promise.all([
    listTools(client, settings),
    loadAjv(),
    settings.patterns === "native" ? undefined : linearTimePatterns(),
  ]);
  const serverName = client.getServerVersion()?.name ?? "unnamed";
  // The checks that cost nothing first, over the whole listing: a bad name on the last Tool is
  // refused before any schema is compiled.
  const seen = new Set<string>();
  const named = listed.map((tool) => {
    const name = toolName(settings.prefix, tool.name);
    if (name === undefined) {
      return invalid(
        `Tool ${quoteName(tool.name)}${settings.prefix === "" ? "" : ` with prefix ${quoteName(settings.prefix)}`} breaks MCP's name rule (1 to 128 letters, digits, _, - or .); exclude it`,
      );
    }
    if (seen.has(name)) return invalid(`the server lists two Tools named ${quoteName(name)}`);
    seen.add(name);
    for (const [field, schema] of [
      ["inputSchema", tool.inputSchema],
      ["outputSchema", tool.outputSchema],
    ] as const) {
      const schemaText = schema === undefined ? "" : JSON.stringify(schema);
      if (schemaText.length > settings.maxSchemaCharacters) {
        return invalid(
          `Tool ${quoteName(tool.name)}: its ${field} has ${schemaText.length} characters, over maxSchemaCharacters (${settings.maxSchemaCharacters})`,
        );
      }
    }
    return { tool, name };
  });
  // All the listing's schemas together: a server may list a thousand Tools.
  const listing = new CompileAccount(
    MAX_LISTING_COMPILE_COST,
    "the server's schemas, all Tools together,",
  );
  const definitions: AnyCourseTool[] = [];
  for (const { tool, name } of named) {
    // Between Tools, whatever else is waiting runs: a listing's schemas compile one at a time.
    if (definitions.length > 0) await new Promise((resolve) => setImmediate(resolve));
    const input = compileArgumentCheck(ajv, tool.inputSchema, regExp, listing);
    if (!input.ok) {
      return invalid(
        `Tool ${quoteName(tool.name)}: its inputSchema cannot be checked: ${input.reason}`,
      );
    }
    const output =
      tool.outputSchema === undefined
        ? undefined
        : compileOutputCheck(ajv, tool.outputSchema, regExp, listing);
    if (output !== undefined && !output.ok) {
      return invalid(
        `Tool ${quoteName(tool.name)}: its outputSchema cannot be checked: ${output.reason}`,
      );
    }
    const checks = { input: input.check, output: output?.check };
    definitions.push(defineMcpTool(client, tool, name, checks, settings, serverName));
  }
  return definitions;
}

/**
 * Turns a connected MCP SDK `Client` into definitions of the server's Tools,
 * ready for a `ToolRegistry`. Each definition:
 *
 * - is named `prefix + name` (the name checked against MCP's rule; two Tools
 *   of one name are refused) and described by the server's description (or
 *   title), cut to `maxDescriptionCharacters` with a marker;
 * - keeps the server's `inputSchema` as `parameters`, and validates the
 *   model's arguments against it with Ajv (the schema's own dialect, 2020-12
 *   when it names none) before any request: invalid arguments are a
 *   `TOOL_ARGUMENTS_INVALID` result with one bounded line about the first
 *   error, and nothing is sent. The schema's patterns run on RE2JS, a
 *   linear-time engine, with ECMAScript's meaning and within budgets (see
 *   pattern-budgets.ts): arguments whose check would pass them are answered
 *   `TOOL_ARGUMENTS_INVALID` ("arguments take too long to check…"), unless
 *   `patterns: "native"`;
 * - calls `tools/call` with the run's signal (cancelling sends
 *   `notifications/cancelled`) and `timeoutMs`, asking for progress: a call
 *   that keeps reporting progress is not timed out, and the progress is
 *   relayed when our own MCP caller asked for it (`reportProgress`);
 * - returns the result's content: text items as they are, embedded text
 *   resources with a line naming them, resource links as one line each;
 *   images, audio and binary resources as parts (`toolContent`), each checked
 *   by the boundary (MIME type, signature, part budgets) or replaced by a
 *   line saying why; with no content but `structuredContent`, that object.
 *   The registry's output budgets and spill hook bound it like any Tool's
 *   output, and the definitions' `format` is `"text"` unless `format` says
 *   otherwise;
 * - checks the result's `structuredContent` against the Tool's
 *   `outputSchema`, when it declares one, within the same budgets (the
 *   client's own validator is never used: lists and calls go through its
 *   `request`);
 * - fails (`TOOL_EXECUTION_FAILED`, message at most 1,000 code points) on an
 *   `isError` result (with the server's text, its lines kept), structured content missing or
 *   not matching a declared output schema, a timeout, a closed connection or
 *   crashed server, an error response and a malformed result.
 *
 * Tools that must run as tasks (`execution.taskSupport: "required"`) are
 * left out. Rejects with a TypeError for a value that is not a client or an
 * invalid option; ToolContractError INVALID_TOOL_DEFINITION for a name, a
 * duplicate, an input or output schema over `maxSchemaCharacters` or one Ajv
 * cannot compile (a pattern the linear-time engine cannot run or bound, a
 * schema or a listing that costs too much to compile, re2js missing for a
 * schema with a pattern: exclude such a Tool), or more than `maxTools` Tools;
 * an Error when `tools/list` fails or ajv is not installed.
 *
 * @example
 * const client = new Client({ name: "my-agent", version: "1.0.0" });
 * await client.connect(new StdioClientTransport({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] }));
 * const everything = await fromMcpClient(client, { prefix: "everything_" });
 * const registry = new ToolRegistry(everything.tools, { outputBudget: { maxCharacters: 50_000 } });
 */
export async function fromMcpClient(
  client: Client,
  options: FromMcpClientOptions = {},
): Promise<McpClientTools> {
  if (!isClient(client)) {
    throw new TypeError("fromMcpClient needs a connected Client of @modelcontextprotocol/sdk");
  }
  const settings = clientSettings(options);
  let tools: readonly AnyCourseTool[] = Object.freeze(await defineAll(client, settings));
  const { onToolsChanged } = settings;
  if (onToolsChanged !== undefined) {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      // The host's callback; its failure must not become an unhandled rejection in the SDK.
      try {
        onToolsChanged();
      } catch {
        // Nothing to report it to: the host's own handler failed.
      }
    });
  }
  // A server may announce changes in a loop, and a host may refresh on each announcement: at
  // most one listing compiles at a time, and refreshes asked for while it runs share one more
  // listing, started when it ends (so each answer is a listing started after it was asked for).
  let running: Promise<readonly AnyCourseTool[]> | undefined;
  let queued: Promise<readonly AnyCourseTool[]> | undefined;
  const list = (): Promise<readonly AnyCourseTool[]> => {
    const listing = defineAll(client, settings).then((definitions) => {
      tools = Object.freeze(definitions);
      return tools;
    });
    running = listing;
    const done = (): void => {
      if (running === listing) running = undefined;
    };
    listing.then(done, done);
    return listing;
  };
  const ignore = (): void => {};
  return Object.freeze({
    get tools() {
      return tools;
    },
    refresh: () => {
      if (queued !== undefined) return queued;
      const before = running;
      if (before === undefined) return list();
      // The running listing's failure is its own callers'; the queued one runs whatever it answered.
      const next = before.then(ignore, ignore).then(() => {
        queued = undefined;
        return list();
      });
      queued = next;
      return next;
    },
  });
}
