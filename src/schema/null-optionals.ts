/**
 * Drops `null` values of optional properties before validation. OpenAI strict
 * mode makes every property required and the optional ones nullable, so a model
 * sends `"note": null` for a note it leaves out; a schema with an optional
 * (not nullable) `note` would refuse that. `schemaTool` applies this only when
 * the author asks (`dropNullOptionals: true`).
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";
import { acceptsNull, isJsonObject, ownField, setKey } from "./json-schema.ts";
import {
  arrayEvery,
  arrayIncludes,
  arrayMap,
  arraySome,
  hasOwn,
  isArray,
  objectEntries,
  objectValues,
} from "./schema-intrinsics.ts";

// The drop runs on every call (schemaTool, the OpenAI Agents tools), after Tools ran in this
// process: only captured built-ins (see schema-intrinsics.ts), by index, never the live array
// iterator; and only a schema's own fields, since a Tool can plant `type`, `required` or
// `properties` on Object.prototype (a null the schema accepts would be dropped, or one kept).

/** `members` when it is a non-empty list every member of which certainly refuses null. */
const everyRefuses = (members: CourseJsonValue | undefined): boolean =>
  isArray(members) && members.length > 0 && arrayEvery(members, (m) => refusesNull(m));

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
  const type = ownField(schema, "type");
  if (typeof type === "string" || isArray(type)) return true;
  if (isArray(ownField(schema, "enum")) || hasOwn(schema, "const")) return true;
  const allOf = ownField(schema, "allOf");
  if (isArray(allOf) && arraySome(allOf, (member) => refusesNull(member))) return true;
  return everyRefuses(ownField(schema, "anyOf")) || everyRefuses(ownField(schema, "oneOf"));
}

/** A schema's own `required`, or none. */
function requiredOf(schema: CourseJsonObject): readonly CourseJsonValue[] {
  const required = ownField(schema, "required");
  return isArray(required) ? required : [];
}

function dropInObject(value: CourseJsonObject, schema: CourseJsonObject): CourseJsonObject {
  const properties = ownField(schema, "properties");
  if (!isJsonObject(properties)) return value;
  const required = requiredOf(schema);
  const copy: { [key: string]: CourseJsonValue } = {};
  const entries = objectEntries(value);
  for (let index = 0; index < entries.length; index += 1) {
    // By index, not destructured: destructuring runs the live array iterator.
    const entry = entries[index] as [string, CourseJsonValue];
    const key = entry[0];
    const child = entry[1];
    const property = hasOwn(properties, key) ? properties[key] : undefined;
    // Dropped only where the schema certainly refuses null: a null it accepts, or may accept
    // (`{}`, a `$ref`, a `oneOf`), means something and stays.
    if (child === null && property !== undefined && !arrayIncludes(required, key)) {
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
  if (isArray(value)) {
    const items = ownField(schema, "items");
    if (!isJsonObject(items)) return value;
    return arrayMap(value as readonly CourseJsonValue[], (item) => dropNullOptionals(item, items));
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
  const properties = ownField(node, "properties");
  if (isJsonObject(properties)) {
    const required = requiredOf(node);
    const entries = objectEntries(properties);
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as [string, CourseJsonValue];
      const property = entry[1];
      // The rewrite leaves a property that accepts null as it is: no null is invited there.
      const invited = !arrayIncludes(required, entry[0]) && !acceptsNull(property);
      if (invited && !(reached && refusesNull(property))) return false;
      if (!reachesEveryNull(property, reached)) return false;
    }
  }
  if (!reachesEveryNull(ownField(node, "items") as CourseJsonValue, reached)) return false;
  // Each keyword by name, in the order a loop over them took (no live array iterator).
  const unreached = (member: CourseJsonValue): boolean => reachesEveryNull(member, false);
  const members = (key: string): boolean => {
    const list = ownField(node, key);
    return !isArray(list) || arrayEvery(list, unreached);
  };
  const defined = (key: string): boolean => {
    const definitions = ownField(node, key);
    return !isJsonObject(definitions) || arrayEvery(objectValues(definitions), unreached);
  };
  return (
    members("anyOf") &&
    members("oneOf") &&
    members("allOf") &&
    defined("$defs") &&
    defined("definitions")
  );
}
