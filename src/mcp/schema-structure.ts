/**
 * The size of a schema as Ajv's compile sees it: one piece of generated code
 * for each object in it. Counted before Ajv reads the schema, so that what a
 * schema costs to compile is paid before the work (see pattern-budgets.ts).
 */

/**
 * Counts the objects in `schema` (arrays are walked, not counted), stopping
 * once the count passes `limit`: the answer is then `limit + 1`. The walk
 * keeps its own stack, so a schema nested thousands deep costs no recursion,
 * and the stop bounds it even for a value that refers to itself.
 *
 * @example
 * schemaObjects({ type: "object", properties: { a: { type: "string" } } }, 2_000); // 3
 */
export function schemaObjects(schema: unknown, limit: number): number {
  let count = 0;
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null) continue;
    if (!Array.isArray(value)) {
      count += 1;
      if (count > limit) return count;
    }
    // Plain data from the server's JSON: its own enumerable values are all there is.
    for (const item of Object.values(value)) {
      if (typeof item === "object" && item !== null) pending.push(item);
    }
  }
  return count;
}
