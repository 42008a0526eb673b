/**
 * The options of `fromMcpClient` and the rules it applies to what another
 * MCP server lists: which Tools are taken, the names they get, and how long
 * a description or a schema may be.
 */

import type { OutputFormat } from "../../course/src/index.ts";
import { cutText } from "./bounded-text.ts";

/**
 * Names to take or leave: a list of the server's Tool names, or a predicate on them.
 *
 * @example
 * const readOnly: McpToolFilter = (name) => name.startsWith("read_") || name.startsWith("list_");
 */
export type McpToolFilter = readonly string[] | ((name: string) => boolean);

/**
 * Options of `fromMcpClient`. Every limit has a default.
 *
 * - `prefix`: put before every Tool name (`"github_"` makes `create_issue`
 *   `github_create_issue`), so several servers' Tools can share a registry.
 *   Letters, digits, `_`, `-` and `.`, at most 64. Default none.
 * - `include` / `exclude`: which of the server's Tools to take, by the
 *   server's own names (before the prefix): a list or a predicate. Default
 *   all of them.
 * - `maxDescriptionCharacters`: a longer description is cut, ending with a
 *   marker that says how long it was. 100 to 100,000; default 4,096.
 * - `maxSchemaCharacters`: a Tool whose `inputSchema` or `outputSchema`, written as JSON, is
 *   longer is refused. 1,000 to 10,000,000; default 200,000.
 * - `maxTools`: more Tools than this (after the filters) are refused, and
 *   listing stops after one page more than that (a page per Tool, and the
 *   page that ends the list). 1 to 10,000; default 1,000.
 * - `timeoutMs`: how long one `tools/call` may wait without an answer or a
 *   progress notification. 1 to 86,400,000; default 60,000 (the SDK's).
 * - `format`: the definitions' output format. Default `"text"`: the
 *   server's text reaches the model as its own text, not as a JSON string
 *   (a call's own `format` still wins; the definition's wins over the
 *   registry's).
 * - `onToolsChanged`: called when the server announces
 *   `notifications/tools/list_changed` (it replaces any handler the client
 *   had for it); call `refresh()` then. Default none.
 * - `patterns`: what runs the schemas' `pattern` and `patternProperties`
 *   against the model's arguments. Default `"linear-time"`: RE2JS (an
 *   optional peer), with ECMAScript's meaning and within budgets (see
 *   pattern-budgets.ts), lookaheads right after a leading `^` as patterns
 *   of their own; a pattern it cannot run (other lookaround,
 *   backreferences, inline modifiers, a repeat count over 1,000) or bound
 *   refuses its Tool, and so does any pattern when re2js is not installed.
 *   `"native"`: the platform's backtracking RegExp, for a server you trust,
 *   on which one hostile pattern can keep the event loop busy for minutes.
 *
 * @example
 * await fromMcpClient(client, { prefix: "fs_", exclude: ["write_file"], timeoutMs: 30_000 });
 */
export interface FromMcpClientOptions {
  readonly prefix?: string;
  readonly include?: McpToolFilter;
  readonly exclude?: McpToolFilter;
  readonly maxDescriptionCharacters?: number;
  readonly maxSchemaCharacters?: number;
  readonly maxTools?: number;
  readonly timeoutMs?: number;
  readonly format?: OutputFormat;
  readonly onToolsChanged?: () => void;
  readonly patterns?: "linear-time" | "native";
}

/**
 * The options, checked, with defaults filled in.
 *
 * @example
 * const settings: ClientSettings = clientSettings({ prefix: "fs_" });
 */
export interface ClientSettings {
  readonly prefix: string;
  readonly taken: (name: string) => boolean;
  readonly maxDescriptionCharacters: number;
  readonly maxSchemaCharacters: number;
  readonly maxTools: number;
  readonly timeoutMs: number;
  readonly format: OutputFormat;
  readonly onToolsChanged: (() => void) | undefined;
  readonly patterns: "linear-time" | "native";
}

function wholeNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new TypeError(`fromMcpClient: ${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function filterOf(value: unknown, name: string): ((tool: string) => boolean) | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "function") {
    const predicate = value as (tool: string) => unknown;
    return (tool) => predicate(tool) === true;
  }
  if (Array.isArray(value) && value.every((entry) => typeof entry === "string")) {
    const names = new Set<string>(value);
    return (tool) => names.has(tool);
  }
  throw new TypeError(`fromMcpClient: ${name} must be an array of Tool names or a function`);
}

const PREFIX = /^[A-Za-z0-9_.-]{0,64}$/;

/**
 * Checks `options` and fills in the defaults; throws a TypeError naming the
 * option for a value outside its type or range.
 *
 * @example
 * clientSettings({ prefix: "fs_" }).maxDescriptionCharacters; // 4096
 */
export function clientSettings(options: FromMcpClientOptions): ClientSettings {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("fromMcpClient: options must be an object");
  }
  const prefix = options.prefix ?? "";
  if (typeof prefix !== "string" || !PREFIX.test(prefix)) {
    throw new TypeError(
      "fromMcpClient: prefix must be at most 64 letters, digits, underscores, hyphens or dots",
    );
  }
  const include = filterOf(options.include, "include");
  const exclude = filterOf(options.exclude, "exclude");
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new TypeError('fromMcpClient: format must be "text" or "json"');
  }
  const onToolsChanged = options.onToolsChanged;
  if (onToolsChanged !== undefined && typeof onToolsChanged !== "function") {
    throw new TypeError("fromMcpClient: onToolsChanged must be a function");
  }
  const patterns = options.patterns ?? "linear-time";
  if (patterns !== "linear-time" && patterns !== "native") {
    throw new TypeError('fromMcpClient: patterns must be "linear-time" or "native"');
  }
  return {
    prefix,
    taken: (name) => (include === undefined || include(name)) && !(exclude?.(name) ?? false),
    maxDescriptionCharacters: wholeNumber(
      options.maxDescriptionCharacters ?? 4_096,
      "maxDescriptionCharacters",
      100,
      100_000,
    ),
    maxSchemaCharacters: wholeNumber(
      options.maxSchemaCharacters ?? 200_000,
      "maxSchemaCharacters",
      1_000,
      10_000_000,
    ),
    maxTools: wholeNumber(options.maxTools ?? 1_000, "maxTools", 1, 10_000),
    timeoutMs: wholeNumber(options.timeoutMs ?? 60_000, "timeoutMs", 1, 86_400_000),
    format,
    onToolsChanged,
    patterns,
  };
}

// MCP's name rule (SEP-986), which the names we give must keep.
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * A name from the server for a message: JSON-quoted and cut, so it cannot flood or forge one.
 *
 * @example
 * quoteName("read file"); // "\"read file\""
 */
export function quoteName(name: string): string {
  return JSON.stringify(cutText(name, 64, () => "…"));
}

/**
 * The name one of the server's Tools gets: the prefix, then its own name.
 * Undefined when the result breaks MCP's name rule (1 to 128 letters,
 * digits, `_`, `-` or `.`), which every provider format builds on.
 *
 * @example
 * toolName("github_", "create_issue"); // "github_create_issue"
 */
export function toolName(prefix: string, name: string): string | undefined {
  const full = `${prefix}${name}`;
  return TOOL_NAME.test(full) ? full : undefined;
}

/**
 * The description a Tool gets: the server's description, else its title,
 * else a sentence naming the server; cut to `max` code points with a marker.
 *
 * @example
 * describeTool({ name: "echo", description: "Echo the input." }, "everything", 4096); // "Echo the input."
 */
export function describeTool(
  tool: {
    readonly name: string;
    readonly description?: string | undefined;
    readonly title?: string | undefined;
  },
  serverName: string,
  max: number,
): string {
  const given = [tool.description, tool.title].find(
    (text): text is string => typeof text === "string" && text.trim() !== "",
  );
  const text = given ?? `Tool ${quoteName(tool.name)} of the MCP server ${quoteName(serverName)}.`;
  return cutText(text, max, (total) => `… [description cut: ${total} characters]`);
}
