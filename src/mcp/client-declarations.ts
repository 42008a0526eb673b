/**
 * What an MCP client declares at `initialize` (its capabilities and its
 * `clientInfo`), cut to what a server of ours can use. The SDK's Server keeps
 * both for the life of the session, and both may hold any JSON: a client that
 * put 4 MB of empty objects into `capabilities.experimental` made each of its
 * sessions keep about 85 MB, and 47 such sessions ran the process out of
 * memory. Our servers send the client no requests (no sampling, roots or
 * elicitation), so nothing reads what is dropped.
 */

import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  addSlot,
  isArray,
  ownDataValue,
  setHas,
  stringCharCodeAt,
  stringSlice,
} from "../../course/src/internal.ts";

/** The capabilities MCP defines for a client; any other key (`experimental` too) is dropped. */
const KNOWN_CAPABILITIES = new Set(["roots", "sampling", "elicitation", "tasks"]);

/** The `clientInfo` fields kept, each cut to {@link MAX_INFO_LENGTH} code units. */
const KEPT_INFO = new Set(["name", "version", "title"]);

/** The most JSON characters a kept capability may take; a larger one is dropped. */
const MAX_CAPABILITY_JSON = 1024;
const MAX_INFO_LENGTH = 256;

// Captured at load: this runs after Tools of the same process ran.
const nativeKeys = Object.keys;
const deleteProperty = Reflect.deleteProperty;

/**
 * Whether `value` (JSON data the SDK parsed) takes more than about `limit`
 * characters of JSON, counted over own fields and indices by a walk that
 * stops once past the limit. Not `JSON.stringify`: it would run a `toJSON` a
 * Tool planted on `Object.prototype`, which could answer a short text for a
 * huge value, and it would write out all of a huge one first.
 */
function exceeds(value: unknown, limit: number): boolean {
  let size = 0;
  const pending: unknown[] = [];
  addSlot(pending, 0, value);
  while (pending.length > 0) {
    const node = pending[pending.length - 1];
    pending.length -= 1;
    // A string's text and quotes (escapes not counted), a container's brackets, at most 8 for
    // a number or a literal; keys and commas below.
    size += typeof node === "string" ? node.length + 2 : typeof node === "object" ? 2 : 8;
    if (size > limit) return true;
    if (typeof node !== "object" || node === null) continue;
    const keys = nativeKeys(node);
    // An element costs its comma; a member its quoted key, colon and comma.
    const perKey = isArray(node) ? 1 : 4;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      size += perKey === 1 ? 1 : key.length + perKey;
      if (size > limit) return true;
      addSlot(pending, pending.length, ownDataValue(node, key));
    }
  }
  return false;
}

/** `text` cut to at most `max` code units, never inside a surrogate pair. */
function cutUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = stringCharCodeAt(text, max - 1);
  return stringSlice(text, 0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * Cuts, in place, what `server`'s client declared at `initialize` (the
 * objects the SDK keeps and answers from `getClientCapabilities()` and
 * `getClientVersion()`): capabilities MCP does not define, and defined ones
 * over about 1,024 characters of JSON, are dropped; `clientInfo` keeps `name`,
 * `version` and `title`, each cut to 256 code units (never inside a
 * surrogate pair). Does nothing before
 * the client initialized.
 *
 * @example
 * await transport.handleRequest(request, response); // the session's initialize
 * trimClientDeclarations(server);
 */
export function trimClientDeclarations(server: Server): void {
  const capabilities: unknown = server.getClientCapabilities();
  if (typeof capabilities === "object" && capabilities !== null) {
    const keys = nativeKeys(capabilities);
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const value = ownDataValue(capabilities, key);
      if (!setHas(KNOWN_CAPABILITIES, key) || exceeds(value, MAX_CAPABILITY_JSON)) {
        deleteProperty(capabilities, key);
      }
    }
  }
  const info: unknown = server.getClientVersion();
  if (typeof info === "object" && info !== null) {
    const keys = nativeKeys(info);
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const value = ownDataValue(info, key);
      if (!setHas(KEPT_INFO, key) || typeof value !== "string") deleteProperty(info, key);
      else if (value.length > MAX_INFO_LENGTH) {
        (info as Record<string, unknown>)[key] = cutUnits(value, MAX_INFO_LENGTH);
      }
    }
  }
}
