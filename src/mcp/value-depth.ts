/**
 * How deep a value may nest before a schema that refers to itself checks it.
 * Ajv's code for a `$ref` is a function call, so a recursive schema recurses
 * once per level of the value: a chain of 6,000 objects under
 * `{ "properties": { "next": { "$ref": "#" } } }` ran out of the engine's
 * stack. A server's structured content (or any value the SDK client checks)
 * nests as deep as its JSON text does, so its depth is bounded first.
 */

import { COURSE_TOOL_ARGUMENTS_MAX_DEPTH } from "../../course/src/index.ts";

/**
 * The deepest a value checked against a schema with `$ref`s may nest: 256
 * objects and arrays, the bound a model's arguments have
 * (`COURSE_TOOL_ARGUMENTS_MAX_DEPTH`).
 *
 * @example
 * MAX_CHECKED_DEPTH; // 256
 */
export const MAX_CHECKED_DEPTH = COURSE_TOOL_ARGUMENTS_MAX_DEPTH;

/**
 * Whether `value` has more than `limit` objects and arrays nested on one path
 * (`{}` nests 1 deep, `[{}]` 2). The walk keeps its own stack and stops at the
 * first path past `limit`, so a value thousands deep, or one that refers to
 * itself, costs no recursion and at most its size.
 *
 * @example
 * nestsDeeperThan({ next: { next: {} } }, 2); // true
 * nestsDeeperThan([1, [2]], 2); // false
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() as [unknown, number];
    if (typeof next !== "object" || next === null) continue;
    if (depth > limit) return true;
    // Plain data parsed from JSON: its own enumerable values are all there is.
    for (const item of Object.values(next)) {
      if (typeof item === "object" && item !== null) pending.push([item, depth + 1]);
    }
  }
  return false;
}
