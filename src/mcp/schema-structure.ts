/**
 * The size of a schema as Ajv's compile sees it: one piece of generated code
 * for each object in it, nested as the objects are, and, with one error
 * stopping the check, each subschema's code inside its previous sibling's.
 * Measured before Ajv reads the schema, so that what a schema costs to
 * compile is paid before the work (see pattern-budgets.ts).
 */

/** What a schema's compile will cost, read from its shape. */
export interface SchemaShape {
  /** Its objects (arrays are walked, not counted). */
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

/** The keywords whose map may hold lists of names, each compiled as a subschema. */
const NAME_LIST_MAPS = new Set(["dependentRequired", "dependencies"]);

/** How many of a map's values are lists of names, and how many are objects. */
function mapChildren(map: object): { readonly lists: number; readonly others: number } {
  let lists = 0;
  let others = 0;
  for (const item of Object.values(map)) {
    if (Array.isArray(item)) {
      if (item.every((name) => typeof name === "string")) lists += 1;
    } else if (typeof item === "object" && item !== null) {
      others += 1;
    }
  }
  return { lists, others };
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
 * How many arrays a schema may hold for each object its limit allows, before
 * the walk stops as if past it: `required`, `enum` and `allOf` lists are
 * about one an object in real schemas, and an array that holds itself (which
 * a schema built in code can) would otherwise never end the walk.
 */
const ARRAYS_PER_OBJECT = 4;

/**
 * Reads the shape of `schema`, stopping once it has more than `limit`
 * objects, or more than `ARRAYS_PER_OBJECT` times as many arrays (the answer
 * then counts `limit + 1` objects). The walk keeps its own stack, so a
 * schema nested thousands deep costs no recursion, and the stop bounds it
 * even for a value that refers to itself.
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
  let arrays = 0;
  const pending: [unknown, number, number][] = [[schema, 0, 0]];
  while (pending.length > 0) {
    const [value, above, containersAbove] = pending.pop() as [unknown, number, number];
    if (typeof value !== "object" || value === null) continue;
    let level = above;
    const nested = containersAbove + 1;
    if (nested > nesting) nesting = nested;
    if (!Array.isArray(value)) {
      objects += 1;
      level += 1;
      if (level > depth) depth = level;
      if (objects > limit) break;
      if (!follows) follows = followsValues(value);
    } else {
      arrays += 1;
      if (arrays > limit * ARRAYS_PER_OBJECT) {
        objects = Math.max(objects, limit + 1);
        break;
      }
    }
    // Plain data from the server's JSON: its own enumerable values are all there is.
    let children = 0;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== "object" || item === null) continue;
      if (!Array.isArray(item)) {
        children += 1;
        // A list of names under `dependentRequired` or `dependencies` is compiled as the
        // subschema `{ required: names }` (see schema-meter.ts): priced as one, and as one
        // more of the map's crowded children (the map itself prices the others).
        if (NAME_LIST_MAPS.has(key)) {
          const { lists, others } = mapChildren(item);
          objects += lists;
          crowding += Math.floor(((lists + others) ** 2 - others ** 2) / 100);
        }
      }
      pending.push([item, level, nested]);
    }
    crowding += Math.floor((children * children) / 100);
  }
  return { objects, crowding, depth, nesting, followsValues: follows };
}
