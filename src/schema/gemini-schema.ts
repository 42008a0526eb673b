/**
 * Gemini function declarations take an OpenAPI 3.0 subset rather than JSON
 * Schema. This converts a Tool's JSON Schema to that subset: what only loosens
 * the advertised shape is stripped (the Tool's validator still enforces it),
 * what Gemini cannot express is refused with the Tool and the construct named.
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";
import { childLocation, entriesOf, isJsonObject, ownField, setKey } from "./json-schema.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";
import {
  arrayFilter,
  arrayIncludes,
  arrayMap,
  arraySome,
  hasOwn,
  isArray,
  jsonStringify,
  objectKeys,
  regExpTest,
  sealedRegExp,
  setHas,
} from "./schema-intrinsics.ts";

/** Keywords of Gemini's Schema object, kept (their sub-schemas converted). */
const KEPT = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

/** Keywords Gemini's subset lacks whose removal only loosens the advertised shape. */
const STRIPPED = new Set([
  "$schema",
  "$id",
  "$comment",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentEncoding",
  "contentMediaType",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "uniqueItems",
]);

/** The formats Gemini accepts, by type; any other format is stripped. */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  STRING: ["date-time", "enum"],
  NUMBER: ["float", "double"],
  INTEGER: ["int32", "int64"],
};

const TYPES: Readonly<Record<string, string>> = {
  string: "STRING",
  number: "NUMBER",
  integer: "INTEGER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
};

/**
 * Gemini's rule for parameter names (the root object's property keys); sealed, so a replaced
 * `RegExp.prototype.exec` cannot pass a name the rule refuses.
 */
const PARAMETER_NAME = sealedRegExp(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/);

const isNullSchema = (value: CourseJsonValue): boolean =>
  isJsonObject(value) && ownField(value, "type") === "null" && objectKeys(value).length === 1;

/** The entries of `table` answer only its own keys (`constructor` is no type). */
const tableEntry = <T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined =>
  typeof key === "string" ? ownField(table, key) : undefined;

class GeminiConversion {
  constructor(readonly toolName: string) {}

  refuse(construct: string, location: string): never {
    throw new SchemaToolError(
      "UNSUPPORTED_SCHEMA_CONSTRUCT",
      `${describeTool(this.toolName)}: Gemini function declarations cannot express ${construct} (at ${location})`,
      { toolName: this.toolName },
    );
  }

  type(value: CourseJsonValue, location: string): { name: string; nullable: boolean } {
    const list = isArray(value) ? value : [value];
    const named = arrayFilter(list, (entry) => entry !== "null");
    if (named.length !== 1) {
      return this.refuse(
        named.length === 0 ? "a schema that only allows null" : "a type list",
        location,
      );
    }
    const name = tableEntry(TYPES, named[0]);
    if (name === undefined) return this.refuse(`the type ${jsonStringify(named[0])}`, location);
    return { name, nullable: named.length < list.length };
  }

  // Captured built-ins and own fields only, by index, each key defined: this runs on every
  // turn, after Tools ran, and a replaced `filter`, `Object.entries` or `Set.prototype.has`,
  // or an `anyOf` planted on Object.prototype, would decide what the model is told.
  node(schema: CourseJsonValue, location: string): Record<string, CourseJsonValue> {
    if (!isJsonObject(schema)) {
      return this.refuse(isArray(schema) ? "tuple items" : "a boolean schema", location);
    }
    const copy: Record<string, CourseJsonValue> = {};
    let nullable = false;
    const entries = entriesOf(schema);
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as [string, CourseJsonValue];
      const key = entry[0];
      const value = entry[1];
      const at = childLocation(location, key);
      if (key === "type") {
        const type = this.type(value, at);
        setKey(copy, "type", type.name);
        nullable ||= type.nullable;
      } else if (key === "const" || key === "enum") {
        const values = key === "const" ? [value] : isArray(value) ? value : [];
        const named = arrayFilter(values, (item) => item !== null);
        nullable ||= named.length < values.length;
        if (named.length === 0) this.refuse(`"${key}" that only allows null`, at);
        if (arraySome(named, (item) => typeof item !== "string")) {
          this.refuse(`"${key}" with values that are not strings`, at);
        }
        setKey(copy, "enum", named);
      } else if (key === "anyOf") {
        const members = isArray(value) ? value : this.refuse('a malformed "anyOf"', at);
        const kept = arrayFilter(members, (member) => !isNullSchema(member));
        nullable ||= kept.length < members.length;
        const converted = arrayMap(kept, (member, place) =>
          this.node(member, childLocation(at, place)),
        );
        // A lone remaining member is folded in: `anyOf: [T, null]` becomes T plus `nullable`.
        if (converted.length === 1) {
          const inner = entriesOf(converted[0] as CourseJsonObject);
          for (let step = 0; step < inner.length; step += 1) {
            const field = inner[step] as [string, CourseJsonValue];
            if (!hasOwn(copy, field[0])) setKey(copy, field[0], field[1]);
          }
        } else setKey(copy, "anyOf", converted);
      } else if (key === "properties") {
        if (!isJsonObject(value)) this.refuse('a malformed "properties"', at);
        const properties: Record<string, CourseJsonValue> = {};
        const declared = entriesOf(value);
        for (let step = 0; step < declared.length; step += 1) {
          const field = declared[step] as [string, CourseJsonValue];
          setKey(properties, field[0], this.node(field[1], childLocation(at, field[0])));
        }
        // Gemini refuses an OBJECT with empty properties; without the key it is a free object.
        if (objectKeys(properties).length > 0) setKey(copy, "properties", properties);
      } else if (key === "items") {
        setKey(copy, "items", this.node(value, at));
      } else if (key === "additionalProperties") {
        // false, true and {} only tighten or restate the default: stripped. A real schema is a map.
        if (isJsonObject(value) && objectKeys(value).length > 0) {
          this.refuse("a schema for additionalProperties (map-like objects)", at);
        }
      } else if (key === "required") {
        if (isArray(value) && value.length > 0) setKey(copy, "required", value);
      } else if (setHas(KEPT, key)) {
        setKey(copy, key, value);
      } else if (!setHas(STRIPPED, key)) {
        this.refuse(jsonStringify(key), at);
      }
    }
    if (nullable) setKey(copy, "nullable", true);
    const formats = tableEntry(FORMATS, ownField(copy, "type")) ?? [];
    const format = ownField(copy, "format");
    if (typeof format === "string" && !arrayIncludes(formats, format)) delete copy.format;
    return copy;
  }
}

/**
 * Converts a Tool's JSON Schema (an object at the root) to Gemini's `parameters`.
 * Types become Gemini's upper-case names; `type: [T, "null"]`, `anyOf: [T, {type:
 * "null"}]` and a null in `enum` become `nullable: true`; `const` becomes a one-value
 * `enum`. Stripped: `$schema`, `$id`, `$comment`, `examples`, `deprecated`,
 * `readOnly`, `writeOnly`, `content*`, `exclusiveMinimum`, `exclusiveMaximum`,
 * `multipleOf`, `uniqueItems`, `additionalProperties` (false, true or `{}`),
 * formats Gemini lacks, empty `properties` and `required`. Refused
 * (UNSUPPORTED_SCHEMA_CONSTRUCT): `$ref`/`$defs`, `allOf`, `oneOf`, `not`,
 * conditionals, `patternProperties`, tuples, map-like `additionalProperties`,
 * type lists, non-string enums, any other keyword, and root property names
 * outside Gemini's parameter-name rule. Returns undefined for a root without
 * properties: Gemini wants `parameters` left out then.
 *
 * @example
 * toGeminiSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }, "read");
 * // { type: "OBJECT", properties: { path: { type: "STRING" } }, required: ["path"] }
 */
export function toGeminiSchema(
  schema: CourseJsonObject,
  toolName: string,
): CourseJsonObject | undefined {
  const conversion = new GeminiConversion(toolName);
  if (ownField(schema, "type") !== "object") {
    conversion.refuse("a root that is not an object", "#");
  }
  const converted = conversion.node(schema, "#");
  const properties = ownField(converted, "properties");
  if (!isJsonObject(properties)) return undefined;
  const names = objectKeys(properties);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    if (!regExpTest(PARAMETER_NAME, name)) {
      conversion.refuse(
        `the parameter name ${jsonStringify(name)} (a letter or underscore first, then letters, digits or underscores, 64 at most)`,
        childLocation("#/properties", name),
      );
    }
  }
  return converted;
}
