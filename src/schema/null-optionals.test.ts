import { describe, expect, test } from "vitest";
import type { CourseJsonObject } from "../../course/src/index.ts";
import { dropNullOptionals, dropsStrictNulls } from "./index.ts";

const schema: CourseJsonObject = {
  type: "object",
  properties: {
    path: { type: "string" },
    note: { type: "string" },
    clear: { type: ["string", "null"] },
    rows: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "number" }, tag: { type: "string" } },
        required: ["id"],
      },
    },
  },
  required: ["path"],
};

describe("dropNullOptionals", () => {
  test("drops the null of an optional, non-nullable property", () => {
    expect(dropNullOptionals({ path: "a", note: null }, schema)).toEqual({ path: "a" });
  });

  test.each<[string, CourseJsonObject]>([
    ["a required property", { path: null }],
    ["a property that allows null", { path: "a", clear: null }],
    ["a key the schema does not know", { path: "a", other: null }],
  ])("keeps the null of %s", (_label, value) => {
    expect(dropNullOptionals(value, schema)).toEqual(value);
  });

  // Each property is optional: the null goes only where the schema certainly refuses it.
  const shapes: CourseJsonObject = {
    type: "object",
    properties: {
      any: {},
      described: { description: "anything" },
      ref: { $ref: "#/$defs/maybe" },
      oneOfNull: { oneOf: [{ type: "null" }, { type: "string" }] },
      anyOfNull: { anyOf: [{ type: "string" }, { const: null }] },
      typed: { type: "integer", minimum: 0 },
      listed: { enum: ["a", "b"] },
      fixed: { const: "a" },
      allOfTyped: { allOf: [{ type: "string" }, { minLength: 1 }] },
      oneOfTyped: { oneOf: [{ type: "string" }, { type: "number" }] },
      refTyped: { $ref: "#/$defs/maybe", type: "string" },
    },
    $defs: { maybe: { type: ["string", "null"] } },
  };

  test.each(["any", "described", "ref", "oneOfNull", "anyOfNull"])(
    "keeps the null of %s: its schema may accept null",
    (key) => {
      expect(dropNullOptionals({ [key]: null }, shapes)).toEqual({ [key]: null });
    },
  );

  test.each(["typed", "listed", "fixed", "allOfTyped", "oneOfTyped", "refTyped"])(
    "drops the null of %s: its schema refuses null",
    (key) => {
      expect(dropNullOptionals({ [key]: null }, shapes)).toEqual({});
    },
  );

  test("follows items into arrays of objects", () => {
    expect(
      dropNullOptionals({ path: "a", rows: [{ id: 1, tag: null }, { id: null }] }, schema),
    ).toEqual({
      path: "a",
      rows: [{ id: 1 }, { id: null }],
    });
  });

  test("never mutates the frozen arguments", () => {
    const value = Object.freeze({ path: "a", note: null });
    const dropped = dropNullOptionals(value, schema);
    expect(dropped).not.toBe(value);
    expect(value).toEqual({ path: "a", note: null });
  });

  test("keeps __proto__ an ordinary key", () => {
    const value = JSON.parse('{"path":"a","__proto__":{"polluted":true}}') as CourseJsonObject;
    const dropped = dropNullOptionals(value, schema) as Record<string, unknown>;
    expect(Object.keys(dropped)).toEqual(["path", "__proto__"]);
    expect(Object.getPrototypeOf(dropped)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("dropsStrictNulls: whether the drop removes every null strict mode invites", () => {
  const object = (properties: CourseJsonObject, required: string[] = []): CourseJsonObject => ({
    type: "object",
    properties,
    required,
  });
  const text: CourseJsonObject = { type: "string" };

  test.each<[string, CourseJsonObject, boolean]>([
    ["optional fields at the top", object({ path: text, note: text }, ["path"]), true],
    ["optional fields of a nested object", object({ at: object({ note: text }) }), true],
    [
      "optional fields of array items",
      object({ rows: { type: "array", items: object({ tag: text }) } }),
      true,
    ],
    ["an optional field that accepts null", object({ note: { type: ["string", "null"] } }), true],
    [
      "only required fields inside anyOf",
      object({ at: { anyOf: [object({ path: text }, ["path"])] } }, ["at"]),
      true,
    ],
    [
      "an optional field inside an anyOf member",
      object({ at: { anyOf: [object({ note: text })] } }, ["at"]),
      false,
    ],
    [
      "an optional field inside $defs",
      { ...object({ at: { $ref: "#/$defs/t" } }, ["at"]), $defs: { t: object({ note: text }) } },
      false,
    ],
    ["an optional $ref", { ...object({ at: { $ref: "#/$defs/t" } }), $defs: { t: text } }, false],
    ["an optional field of any value", object({ any: {} }), false],
  ])("%s", (_label, schema, expected) => {
    expect(dropsStrictNulls(schema)).toBe(expected);
  });
});
