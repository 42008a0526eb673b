/**
 * Counting the work of one check of a model's arguments against a server's
 * schema. Ajv's work is the schema's objects applied to the arguments'
 * values: about their product for an `anyOf` over many items, and, through
 * `$ref`, far more: `d0: { allOf: [{ $ref: d1 }, { $ref: d1 }] }`, 28 levels
 * deep, is 2^28 applications of the last one to the single value `1` (2 s; a
 * few more levels, hours), in a schema of under 2 KB. So every schema object
 * of the copy Ajv compiles counts each time it is applied, and a check stops
 * once it has taken {@link MAX_CHECK_STEPS}.
 */

import { UNIQUE_KEYWORD } from "./unique-items.ts";

/**
 * The most schema objects one check of a call's arguments may apply: each
 * time Ajv applies one of the schema's objects to one value of the arguments
 * is a step (an ordinary call takes tens to hundreds; 10,000 records of six
 * fields about 70,000). A check that would take more is refused, as a check
 * past the patterns' budgets is, whichever engine runs the patterns.
 *
 * @example
 * MAX_CHECK_STEPS; // 100_000
 */
export const MAX_CHECK_STEPS = 100_000;

/** The keyword each schema object of the compiled copy carries: applying the object counts a step. */
export const STEP_KEYWORD = "x-toolbound-step";

// Keywords whose value is data, not a schema: copied as they are, never marked.
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "$vocabulary"]);

// Keywords whose value maps names (or patterns) to schemas: the map itself is not a schema, so
// it is not marked (a marked `properties` would name one property more).
const MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/**
 * A copy of `schema` in which every schema object carries
 * {@link STEP_KEYWORD}: objects under keywords of schemas and under unknown
 * keywords alike (a `$ref` may point anywhere in the document), never the
 * maps of `properties`-like keywords or the values of data keywords (`enum`,
 * `const`, `default`, `examples`); and `uniqueItems: true` becomes
 * `UNIQUE_KEYWORD` (unique-items.ts). The server's schema is left unchanged.
 * Recursive: call it on a schema whose objects were counted and bounded.
 *
 * @example
 * meteredSchema({ properties: { a: { type: "string" } } });
 * // { properties: { a: { type: "string", "x-toolbound-step": true } }, "x-toolbound-step": true }
 */
export function meteredSchema(schema: unknown): unknown {
  return copy(schema, false);
}

/** Sets an own data property: a `__proto__` key (a property's name) stays a key, not a prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function copy(value: unknown, isMap: boolean): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => copy(item, false));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // In a map every value is a schema, whatever its name ("enum" may name a property).
    if (isMap) put(result, key, copy(item, false));
    else if (DATA_KEYWORDS.has(key)) put(result, key, item);
    // Ajv's own compares every pair of items: checked in linear time instead (unique-items.ts).
    else if (key === "uniqueItems" && item === true) put(result, UNIQUE_KEYWORD, true);
    else put(result, key, copy(item, MAP_KEYWORDS.has(key)));
  }
  if (!isMap) put(result, STEP_KEYWORD, true);
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

/**
 * The steps one check takes: started at 0 before each check, and counted by
 * the {@link STEP_KEYWORD} keyword each time Ajv applies a marked object.
 *
 * @example
 * const meter = new StepMeter();
 * ajv.addKeyword({ keyword: STEP_KEYWORD, schemaType: "boolean", errors: false, validate: meter.step });
 */
export class StepMeter {
  steps = 0;

  /** Counts one step; throws SchemaWorkExceeded past the bound (Ajv lets it through). */
  readonly step = (): boolean => {
    this.steps += 1;
    if (this.steps > MAX_CHECK_STEPS) {
      throw new SchemaWorkExceeded(
        `the check applies the schema's objects over ${MAX_CHECK_STEPS} times`,
      );
    }
    return true;
  };
}
