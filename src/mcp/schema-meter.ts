/**
 * Counting the work of one check of a model's arguments (or a server's
 * structured content) against a server's schema. Ajv's work is the schema's
 * objects applied to the values: about their product for an `anyOf` over
 * many items, and, through `$ref`, far more: `d0: { allOf: [{ $ref: d1 },
 * { $ref: d1 }] }`, 28 levels deep, is 2^28 applications of the last one to
 * the single value `1` (2 s; a few more levels, hours), in a schema of under
 * 2 KB. So every object of the copy Ajv compiles carries a weight, counted
 * each time Ajv applies it, and a check stops past {@link MAX_CHECK_STEPS}.
 */

import { UNIQUE_KEYWORD } from "./unique-items.ts";

/**
 * The most steps one check may take. Applying one of the schema's objects to
 * one value is a step, plus one for each 64 entries of its `enum` or
 * `required` (or triggers of its `dependentRequired` or `dependencies`), each
 * 1,024 characters of its `const` or `enum`, and each 1,024
 * characters of a string value or 64 items or keys of a value: the work Ajv
 * does there grows with them. An ordinary call takes tens to hundreds;
 * 10,000 records of six short fields 70,002. A check that would take more is
 * refused, as a check past the patterns' budgets is, whichever engine runs
 * the patterns.
 *
 * @example
 * MAX_CHECK_STEPS; // 100_000
 */
export const MAX_CHECK_STEPS = 100_000;

/** The keyword each object of the compiled copy carries, its weight as its value. */
export const STEP_KEYWORD = "x-toolbound-step";

// Keywords whose value is data, not a schema: never rewritten (a `$ref` may still point into
// them, so their objects carry the weight too).
const DATA_KEYWORDS = new Set([
  "enum",
  "const",
  "default",
  "examples",
  "$vocabulary",
  "dependentRequired",
]);

// Keywords whose value maps names (or patterns) to schemas: the map itself is not a schema.
const MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

type Position = "schema" | "map" | "data";

/** Sets an own enumerable data property: a `__proto__` key stays a key, not a prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A schema object's weight: one, and more for the entries Ajv's code goes through. */
function weightOf(schema: Record<string, unknown>): number {
  const { enum: listed, required, const: constant, dependentRequired, dependencies } = schema;
  // Each trigger of `dependentRequired` or `dependencies` is a test of its own (see
  // dependency-macros.ts), as each entry of a long `enum` or `required` is.
  const entries =
    (Array.isArray(listed) ? listed.length : 0) +
    (Array.isArray(required) ? required.length : 0) +
    keyCount(dependentRequired) +
    keyCount(dependencies);
  // Compared deeply with the value, an `enum` costs what its text does, as a `const` does: 63
  // entries of 16 strings of 1,000 characters weighed 1 and took 56 µs an application.
  const dataText = textLength(constant) + (Array.isArray(listed) ? textLength(listed) : 0);
  return 1 + Math.floor(entries / 64) + Math.floor(dataText / 1_024);
}

/** How many own keys a map has (0 for anything that is not an object). */
function keyCount(map: unknown): number {
  return typeof map === "object" && map !== null ? Object.keys(map).length : 0;
}

/** The length of a value's JSON text (0 for undefined). */
function textLength(value: unknown): number {
  return value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0);
}

/**
 * A copy of `schema` in which every object carries {@link STEP_KEYWORD}, its
 * weight, as a property that is not enumerable: Ajv finds it as a keyword,
 * while everything that lists keys (Ajv's test for an empty schema, the
 * `properties` it iterates, the deep equality of `enum` and `const`) does
 * not see it, so the copy means what the schema means. Objects under data
 * keywords carry it too (a `$ref` may point there). In schema positions,
 * `uniqueItems: true` becomes `UNIQUE_KEYWORD` (unique-items.ts), and a
 * server's own keys of those two names are dropped. The server's schema is
 * left unchanged. Answers the copy and the sum of its weights. Recursive:
 * call it on a schema whose objects were counted and bounded.
 *
 * @example
 * const { schema } = meteredSchema({ properties: { a: { type: "string" } } });
 * Object.keys(schema as object); // ["properties"]
 * (schema as Record<string, unknown>)["x-toolbound-step"]; // 1
 */
export function meteredSchema(schema: unknown): {
  readonly schema: unknown;
  readonly weight: number;
} {
  const weights = { total: 0 };
  return { schema: copy(schema, "schema", weights), weight: weights.total };
}

function copy(value: unknown, position: Position, weights: { total: number }): unknown {
  if (typeof value !== "object" || value === null) return value;
  const inner: Position = position === "data" ? "data" : "schema";
  if (Array.isArray(value)) return value.map((item) => copy(item, inner, weights));
  const source = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(source)) {
    if (position !== "schema") {
      // In a map every value is a schema, whatever its name ("enum" may name a property).
      put(result, key, copy(item, inner, weights));
    } else if (key === STEP_KEYWORD || key === UNIQUE_KEYWORD) {
      // The server's own keys of our keywords' names: unknown keywords, annotations only.
    } else if (DATA_KEYWORDS.has(key)) {
      put(result, key, copy(item, "data", weights));
    } else if (key === "uniqueItems" && item === true) {
      // Ajv's own compares every pair of items: checked in linear time instead.
      put(result, UNIQUE_KEYWORD, true);
    } else {
      put(result, key, copy(item, MAP_KEYWORDS.has(key) ? "map" : "schema", weights));
    }
  }
  const weight = weightOf(source);
  weights.total += weight;
  Object.defineProperty(result, STEP_KEYWORD, { value: weight, enumerable: false });
  return result;
}

/**
 * Thrown out of Ajv's validation when a check passes {@link MAX_CHECK_STEPS};
 * the check answers that the arguments take too long to check.
 *
 * @example
 * try { validate(input); } catch (thrown) { if (thrown instanceof SchemaWorkExceeded) refuse(thrown.message); }
 */
export class SchemaWorkExceeded extends Error {}

/** What a value adds to the step of applying an object to it: its length, items or keys. */
function valueWeight(value: unknown): number {
  if (typeof value === "string") return Math.floor(value.length / 1_024);
  if (typeof value !== "object" || value === null) return 0;
  if (Array.isArray(value)) return Math.floor(value.length / 64);
  return Math.floor(Object.keys(value).length / 64);
}

/**
 * The values in `value` (itself, and every member and item, without
 * recursion), and their weight as a step weighs them (one each, and one
 * more for each 1,024 characters of a string or 64 items or keys): the work
 * a schema that applies each of its objects once to each value could take.
 * Stops once the weight passes `limit`.
 *
 * @example
 * weighValues({ a: [1, 2] }, 100); // { values: 4, weight: 4 }
 */
export function weighValues(
  value: unknown,
  limit: number,
): { readonly values: number; readonly weight: number } {
  let values = 0;
  let weight = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && weight <= limit) {
    const next = pending.pop();
    values += 1;
    weight += 1 + valueWeight(next);
    if (typeof next === "object" && next !== null) {
      for (const item of Object.values(next)) pending.push(item);
    }
  }
  return { values, weight };
}

/**
 * The steps one check takes: started at 0 before each check, and counted by
 * the {@link STEP_KEYWORD} keyword each time Ajv applies a marked object.
 *
 * @example
 * const meter = new StepMeter();
 * ajv.addKeyword({ keyword: STEP_KEYWORD, schemaType: "number", errors: false, validate: meter.step });
 */
export class StepMeter {
  steps = 0;

  /** Counts `steps`; throws SchemaWorkExceeded past the bound (Ajv lets it through). */
  add(steps: number): void {
    this.steps += steps;
    if (this.steps > MAX_CHECK_STEPS) {
      throw new SchemaWorkExceeded(
        `the check applies the schema's objects over ${MAX_CHECK_STEPS} times`,
      );
    }
  }

  /** Ajv's `validate` for {@link STEP_KEYWORD}: the object's weight, and the value's. */
  readonly step = (weight: number, value: unknown): boolean => {
    this.add(weight + valueWeight(value));
    return true;
  };
}
