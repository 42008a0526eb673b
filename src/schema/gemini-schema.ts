/**
 * Gemini function declarations take an OpenAPI 3.0 subset rather than JSON
 * Schema. This converts a Tool's JSON Schema to that subset: what only loosens
 * the advertised shape is stripped (the Tool's validator still enforces it),
 * what Gemini cannot express is refused with the Tool and the construct named.
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";
import { childLocation, entriesOf, isJsonObject, setKey } from "./json-schema.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";

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

/** Gemini's rule for parameter names (the root object's property keys). */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const isNullSchema = (value: CourseJsonValue): boolean =>
  isJsonObject(value) && value.type === "null" && Object.keys(value).length === 1;

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
    const list = Array.isArray(value) ? value : [value];
    const named = list.filter((entry) => entry !== "null");
    if (named.length !== 1) {
      return this.refuse(
        named.length === 0 ? "a schema that only allows null" : "a type list",
        location,
      );
    }
    const name = TYPES[named[0] as string];
    if (name === undefined) return this.refuse(`the type ${JSON.stringify(named[0])}`, location);
    return { name, nullable: named.length < list.length };
  }

  node(schema: CourseJsonValue, location: string): Record<string, CourseJsonValue> {
    if (!isJsonObject(schema)) {
      return this.refuse(Array.isArray(schema) ? "tuple items" : "a boolean schema", location);
    }
    const copy: Record<string, CourseJsonValue> = {};
    let nullable = false;
    for (const [key, value] of entriesOf(schema)) {
      const at = childLocation(location, key);
      if (key === "type") {
        const type = this.type(value, at);
        copy.type = type.name;
        nullable ||= type.nullable;
      } else if (key === "const" || key === "enum") {
        const values = key === "const" ? [value] : Array.isArray(value) ? value : [];
        const named = values.filter((entry) => entry !== null);
        nullable ||= named.length < values.length;
        if (named.length === 0) this.refuse(`"${key}" that only allows null`, at);
        if (named.some((entry) => typeof entry !== "string")) {
          this.refuse(`"${key}" with values that are not strings`, at);
        }
        copy.enum = named;
      } else if (key === "anyOf") {
        const members = Array.isArray(value) ? value : this.refuse('a malformed "anyOf"', at);
        const kept = members.filter((member) => !isNullSchema(member));
        nullable ||= kept.length < members.length;
        const converted = kept.map((member, index) => this.node(member, childLocation(at, index)));
        // A lone remaining member is folded in: `anyOf: [T, null]` becomes T plus `nullable`.
        if (converted.length === 1) {
          for (const [inner, innerValue] of entriesOf(converted[0] as CourseJsonObject)) {
            if (!Object.hasOwn(copy, inner)) setKey(copy, inner, innerValue);
          }
        } else copy.anyOf = converted;
      } else if (key === "properties") {
        if (!isJsonObject(value)) this.refuse('a malformed "properties"', at);
        const properties: Record<string, CourseJsonValue> = {};
        for (const [name, property] of entriesOf(value)) {
          setKey(properties, name, this.node(property, childLocation(at, name)));
        }
        // Gemini refuses an OBJECT with empty properties; without the key it is a free object.
        if (Object.keys(properties).length > 0) copy.properties = properties;
      } else if (key === "items") {
        copy.items = this.node(value, at);
      } else if (key === "additionalProperties") {
        // false, true and {} only tighten or restate the default: stripped. A real schema is a map.
        if (isJsonObject(value) && Object.keys(value).length > 0) {
          this.refuse("a schema for additionalProperties (map-like objects)", at);
        }
      } else if (key === "required") {
        if (Array.isArray(value) && value.length > 0) copy.required = value;
      } else if (KEPT.has(key)) {
        setKey(copy, key, value);
      } else if (!STRIPPED.has(key)) {
        this.refuse(JSON.stringify(key), at);
      }
    }
    if (nullable) copy.nullable = true;
    const formats = FORMATS[copy.type as string] ?? [];
    if (typeof copy.format === "string" && !formats.includes(copy.format)) delete copy.format;
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
  if (schema.type !== "object") conversion.refuse("a root that is not an object", "#");
  const converted = conversion.node(schema, "#");
  const properties = converted.properties;
  if (!isJsonObject(properties)) return undefined;
  for (const name of Object.keys(properties)) {
    if (!PARAMETER_NAME.test(name)) {
      conversion.refuse(
        `the parameter name ${JSON.stringify(name)} (a letter or underscore first, then letters, digits or underscores, 64 at most)`,
        childLocation("#/properties", name),
      );
    }
  }
  return converted;
}
