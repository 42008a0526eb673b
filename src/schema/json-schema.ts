/**
 * Small helpers over JSON Schema held as frozen plain JSON: type guards, the
 * "does this accept null" question, locations for messages, and deep freezing.
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";

/**
 * True for a JSON object (not null, not an array).
 *
 * @example
 * isJsonObject({ type: "string" }); // true
 */
export function isJsonObject(value: unknown): value is CourseJsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The own enumerable entries of a JSON object, in its key order.
 *
 * @example
 * entriesOf({ type: "string", minLength: 1 }); // [["type", "string"], ["minLength", 1]]
 */
export function entriesOf(node: CourseJsonObject): [string, CourseJsonValue][] {
  return Object.entries(node) as [string, CourseJsonValue][];
}

/**
 * True when a schema already admits `null`: `type: "null"`, a type list with
 * "null", `nullable: true`, an enum or const with null, or an `anyOf` member that does.
 *
 * @example
 * acceptsNull({ type: ["string", "null"] }); // true
 */
export function acceptsNull(schema: CourseJsonValue | undefined): boolean {
  if (!isJsonObject(schema)) return schema === true;
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if (Object.hasOwn(schema, "const") && schema.const === null) return true;
  const anyOf = schema.anyOf;
  return Array.isArray(anyOf) && anyOf.some((member) => acceptsNull(member));
}

/**
 * True when a schema describes an object: `type: "object"` (alone or in a
 * list) or `properties` present.
 *
 * @example
 * isObjectSchema({ type: ["object", "null"] }); // true
 */
export function isObjectSchema(schema: CourseJsonObject): boolean {
  const type = schema.type;
  if (type === "object") return true;
  if (Array.isArray(type) && type.includes("object")) return true;
  return Object.hasOwn(schema, "properties");
}

/**
 * Extends a JSON Pointer fragment (`#`, `#/properties/a`) by one key, escaping
 * `~` and `/` as JSON Pointer does.
 *
 * @example
 * childLocation("#/properties", "a/b"); // "#/properties/a~1b"
 */
export function childLocation(location: string, key: string | number): string {
  return `${location}/${`${key}`.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/**
 * Freezes a JSON value and everything in it, and returns it.
 *
 * @example
 * const tools = deepFreeze([{ name: "add" }]);
 * Object.isFrozen(tools[0]); // true
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Sets an own enumerable key on a new object by definition, not assignment, so
 * a property named `__proto__` stays an ordinary key.
 *
 * @example
 * const copy = {}; setKey(copy, "__proto__", 1); Object.keys(copy); // ["__proto__"]
 */
export function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
