/**
 * The size of a schema as Ajv's compile sees it: one piece of generated code
 * for each object in it, nested as the objects are, and, with one error
 * stopping the check, each subschema's code inside its previous sibling's.
 * Measured before Ajv reads the schema, so that what a schema costs to
 * compile is paid before the work (see pattern-budgets.ts).
 */

/** What a schema's compile will cost, read from its shape. */
export interface SchemaShape {
  /**
   * Its objects (arrays are walked, not counted), and those Ajv makes of a
   * `dependentRequired` or `dependencies` map (see dependency-macros.ts).
   */
  readonly objects: number;
  /**
   * For each array or object holding other objects, their number squared
   * over 100: Ajv nests each sibling's code in the one before, so 1,000
   * subschemas of one `allOf` compiled in 0.36 s where 1,000 spread over
   * groups of ten take 0.08 s.
   */
  readonly crowding: number;
  /** The most objects on one path from the root. */
  readonly depth: number;
  /**
   * The most objects and arrays on one path from the root: a `const` or
   * `enum` of arrays nested a few thousand deep ran the engine out of stack
   * while Ajv compiled it.
   */
  readonly nesting: number;
  /**
   * Whether its check can recurse as deep as the value nests, not only as deep
   * as the schema does: an object has a `$ref`, `$dynamicRef` or
   * `$recursiveRef` (Ajv calls a function for each), or `uniqueItems: true`
   * (each item is written out whole). See value-depth.ts.
   */
  readonly followsValues: boolean;
}

/** The keywords whose maps Ajv expands into subschemas (see dependency-macros.ts). */
const DEPENDENCY_MAPS = new Set(["dependentRequired", "dependencies"]);

/**
 * What Ajv's expansion of a `dependentRequired` or `dependencies` map adds to
 * a schema's price (see dependency-macros.ts): for each trigger it expands,
 * an `if`/`then` object and the `if`'s own, the `then`'s when it is made from
 * a list, and the crowding of one `allOf` of all of them.
 */
function expansionPrice(map: object, listsOnly: boolean): { objects: number; crowding: number } {
  let branches = 0;
  let lists = 0;
  for (const item of Object.values(map)) {
    if (Array.isArray(item)) {
      branches += 1;
      lists += 1;
    } else if (!listsOnly) {
      branches += 1;
    }
  }
  return { objects: 2 * branches + lists, crowding: Math.floor((branches * branches) / 100) };
}

/** The keywords by which a schema applies another part of itself. */
const REFERRING_KEYWORDS = ["$ref", "$dynamicRef", "$recursiveRef"] as const;

/** Whether one schema object's check recurses with the value (see {@link SchemaShape}). */
function followsValues(schema: object): boolean {
  const unique = Object.hasOwn(schema, "uniqueItems")
    ? (schema as { readonly uniqueItems?: unknown }).uniqueItems
    : undefined;
  if (unique === true) return true;
  return REFERRING_KEYWORDS.some((keyword) => Object.hasOwn(schema, keyword));
}

/**
 * How deep the walk follows objects and arrays before it stops: past the
 * nesting any schema is allowed (256), and an array that holds itself (which
 * a schema built in code can) would otherwise never end it, arrays not being
 * counted against the limit.
 */
const MOST_NESTING_WALKED = 1_024;

/**
 * Reads the shape of `schema`, stopping once it has more than `limit`
 * objects (the answer then counts `limit + 1`) or nests past
 * {@link MOST_NESTING_WALKED} (the answer then says that deep). The walk keeps
 * its own stack, so a schema nested thousands deep costs no recursion, and
 * the stops bound it even for a value that refers to itself.
 *
 * @example
 * schemaShape({ type: "object", properties: { a: { type: "string" } } }, 2_000);
 * // { objects: 3, crowding: 0, depth: 3, nesting: 3, followsValues: false }
 */
export function schemaShape(schema: unknown, limit: number): SchemaShape {
  let objects = 0;
  let crowding = 0;
  let depth = 0;
  let nesting = 0;
  let follows = false;
  const pending: [unknown, number, number][] = [[schema, 0, 0]];
  while (pending.length > 0) {
    const [value, above, containersAbove] = pending.pop() as [unknown, number, number];
    if (typeof value !== "object" || value === null) continue;
    let level = above;
    const nested = containersAbove + 1;
    if (nested > nesting) nesting = nested;
    if (nested > MOST_NESTING_WALKED) break;
    if (!Array.isArray(value)) {
      objects += 1;
      level += 1;
      if (level > depth) depth = level;
      if (objects > limit) break;
      if (!follows) follows = followsValues(value);
    }
    // Plain data from the server's JSON: its own enumerable values are all there is.
    let children = 0;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== "object" || item === null) continue;
      if (!Array.isArray(item)) {
        children += 1;
        // Ajv expands these maps into subschemas of its own (see dependency-macros.ts).
        if (DEPENDENCY_MAPS.has(key)) {
          const price = expansionPrice(item, key === "dependentRequired");
          objects += price.objects;
          crowding += price.crowding;
        }
      }
      pending.push([item, level, nested]);
    }
    crowding += Math.floor((children * children) / 100);
  }
  return { objects, crowding, depth, nesting, followsValues: follows };
}
