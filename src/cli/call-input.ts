/**
 * Reading a Tool call from text: one JSON object, from the command line or
 * from one line of JSON Lines input, with friendly defaults.
 */

import type { CourseToolCall } from "../../course/src/index.ts";
import { CliError, oneLine } from "./cli-error.ts";

const EXAMPLE = '{"name":"add","arguments":{"left":1,"right":2}}';

/**
 * Parses one Tool call. The text is a JSON object with `name` and, when the
 * Tool takes any, `arguments`; `id` defaults to `defaultId` and `type` to
 * "toolCall", and `arguments` to `{}`. Anything else about the call (a blank
 * name, arguments that are not an object) is left for `executeToolCall` to
 * refuse. Throws CliError prefixed with `where` (such as "line 3") for
 * invalid JSON or a value that is not an object.
 *
 * @example
 * parseCall('{"name":"add","arguments":{"left":1,"right":2}}', "line 1", "call-1");
 * // { type: "toolCall", id: "call-1", name: "add", arguments: { left: 1, right: 2 } }
 */
export function parseCall(text: string, where: string, defaultId: string): CourseToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (thrown) {
    throw new CliError(`${where}: invalid JSON (${oneLine(thrown)})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError(`${where}: a Tool call must be a JSON object such as ${EXAMPLE}`);
  }
  const fields = parsed as Record<string, unknown>;
  const field = (key: string, fallback: unknown): unknown =>
    Object.hasOwn(fields, key) ? fields[key] : fallback;
  // Checked by the boundary, which reports exactly what is wrong.
  return {
    type: field("type", "toolCall"),
    id: field("id", defaultId),
    name: field("name", undefined),
    arguments: field("arguments", {}),
  } as CourseToolCall;
}
