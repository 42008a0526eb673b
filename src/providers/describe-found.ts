/**
 * Names the kind of a value for a host-facing error message without reading
 * anything from it: no getter, trap or method of the value runs. Shared by
 * the response reader, the round-trip format check and the result writer.
 */

import { isArray, isProxy } from "../../course/src/internal.ts";

/**
 * Names the kind of `value` for an error message, without reading anything from it.
 *
 * @example
 * describeFound(null); // "null"
 * describeFound([1]); // "an array"
 */
export function describeFound(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string") return value.length === 0 ? "an empty string" : "a string";
  if (typeof value !== "object" && typeof value !== "function") return `a ${typeof value}`;
  if (isProxy(value)) return "a Proxy";
  if (typeof value === "function") return "a function";
  return isArray(value) ? "an array" : "an object";
}
