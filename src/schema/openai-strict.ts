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
  ownField,
  setKey,
} from "./json-schema.ts";
import { describeTool, SchemaToolError } from "./schema-error.ts";
import {
  addSlot,
  arrayAppend,
  arrayIncludes,
  arrayMap,
  hasOwn,
  isArray,
  jsonStringify,
  setHas,
} from "./schema-intrinsics.ts";

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

  // Captured built-ins and own fields only, by index, each key defined: this runs on every
  // turn, after Tools ran, and a replaced `Set.prototype.has`, `Object.entries` or `map`, or a
  // `required` planted on Object.prototype, would decide what the model is told.
  node(schema: CourseJsonValue, location: string): CourseJsonObject {
    if (!isJsonObject(schema)) {
      return this.refuse(isArray(schema) ? "tuple items" : "a boolean schema", location);
    }
    const copy: Record<string, CourseJsonValue> = {};
    const entries = entriesOf(schema);
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as [string, CourseJsonValue];
      const key = entry[0];
      if (setHas(DROPPED, key)) continue;
      if (!setHas(KEPT, key)) return this.refuse(jsonStringify(key), location);
      setKey(copy, key, entry[1]);
    }
    if (isObjectSchema(schema)) this.object(schema, copy, location);
    if (hasOwn(schema, "items")) {
      setKey(
        copy,
        "items",
        this.node(schema.items as CourseJsonValue, childLocation(location, "items")),
      );
    }
    if (hasOwn(schema, "anyOf")) {
      setKey(copy, "anyOf", this.list(schema.anyOf, childLocation(location, "anyOf")));
    }
    // Two calls, not a loop over a list of the two keys: `for…of` runs the array iterator.
    this.definitions(schema, copy, "$defs", location);
    this.definitions(schema, copy, "definitions", location);
    return copy;
  }

  definitions(
    schema: CourseJsonObject,
    copy: Record<string, CourseJsonValue>,
    key: "$defs" | "definitions",
    location: string,
  ): void {
    const definitions = ownField(schema, key);
    if (definitions === undefined) return;
    if (!isJsonObject(definitions)) return this.refuse(`a malformed "${key}"`, location);
    const rewritten: Record<string, CourseJsonValue> = {};
    const entries = entriesOf(definitions);
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as [string, CourseJsonValue];
      const name = entry[0];
      setKey(
        rewritten,
        name,
        this.node(entry[1], childLocation(childLocation(location, key), name)),
      );
    }
    setKey(copy, key, rewritten);
  }

  list(value: CourseJsonValue | undefined, location: string): CourseJsonObject[] {
    if (!isArray(value)) return this.refuse("a malformed list of schemas", location);
    return arrayMap(value, (member, index) => this.node(member, childLocation(location, index)));
  }

  object(schema: CourseJsonObject, copy: Record<string, CourseJsonValue>, location: string): void {
    const extra = ownField(schema, "additionalProperties");
    if (extra === true || (extra !== undefined && extra !== false)) {
      this.refuse(
        isJsonObject(extra)
          ? "a schema for additionalProperties (map-like objects)"
          : "additionalProperties: true",
        location,
      );
    }
    const declared = ownField(schema, "properties");
    const properties = isJsonObject(declared) ? declared : {};
    const listed = ownField(schema, "required");
    const required = isArray(listed) ? listed : [];
    const rewritten: Record<string, CourseJsonValue> = {};
    const names: string[] = [];
    const entries = entriesOf(properties);
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as [string, CourseJsonValue];
      const name = entry[0];
      const at = childLocation(childLocation(location, "properties"), name);
      const strict = this.node(entry[1], at);
      setKey(rewritten, name, arrayIncludes(required, name) ? strict : nullable(strict));
      addSlot(names, names.length, name);
    }
    setKey(copy, "properties", rewritten);
    setKey(copy, "required", names);
    setKey(copy, "additionalProperties", false);
  }
}

/** The schema made to accept null as well, the way strict mode expects optional fields. */
function nullable(schema: CourseJsonObject): CourseJsonObject {
  if (acceptsNull(schema)) return schema;
  const type = ownField(schema, "type");
  // Object spread copies own fields without running anything patchable; the lists are
  // copied by index (array spread would run the array iterator).
  if (!hasOwn(schema, "const") && (typeof type === "string" || isArray(type))) {
    const copy: Record<string, CourseJsonValue> = { ...schema };
    setKey(copy, "type", arrayAppend(typeof type === "string" ? [type] : type, "null"));
    const values = ownField(schema, "enum");
    if (isArray(values)) setKey(copy, "enum", arrayAppend(values, null));
    return copy;
  }
  const anyOf = ownField(schema, "anyOf");
  if (isArray(anyOf)) {
    const copy: Record<string, CourseJsonValue> = { ...schema };
    setKey(copy, "anyOf", arrayAppend<CourseJsonValue>(anyOf, { type: "null" }));
    return copy;
  }
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
  if (ownField(schema, "type") !== "object") rewrite.refuse("a root that is not an object", "#");
  if (hasOwn(schema, "anyOf")) rewrite.refuse('"anyOf" at the root', "#");
  return rewrite.node(schema, "#");
}
