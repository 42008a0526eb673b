/**
 * How deep a value may nest before a schema whose check follows it down is
 * run on it. Ajv's code for a `$ref` is a function call, so a schema that
 * refers to itself recurses once per level of the value (a chain of 6,000
 * objects under `{ "properties": { "next": { "$ref": "#" } } }` ran out of the
 * engine's stack), and `uniqueItems` writes each item out whole, recursing as
 * deep as the item nests. A server's structured content (or any value the SDK
 * client checks) nests as deep as its JSON text does, so its depth is
 * measured first. A model's arguments need no measuring: the core refuses
 * them past the same depth.
 */

import { COURSE_TOOL_ARGUMENTS_MAX_DEPTH } from "../../course/src/index.ts";
import { MAX_CHECK_STEPS } from "./schema-meter.ts";

/**
 * The deepest a value checked against a schema with a `$ref` (or
 * `$dynamicRef`, `$recursiveRef`) or `uniqueItems` may nest: 256 objects and
 * arrays, the bound a model's arguments have (`COURSE_TOOL_ARGUMENTS_MAX_DEPTH`).
 *
 * @example
 * MAX_CHECKED_DEPTH; // 256
 */
export const MAX_CHECKED_DEPTH = COURSE_TOOL_ARGUMENTS_MAX_DEPTH;

/**
 * The most objects and arrays {@link nestsDeeperThan} looks at: as many as a
 * check may take steps, so measuring never costs more than the check it
 * guards. Past them, the check runs and a stack it runs out of is answered
 * (see json-schema-check.ts).
 */
const MOST_MEASURED = MAX_CHECK_STEPS;

/**
 * Whether `value` is found to have more than `limit` objects and arrays nested
 * on one path (`{}` nests 1 deep, `[{}]` 2), looking at its first `most`
 * objects and arrays at most (default {@link MOST_MEASURED}); false when
 * none of those nests past `limit`. The walk keeps its own stack and stops at
 * the first path past `limit`, so a value thousands deep, or one that holds
 * itself, costs no recursion; and it takes at most `most` containers from
 * its values, so a wide array costs no more than a deep one.
 *
 * @example
 * nestsDeeperThan({ next: { next: {} } }, 2); // true
 * nestsDeeperThan([1, [2]], 2); // false
 */
export function nestsDeeperThan(value: unknown, limit: number, most = MOST_MEASURED): boolean {
  if (typeof value !== "object" || value === null) return false;
  // Containers and their depths side by side: no pair allocated per container.
  const pending: object[] = [value];
  const depths: number[] = [1];
  let taken = 1;
  while (pending.length > 0) {
    const next = pending.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    // Plain data parsed from JSON: its own enumerable values are all there is. Read one at
    // a time, not gathered (`Object.values` of a million items would copy them all first),
    // and an array by index (`for…in` would make a string of every index before the first).
    if (Array.isArray(next)) {
      for (let index = 0; index < next.length && taken < most; index += 1) {
        taken += take(next[index], depth + 1);
      }
      continue;
    }
    const fields = next as Readonly<Record<string, unknown>>;
    for (const key in fields) {
      if (taken >= most) break;
      if (Object.hasOwn(fields, key)) taken += take(fields[key], depth + 1);
    }
  }
  return false;

  // Keeps `item` to measure when it is a container: answers how many it took (0 or 1).
  function take(item: unknown, depth: number): number {
    if (typeof item !== "object" || item === null) return 0;
    pending.push(item);
    depths.push(depth);
    return 1;
  }
}
