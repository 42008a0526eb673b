import { describe, expect, test } from "vitest";
import * as z from "zod";
import type { CourseJsonObject } from "../../course/src/index.ts";
import { SchemaToolError, schemaTool, toGeminiSchema } from "./index.ts";

const withField = (property: unknown): CourseJsonObject =>
  ({ type: "object", properties: { field: property } }) as CourseJsonObject;

function geminiField(property: unknown): unknown {
  const converted = toGeminiSchema(withField(property), "t");
  expect(converted).toBeDefined();
  return (converted?.properties as CourseJsonObject | undefined)?.field;
}

describe("toGeminiSchema converts to Gemini's OpenAPI subset", () => {
  test.each<[string, unknown, unknown]>([
    ["types to upper case", { type: "integer", minimum: 0 }, { type: "INTEGER", minimum: 0 }],
    ["a nullable type list", { type: ["string", "null"] }, { type: "STRING", nullable: true }],
    [
      "anyOf with null folded into nullable",
      { description: "Maybe.", anyOf: [{ type: "number" }, { type: "null" }] },
      { description: "Maybe.", type: "NUMBER", nullable: true },
    ],
    [
      "an anyOf of several kept",
      { anyOf: [{ type: "number" }, { type: "string" }] },
      { anyOf: [{ type: "NUMBER" }, { type: "STRING" }] },
    ],
    [
      "const to a one-value enum",
      { type: "string", const: "now" },
      { type: "STRING", enum: ["now"] },
    ],
    ["null in an enum to nullable", { enum: ["a", null] }, { enum: ["a"], nullable: true }],
    [
      "stripped keywords",
      { type: "number", exclusiveMinimum: 0, multipleOf: 2, examples: [2], $comment: "x" },
      { type: "NUMBER" },
    ],
    [
      "additionalProperties false and an empty properties",
      { type: "object", properties: {}, required: [], additionalProperties: false },
      { type: "OBJECT" },
    ],
    ["a format Gemini lacks", { type: "string", format: "email" }, { type: "STRING" }],
    [
      "a format Gemini has",
      { type: "string", format: "date-time" },
      { type: "STRING", format: "date-time" },
    ],
    [
      "array items",
      { type: "array", items: { type: "boolean" }, minItems: 1 },
      { type: "ARRAY", items: { type: "BOOLEAN" }, minItems: 1 },
    ],
  ])("converts %s", (_label, property, expected) => {
    expect(geminiField(property)).toEqual(expected);
  });

  test("leaves parameters out for a root without properties", () => {
    expect(toGeminiSchema({ type: "object", properties: {} }, "t")).toBeUndefined();
    expect(toGeminiSchema({ type: "object" }, "t")).toBeUndefined();
  });

  test("converts a real zod schema", () => {
    const tool = schemaTool({
      name: "search",
      description: "Search.",
      schema: z
        .object({
          query: z.string().min(1).describe("What to look for"),
          limit: z.number().int().nullable(),
          sort: z.enum(["new", "top"]).optional(),
        })
        .strict(),
      execute: async () => ({}),
    });
    expect(toGeminiSchema(tool.parameters as CourseJsonObject, tool.name)).toEqual({
      type: "OBJECT",
      properties: {
        query: { type: "STRING", minLength: 1, description: "What to look for" },
        limit: {
          type: "INTEGER",
          minimum: -9007199254740991,
          maximum: 9007199254740991,
          nullable: true,
        },
        sort: { type: "STRING", enum: ["new", "top"] },
      },
      required: ["query", "limit"],
    });
  });
});

describe("toGeminiSchema names what Gemini cannot express", () => {
  test.each<[string, CourseJsonObject, string]>([
    ["a non-object root", { type: "string" }, "a root that is not an object (at #)"],
    ["$ref", withField({ $ref: "#/$defs/x" }), '"$ref" (at #/properties/field/$ref)'],
    ["oneOf", withField({ oneOf: [] }), '"oneOf" (at #/properties/field/oneOf)'],
    ["allOf", withField({ allOf: [] }), '"allOf" (at #/properties/field/allOf)'],
    [
      "patternProperties",
      withField({ type: "object", patternProperties: {} }),
      '"patternProperties" (at #/properties/field/patternProperties)',
    ],
    [
      "a map-like object",
      withField({ type: "object", additionalProperties: { type: "string" } }),
      "a schema for additionalProperties (map-like objects) (at #/properties/field/additionalProperties)",
    ],
    [
      "a type list",
      withField({ type: ["string", "number"] }),
      "a type list (at #/properties/field/type)",
    ],
    [
      "a null-only schema",
      withField({ type: "null" }),
      "a schema that only allows null (at #/properties/field/type)",
    ],
    [
      "a number enum",
      withField({ enum: [1, 2] }),
      '"enum" with values that are not strings (at #/properties/field/enum)',
    ],
    [
      "tuple items",
      withField({ type: "array", items: [{ type: "string" }] }),
      "tuple items (at #/properties/field/items)",
    ],
    [
      "a parameter name Gemini refuses",
      { type: "object", properties: { "file-path": { type: "string" } } },
      'the parameter name "file-path" (a letter or underscore first, then letters, digits or underscores, 64 at most) (at #/properties/file-path)',
    ],
  ])("UNSUPPORTED_SCHEMA_CONSTRUCT for %s", (_label, schema, construct) => {
    let thrown: unknown;
    try {
      toGeminiSchema(schema, "gem");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SchemaToolError);
    expect((thrown as SchemaToolError).code).toBe("UNSUPPORTED_SCHEMA_CONSTRUCT");
    expect((thrown as SchemaToolError).message).toBe(
      `Tool "gem": Gemini function declarations cannot express ${construct}`,
    );
  });
});
