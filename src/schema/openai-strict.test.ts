import { describe, expect, test } from "vitest";
import * as z from "zod";
import type { CourseJsonObject } from "../../course/src/index.ts";
import { SchemaToolError, schemaTool, toOpenAIStrictSchema } from "./index.ts";

const objectWith = (
  property: CourseJsonObject,
  required: readonly string[] = [],
): CourseJsonObject => ({
  type: "object",
  properties: { field: property },
  required,
});

const strictField = (property: CourseJsonObject): unknown =>
  (toOpenAIStrictSchema(objectWith(property), "t").properties as CourseJsonObject).field;

describe("toOpenAIStrictSchema rewrites to the strict subset", () => {
  test("every property required, optional ones nullable, additionalProperties false", () => {
    expect(
      toOpenAIStrictSchema(
        {
          type: "object",
          properties: { path: { type: "string" }, line: { type: "integer" } },
          required: ["path"],
        },
        "read",
      ),
    ).toEqual({
      type: "object",
      properties: { path: { type: "string" }, line: { type: ["integer", "null"] } },
      required: ["path", "line"],
      additionalProperties: false,
    });
  });

  test.each<[string, CourseJsonObject, unknown]>([
    ["a single type", { type: "string" }, { type: ["string", "null"] }],
    ["a type list", { type: ["string", "number"] }, { type: ["string", "number", "null"] }],
    [
      "an enum with a type",
      { type: "string", enum: ["r", "w"] },
      { type: ["string", "null"], enum: ["r", "w", null] },
    ],
    [
      "an enum without a type",
      { enum: ["r", "w"] },
      { anyOf: [{ enum: ["r", "w"] }, { type: "null" }] },
    ],
    [
      "a const",
      { type: "string", const: "now" },
      { anyOf: [{ type: "string", const: "now" }, { type: "null" }] },
    ],
    [
      "an anyOf",
      { anyOf: [{ type: "string" }, { type: "number" }] },
      { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
    ],
    ["a $ref", { $ref: "#/$defs/node" }, { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] }],
    ["an already nullable type", { type: ["string", "null"] }, { type: ["string", "null"] }],
    [
      "an already nullable anyOf",
      { anyOf: [{ type: "string" }, { type: "null" }] },
      { anyOf: [{ type: "string" }, { type: "null" }] },
    ],
  ])("an optional property with %s becomes nullable", (_label, property, expected) => {
    expect(strictField(property)).toEqual(expected);
  });

  test("nested objects, array items, anyOf members and $defs are rewritten too", () => {
    const strict = toOpenAIStrictSchema(
      {
        type: "object",
        properties: {
          list: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
          either: {
            anyOf: [{ type: "object", properties: { b: { type: "number" } } }, { type: "string" }],
          },
        },
        required: ["list", "either"],
        $defs: {
          node: { type: "object", properties: { c: { type: "boolean" } }, required: ["c"] },
        },
      },
      "deep",
    );
    expect(strict).toEqual({
      type: "object",
      properties: {
        list: {
          type: "array",
          items: {
            type: "object",
            properties: { a: { type: ["string", "null"] } },
            required: ["a"],
            additionalProperties: false,
          },
        },
        either: {
          anyOf: [
            {
              type: "object",
              properties: { b: { type: ["number", "null"] } },
              required: ["b"],
              additionalProperties: false,
            },
            { type: "string" },
          ],
        },
      },
      required: ["list", "either"],
      $defs: {
        node: {
          type: "object",
          properties: { c: { type: "boolean" } },
          required: ["c"],
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    });
  });

  test("drops annotations strict mode does not take and keeps supported constraints", () => {
    expect(
      strictField({ type: "string", minLength: 1, default: "x", pattern: "^a", format: "email" }),
    ).toEqual({ type: ["string", "null"], pattern: "^a", format: "email" });
  });

  test("keeps a property named __proto__ as an ordinary key", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}',
    ) as CourseJsonObject;
    const strict = toOpenAIStrictSchema(schema, "t");
    expect(Object.keys(strict.properties as object)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(strict.properties)).toBe(Object.prototype);
  });

  test("rewrites a real zod schema with optional and defaulted fields", () => {
    const tool = schemaTool({
      name: "search",
      description: "Search.",
      schema: z.object({
        query: z.string().min(1),
        limit: z.number().int().max(50).optional(),
        sort: z.enum(["new", "top"]).default("top"),
      }),
      execute: async () => ({}),
    });
    expect(toOpenAIStrictSchema(tool.parameters as CourseJsonObject, tool.name)).toEqual({
      type: "object",
      properties: {
        query: { type: "string" },
        limit: { type: ["integer", "null"], minimum: -9007199254740991, maximum: 50 },
        sort: { type: ["string", "null"], enum: ["new", "top", null] },
      },
      required: ["query", "limit", "sort"],
      additionalProperties: false,
    });
  });
});

describe("toOpenAIStrictSchema names what prevents strict mode", () => {
  test.each<[string, CourseJsonObject, string]>([
    [
      "a non-object root",
      { type: "array", items: { type: "string" } },
      "a root that is not an object (at #)",
    ],
    ["anyOf at the root", { type: "object", anyOf: [] }, '"anyOf" at the root (at #)'],
    [
      "patternProperties",
      objectWith({ type: "object", patternProperties: { "^x": { type: "string" } } }),
      '"patternProperties" (at #/properties/field)',
    ],
    [
      "additionalProperties: true",
      { type: "object", properties: {}, additionalProperties: true },
      "additionalProperties: true (at #)",
    ],
    [
      "a map-like object",
      objectWith({ type: "object", additionalProperties: { type: "number" } }),
      "a schema for additionalProperties (map-like objects) (at #/properties/field)",
    ],
    ["allOf", objectWith({ allOf: [{ type: "string" }] }), '"allOf" (at #/properties/field)'],
    ["oneOf", objectWith({ oneOf: [{ type: "string" }] }), '"oneOf" (at #/properties/field)'],
    ["not", objectWith({ not: { type: "string" } }), '"not" (at #/properties/field)'],
    [
      "tuple items",
      objectWith({ type: "array", items: [{ type: "string" }] }),
      "tuple items (at #/properties/field/items)",
    ],
    ["a boolean schema", objectWith(true as never), "a boolean schema (at #/properties/field)"],
    [
      "a key that needs escaping in the location",
      { type: "object", properties: { "a/b": { if: {} } } },
      '"if" (at #/properties/a~1b)',
    ],
  ])("STRICT_MODE_UNSUPPORTED for %s", (_label, schema, construct) => {
    let thrown: unknown;
    try {
      toOpenAIStrictSchema(schema, "picky");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SchemaToolError);
    expect((thrown as SchemaToolError).code).toBe("STRICT_MODE_UNSUPPORTED");
    expect((thrown as SchemaToolError).toolName).toBe("picky");
    expect((thrown as SchemaToolError).message).toBe(
      `Tool "picky": OpenAI strict mode cannot express ${construct}`,
    );
  });
});
