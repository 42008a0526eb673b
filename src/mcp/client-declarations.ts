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
import { hasOwn, setHas, stringSlice } from "../../course/src/internal.ts";

/** The capabilities MCP defines for a client; any other key (`experimental` too) is dropped. */
const KNOWN_CAPABILITIES = new Set(["roots", "sampling", "elicitation", "tasks"]);

/** The `clientInfo` fields kept, each cut to {@link MAX_INFO_LENGTH} code units. */
const KEPT_INFO = new Set(["name", "version", "title"]);

/** The most JSON characters a kept capability may take; a larger one is dropped. */
const MAX_CAPABILITY_JSON = 1024;
const MAX_INFO_LENGTH = 256;

// Captured at load: this runs after Tools of the same process ran.
const nativeKeys = Object.keys;
const nativeStringify = JSON.stringify;
const deleteProperty = Reflect.deleteProperty;

/** The JSON length of `value`, or Infinity when it cannot be written. */
function jsonLength(value: unknown): number {
  try {
    const text = nativeStringify(value);
    return typeof text === "string" ? text.length : 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Cuts, in place, what `server`'s client declared at `initialize` (the
 * objects the SDK keeps and answers from `getClientCapabilities()` and
 * `getClientVersion()`): capabilities MCP does not define, and defined ones
 * over 1,024 characters of JSON, are dropped; `clientInfo` keeps `name`,
 * `version` and `title`, each cut to 256 code units. Does nothing before
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
      const value = (capabilities as Record<string, unknown>)[key];
      if (!setHas(KNOWN_CAPABILITIES, key) || jsonLength(value) > MAX_CAPABILITY_JSON) {
        deleteProperty(capabilities, key);
      }
    }
  }
  const info: unknown = server.getClientVersion();
  if (typeof info === "object" && info !== null) {
    const keys = nativeKeys(info);
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const value = (info as Record<string, unknown>)[key];
      if (!setHas(KEPT_INFO, key) || typeof value !== "string") deleteProperty(info, key);
      else if (value.length > MAX_INFO_LENGTH && hasOwn(info, key)) {
        (info as Record<string, unknown>)[key] = stringSlice(value, 0, MAX_INFO_LENGTH);
      }
    }
  }
}
