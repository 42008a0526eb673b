/**
 * Drops `null` values of optional properties before validation. OpenAI strict
 * mode makes every property required and the optional ones nullable, so a model
 * sends `"note": null` for a note it leaves out; a schema with an optional
 * (not nullable) `note` would refuse that. `schemaTool` applies this only when
 * the author asks (`dropNullOptionals: true`).
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";
import { acceptsNull, isJsonObject, setKey } from "./json-schema.ts";

/**
 * Whether a property's schema certainly refuses `null`, read from what it
 * says itself: a `type`, `enum` or `const` that leaves null out, an `allOf`
 * member that does, or an `anyOf` or `oneOf` whose every member does. A
 * schema that says none of these (`{}`, a `$ref`, a description) may accept
 * null: it is not known to refuse it.
 */
function refusesNull(schema: CourseJsonValue): boolean {
  if (!isJsonObject(schema)) return schema === false;
  if (acceptsNull(schema)) return false;
  if (typeof schema.type === "string" || Array.isArray(schema.type)) return true;
  if (Array.isArray(schema.enum) || Object.hasOwn(schema, "const")) return true;
  const allOf = schema.allOf;
  if (Array.isArray(allOf) && allOf.some((member) => refusesNull(member))) return true;
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0 && members.every((m) => refusesNull(m))) {
      return true;
    }
  }
  return false;
}

function dropInObject(value: CourseJsonObject, schema: CourseJsonObject): CourseJsonObject {
  const properties = schema.properties;
  if (!isJsonObject(properties)) return value;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const copy: { [key: string]: CourseJsonValue } = {};
  for (const [key, child] of Object.entries(value)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    // Dropped only where the schema certainly refuses null: a null it accepts, or may accept
    // (`{}`, a `$ref`, a `oneOf`), means something and stays.
    if (child === null && property !== undefined && !required.includes(key)) {
      if (refusesNull(property)) continue;
    }
    // Defined, not assigned: "__proto__" stays an ordinary key.
    setKey(copy, key, isJsonObject(property) ? dropNullOptionals(child, property) : child);
  }
  return copy;
}

/**
 * Returns `value` with the `null` values of optional properties whose schema
 * certainly refuses null removed (a `type`, `enum` or `const` without null;
 * a property schema of `{}` or a `$ref` keeps its null), following
 * `properties`, `required` and `items` of `schema` (other keywords such as
 * `anyOf` or `$ref` are not followed into). Never mutates `value`.
 *
 * @example
 * dropNullOptionals({ path: "a", note: null }, { type: "object", properties: { path: { type: "string" }, note: { type: "string" } }, required: ["path"] });
 * // { path: "a" }
 */
export function dropNullOptionals(
  value: CourseJsonValue,
  schema: CourseJsonObject,
): CourseJsonValue {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!isJsonObject(items)) return value;
    return (value as readonly CourseJsonValue[]).map((item) => dropNullOptionals(item, items));
  }
  if (isJsonObject(value)) return dropInObject(value, schema);
  return value;
}

/**
 * Whether {@link dropNullOptionals} removes every `null` that strict mode
 * invites for a left-out field: `toOpenAIStrictSchema(schema)` makes each
 * optional property nullable wherever it is (inside `anyOf` members and
 * `$defs` too), and `dropNullOptionals(value, schema)` reaches only the
 * properties under `properties` and `items` from the root, and only drops a
 * null their schema certainly refuses. True when every property the rewrite
 * makes nullable is one the drop reaches and removes; then strict mode and
 * the drop together accept what the schema accepts.
 *
 * @example
 * dropsStrictNulls({ type: "object", properties: { note: { type: "string" } } }); // true
 * dropsStrictNulls({ type: "object", properties: { at: { anyOf: [{ type: "object", properties: { note: { type: "string" } } }] } } }); // false
 */
export function dropsStrictNulls(schema: CourseJsonObject): boolean {
  return reachesEveryNull(schema, true);
}

/** {@link dropsStrictNulls} for `node`, which the drop reaches when `reached`. */
function reachesEveryNull(node: CourseJsonValue, reached: boolean): boolean {
  if (!isJsonObject(node)) return true;
  const properties = node.properties;
  if (isJsonObject(properties)) {
    const required = Array.isArray(node.required) ? node.required : [];
    for (const [name, property] of Object.entries(properties)) {
      // The rewrite leaves a property that accepts null as it is: no null is invited there.
      const invited = !required.includes(name) && !acceptsNull(property);
      if (invited && !(reached && refusesNull(property))) return false;
      if (!reachesEveryNull(property, reached)) return false;
    }
  }
  if (!reachesEveryNull(node.items as CourseJsonValue, reached)) return false;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const members = node[key];
    if (Array.isArray(members) && !members.every((member) => reachesEveryNull(member, false))) {
      return false;
    }
  }
  for (const key of ["$defs", "definitions"] as const) {
    const definitions = node[key];
    if (!isJsonObject(definitions)) continue;
    for (const definition of Object.values(definitions)) {
      if (!reachesEveryNull(definition, false)) return false;
    }
  }
  return true;
}
