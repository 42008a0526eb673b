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
   * Its objects (arrays are walked, not counted), and each list under
   * `dependentRequired` or `dependencies`, which is compiled as a subschema.
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

/** The keywords whose map may hold lists of names, each compiled as a subschema. */
const NAME_LIST_MAPS = new Set(["dependentRequired", "dependencies"]);

type Schema = { readonly [key: string]: unknown };

/**
 * What the lists of `map` add to a schema's price: an object each (and one
 * more for each trigger `joined`, a `dependentSchemas` map, also has: the two
 * meet under an `allOf`); each list's length squared over 20, since a list
 * compiled where the copy does not rewrite it (reached by a `$ref` into data)
 * is written out name by name, each check nested in the one before (1,000
 * names: 0.5 s); and the crowding they add to the map they join.
 */
function listsPrice(map: object, joined: unknown): { objects: number; crowding: number } {
  let lists = 0;
  let written = 0;
  let others = 0;
  let both = 0;
  const target = typeof joined === "object" && joined !== null ? (joined as Schema) : undefined;
  for (const [name, item] of Object.entries(map)) {
    if (Array.isArray(item)) {
      lists += 1;
      written += Math.floor((item.length * item.length) / 20);
      if (target !== undefined && Object.hasOwn(target, name)) both += 1;
    } else if (typeof item === "object" && item !== null) {
      others += 1;
    }
  }
  if (target !== undefined) {
    // The map the lists join prices its own children; they add to its crowding.
    for (const item of Object.values(target)) {
      if (typeof item === "object" && item !== null && !Array.isArray(item)) others += 1;
    }
  }
  const crowding = Math.floor(((lists + others) ** 2 - others ** 2) / 100) + written;
  return { objects: lists + both, crowding };
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
        // A list under `dependentRequired` or `dependencies` is compiled as the subschema
        // `{ required: list }` (see schema-meter.ts), in the map it joins.
        if (NAME_LIST_MAPS.has(key)) {
          const joined = key === "dependentRequired" ? (value as Schema).dependentSchemas : item;
          const price = listsPrice(item, joined === item ? undefined : joined);
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
