/**
 * Drops `null` values of optional properties before validation. OpenAI strict
 * mode makes every property required and the optional ones nullable, so a model
 * sends `"note": null` for a note it leaves out; a schema with an optional
 * (not nullable) `note` would refuse that. `schemaTool` applies this only when
 * the author asks (`dropNullOptionals: true`).
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";
import { acceptsNull, isJsonObject, setKey } from "./json-schema.ts";

function dropInObject(value: CourseJsonObject, schema: CourseJsonObject): CourseJsonObject {
  const properties = schema.properties;
  if (!isJsonObject(properties)) return value;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const copy: { [key: string]: CourseJsonValue } = {};
  for (const [key, child] of Object.entries(value)) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (child === null && property !== undefined && !required.includes(key)) {
      // Leave the null alone when the schema itself allows it: then null means something.
      if (!acceptsNull(property)) continue;
    }
    // Defined, not assigned: "__proto__" stays an ordinary key.
    setKey(copy, key, isJsonObject(property) ? dropNullOptionals(child, property) : child);
  }
  return copy;
}

/**
 * Returns `value` with the `null` values of optional, non-nullable properties
 * removed, following `properties`, `required` and `items` of `schema` (other
 * keywords such as `anyOf` or `$ref` are not followed). Never mutates `value`.
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
