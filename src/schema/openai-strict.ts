/**
 * OpenAI strict mode: rewrites a Tool's JSON Schema to the subset OpenAI's
 * structured outputs accept (every property required, optional ones made
 * nullable, `additionalProperties: false` on every object), or names the Tool
 * and the construct that prevents it.
 */

import type { CourseJsonObject, CourseJsonValue } from "../../course/src/index.ts";
import {
  acceptsNull,
  childLocation,
  entriesOf,
  isJsonObject,
  isObjectSchema,
  setKey,
} from "./json-schema.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";

/** Keywords strict mode accepts; they are kept as they are (their sub-schemas rewritten). */
const KEPT = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "description",
  "title",
  "pattern",
  "format",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
]);

/**
 * Annotations and constraints strict mode does not take; they are dropped. The
 * Tool's own validator still enforces the constraints, so a model that breaks
 * one gets TOOL_ARGUMENTS_INVALID back.
 */
const DROPPED = new Set([
  "$schema",
  "$id",
  "$comment",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "minLength",
  "maxLength",
  "uniqueItems",
  "contentEncoding",
  "contentMediaType",
]);

class StrictRewrite {
  constructor(readonly toolName: string) {}

  refuse(construct: string, location: string): never {
    throw new SchemaToolError(
      "STRICT_MODE_UNSUPPORTED",
      `${describeTool(this.toolName)}: OpenAI strict mode cannot express ${construct} (at ${location})`,
      { toolName: this.toolName },
    );
  }

  node(schema: CourseJsonValue, location: string): CourseJsonObject {
    if (!isJsonObject(schema)) {
      return this.refuse(Array.isArray(schema) ? "tuple items" : "a boolean schema", location);
    }
    const copy: Record<string, CourseJsonValue> = {};
    for (const [key, value] of entriesOf(schema)) {
      if (DROPPED.has(key)) continue;
      if (!KEPT.has(key)) return this.refuse(JSON.stringify(key), location);
      setKey(copy, key, value);
    }
    if (isObjectSchema(schema)) this.object(schema, copy, location);
    if (Object.hasOwn(schema, "items")) {
      copy.items = this.node(schema.items as CourseJsonValue, childLocation(location, "items"));
    }
    if (Object.hasOwn(schema, "anyOf")) {
      copy.anyOf = this.list(schema.anyOf, childLocation(location, "anyOf"));
    }
    for (const key of ["$defs", "definitions"]) {
      const definitions = schema[key];
      if (definitions === undefined) continue;
      if (!isJsonObject(definitions)) return this.refuse(`a malformed "${key}"`, location);
      const rewritten: Record<string, CourseJsonValue> = {};
      for (const [name, definition] of entriesOf(definitions)) {
        setKey(
          rewritten,
          name,
          this.node(definition, childLocation(childLocation(location, key), name)),
        );
      }
      copy[key] = rewritten;
    }
    return copy;
  }

  list(value: CourseJsonValue | undefined, location: string): CourseJsonObject[] {
    if (!Array.isArray(value)) return this.refuse("a malformed list of schemas", location);
    return value.map((member, index) => this.node(member, childLocation(location, index)));
  }

  object(schema: CourseJsonObject, copy: Record<string, CourseJsonValue>, location: string): void {
    const extra = schema.additionalProperties;
    if (extra === true || (extra !== undefined && extra !== false)) {
      this.refuse(
        isJsonObject(extra)
          ? "a schema for additionalProperties (map-like objects)"
          : "additionalProperties: true",
        location,
      );
    }
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const rewritten: Record<string, CourseJsonValue> = {};
    const names: string[] = [];
    for (const [name, property] of entriesOf(properties)) {
      const at = childLocation(childLocation(location, "properties"), name);
      const strict = this.node(property, at);
      setKey(rewritten, name, required.includes(name) ? strict : nullable(strict));
      names.push(name);
    }
    copy.properties = rewritten;
    copy.required = names;
    copy.additionalProperties = false;
  }
}

/** The schema made to accept null as well, the way strict mode expects optional fields. */
function nullable(schema: CourseJsonObject): CourseJsonObject {
  if (acceptsNull(schema)) return schema;
  const type = schema.type;
  if (!Object.hasOwn(schema, "const") && (typeof type === "string" || Array.isArray(type))) {
    const types = typeof type === "string" ? [type] : [...type];
    const copy: Record<string, CourseJsonValue> = { ...schema, type: [...types, "null"] };
    if (Array.isArray(schema.enum)) copy.enum = [...schema.enum, null];
    return copy;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * Rewrites `schema` (a Tool's `parameters`) to OpenAI's strict subset: each
 * object gets `additionalProperties: false` and `required` listing every
 * property, and a property that was optional becomes nullable (a type list
 * with "null", or an `anyOf` with `{ type: "null" }`). Annotations strict mode
 * does not take (`default`, `minLength`, `$schema`…) are dropped. Throws
 * SchemaToolError STRICT_MODE_UNSUPPORTED, naming the Tool, the construct and
 * where it is, for a root that is not an object, `additionalProperties: true`
 * or a schema, `patternProperties`, `allOf`, `oneOf`, `not`, conditionals,
 * tuples and any other keyword outside the subset.
 *
 * @example
 * toOpenAIStrictSchema({ type: "object", properties: { path: { type: "string" }, line: { type: "integer" } }, required: ["path"] }, "read");
 * // { type: "object", properties: { path: { type: "string" }, line: { type: ["integer", "null"] } }, required: ["path", "line"], additionalProperties: false }
 */
export function toOpenAIStrictSchema(schema: CourseJsonObject, toolName: string): CourseJsonObject {
  const rewrite = new StrictRewrite(toolName);
  if (schema.type !== "object") rewrite.refuse("a root that is not an object", "#");
  if (Object.hasOwn(schema, "anyOf")) rewrite.refuse('"anyOf" at the root', "#");
  return rewrite.node(schema, "#");
}
