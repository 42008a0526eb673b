/**
 * Small helpers over JSON Schema held as frozen plain JSON: type guards, the
 * "does this accept null" question, locations for messages, and deep freezing.
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";
import {
  arrayIncludes,
  arraySome,
  defineProperty,
  freeze,
  hasOwn,
  isArray,
  NativeTypeError,
  objectEntries,
  objectValues,
  stringCharCodeAt,
  stringSlice,
} from "./schema-intrinsics.ts";

// Everything here runs on every turn (the provider tool list is written after Tools ran):
// only captured built-ins (see schema-intrinsics.ts), and only own fields of a schema, since
// a Tool can plant `type`, `anyOf` or `additionalProperties` on Object.prototype.

/**
 * True for a JSON object (not null, not an array).
 *
 * @example
 * isJsonObject({ type: "string" }); // true
 */
export function isJsonObject(value: unknown): value is CourseJsonObject {
  return typeof value === "object" && value !== null && !isArray(value);
}

/**
 * A schema's own `key`, or undefined: an inherited one (planted on
 * Object.prototype, or `constructor`) is not part of the schema.
 *
 * @example
 * ownField({ type: "string" }, "type"); // "string"
 * ownField({ type: "string" }, "constructor"); // undefined
 */
export function ownField<T>(node: { readonly [key: string]: T }, key: string): T | undefined {
  return hasOwn(node, key) ? node[key] : undefined;
}

/**
 * The own enumerable entries of a JSON object, in its key order.
 *
 * @example
 * entriesOf({ type: "string", minLength: 1 }); // [["type", "string"], ["minLength", 1]]
 */
export function entriesOf(node: CourseJsonObject): [string, CourseJsonValue][] {
  return objectEntries(node) as [string, CourseJsonValue][];
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
  const type = ownField(schema, "type");
  if (type === "null" || (isArray(type) && arrayIncludes(type, "null"))) return true;
  if (ownField(schema, "nullable") === true) return true;
  const values = ownField(schema, "enum");
  if (isArray(values) && arrayIncludes(values, null)) return true;
  if (hasOwn(schema, "const") && schema.const === null) return true;
  const anyOf = ownField(schema, "anyOf");
  return isArray(anyOf) && arraySome(anyOf, (member) => acceptsNull(member));
}

/**
 * True when a schema describes an object: `type: "object"` (alone or in a
 * list) or `properties` present.
 *
 * @example
 * isObjectSchema({ type: ["object", "null"] }); // true
 */
export function isObjectSchema(schema: CourseJsonObject): boolean {
  const type = ownField(schema, "type");
  if (type === "object") return true;
  if (isArray(type) && arrayIncludes(type, "object")) return true;
  return hasOwn(schema, "properties");
}

const TILDE = 0x7e;
const SLASH = 0x2f;

/**
 * Extends a JSON Pointer fragment (`#`, `#/properties/a`) by one key, escaping
 * `~` and `/` as JSON Pointer does.
 *
 * @example
 * childLocation("#/properties", "a/b"); // "#/properties/a~1b"
 */
export function childLocation(location: string, key: string | number): string {
  // By character code, not `replaceAll`: this runs for every key of a converted schema, and a
  // replaced `replaceAll` (or a planted `Symbol.replace`) would run with it.
  const text = `${key}`;
  let escaped = "";
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = stringCharCodeAt(text, index);
    if (code !== TILDE && code !== SLASH) continue;
    escaped += `${stringSlice(text, start, index)}${code === TILDE ? "~0" : "~1"}`;
    start = index + 1;
  }
  return `${location}/${escaped}${stringSlice(text, start)}`;
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
    // Captured `values` and `freeze`, by index: a Tool that replaced `Object.freeze` (or the
    // array iterator) would otherwise leave the host's list open to later changes.
    const children = objectValues(value);
    for (let index = 0; index < children.length; index += 1) deepFreeze(children[index]);
    freeze(value);
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
  // The captured definition, with a null-prototype descriptor: a `get` or `set` planted on
  // Object.prototype would otherwise turn the descriptor into an accessor's.
  const defined = defineProperty(target, key, {
    __proto__: null,
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  } as PropertyDescriptor);
  if (!defined) throw new NativeTypeError(`Cannot define property ${key}`);
}
