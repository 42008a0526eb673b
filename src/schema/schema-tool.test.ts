import { toJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Type } from "typebox";
import * as v from "valibot";
import { describe, expect, expectTypeOf, test, vi } from "vitest";
import * as z from "zod";
import { thrownBy } from "../../test/support/schema.ts";
import { schemaTool } from "./index.ts";
import type { StandardSchemaV1 } from "./standard-schema.ts";

const execute = async (input: unknown) => input;

function rejectedWith(tool: { validate: (input: unknown) => unknown }, input: unknown): string {
  const decision = tool.validate(input) as { ok: boolean; error?: string };
  expect(decision.ok).toBe(false);
  return decision.error ?? "";
}

describe("schemaTool with zod 4", () => {
  const schema = z
    .object({ left: z.number(), right: z.number(), note: z.string().optional() })
    .strict();
  const add = schemaTool({ name: "add", description: "Add two numbers.", schema, execute });

  test("accepts valid arguments and hands over the schema's value", () => {
    expect(add.validate({ left: 1, right: 2 })).toEqual({ ok: true, value: { left: 1, right: 2 } });
  });

  test("hands over the schema's output when the schema transforms", () => {
    const upper = schemaTool({
      name: "upper",
      description: "Shout.",
      schema: z.object({ text: z.string().transform((text) => text.toUpperCase()) }),
      execute,
    });
    expect(upper.validate({ text: "hi" })).toEqual({ ok: true, value: { text: "HI" } });
  });

  test("rejects a wrong type with path: message", () => {
    expect(rejectedWith(add, { left: "twenty", right: 22 })).toBe(
      "left: Invalid input: expected number, received string",
    );
  });

  test("reports each unknown key of a strict object", () => {
    expect(rejectedWith(add, { left: 1, right: 2, extra: true, more: 1 })).toBe(
      "extra: is not allowed (unknown key); more: is not allowed (unknown key)",
    );
  });

  test("reports nested paths with indexes", () => {
    const tags = schemaTool({
      name: "tag",
      description: "Tag items.",
      schema: z.object({ items: z.array(z.object({ name: z.string() })) }),
      execute,
    });
    expect(rejectedWith(tags, { items: [{ name: "a" }, { name: 2 }] })).toBe(
      "items[1].name: Invalid input: expected string, received number",
    );
  });

  test("writes five issues at most and counts the others", () => {
    const many = schemaTool({
      name: "many",
      description: "Many numbers.",
      schema: z.object({ values: z.array(z.number()) }),
      execute,
    });
    const error = rejectedWith(many, { values: ["a", "b", "c", "d", "e", "f", "g"] });
    expect(error.split("; ")).toHaveLength(6);
    expect(error.endsWith("; …and 2 more")).toBe(true);
  });

  test("never echoes the whole arguments: a 100,000-character value stays out", () => {
    const error = rejectedWith(add, { left: "x".repeat(100_000), right: 1 });
    expect(error.length).toBeLessThanOrEqual(200);
    expect(error).not.toContain("xxxx");
  });

  test("does not coerce: the string 42 is not a number", () => {
    expect(rejectedWith(add, { left: "42", right: 1 })).toBe(
      "left: Invalid input: expected number, received string",
    );
  });

  test("coerces only when the schema says so (z.coerce)", () => {
    const coerced = schemaTool({
      name: "coerced",
      description: "Coerce.",
      schema: z.object({ left: z.coerce.number() }),
      execute,
    });
    expect(coerced.validate({ left: "42" })).toEqual({ ok: true, value: { left: 42 } });
  });

  test("takes parameters from zod's Standard JSON Schema, without $schema", () => {
    expect(add.parameters).toEqual({
      type: "object",
      properties: {
        left: { type: "number" },
        right: { type: "number" },
        note: { type: "string" },
      },
      required: ["left", "right"],
      additionalProperties: false,
    });
    expect(Object.isFrozen(add.parameters)).toBe(true);
    expect(Object.isFrozen(add.parameters?.properties)).toBe(true);
  });

  test("an explicit parameters option wins over the schema's own JSON Schema", () => {
    const explicit = { type: "object", properties: { left: { type: "number" } } };
    const tool = schemaTool({
      name: "add",
      description: "Add.",
      schema,
      execute,
      parameters: explicit,
    });
    expect(tool.parameters).toEqual(explicit);
  });

  test("JSON_SCHEMA_FAILED names the Tool when zod cannot write the schema", () => {
    const error = thrownBy(() =>
      schemaTool({
        name: "when",
        description: "Date.",
        schema: z.object({ at: z.date() }),
        execute,
      }),
    );
    expect(error.code).toBe("JSON_SCHEMA_FAILED");
    expect(error.toolName).toBe("when");
    expect(error.message).toContain('Tool "when"');
  });

  test("JSON_SCHEMA_FAILED for explicit parameters that are not plain JSON", () => {
    const error = thrownBy(() =>
      schemaTool({
        name: "add",
        description: "Add.",
        schema,
        execute,
        parameters: { type: "object", at: new Date(0) },
      }),
    );
    expect(error.code).toBe("JSON_SCHEMA_FAILED");
    expect(error.message).toContain("$.at");
  });

  test("the validated type reaches execute", () => {
    const typed = schemaTool({
      name: "typed",
      description: "Typed.",
      schema: z.object({ left: z.number() }),
      execute: async (input) => {
        const left: number = input.left;
        // @ts-expect-error: the schema has no `right`.
        return left + input.right;
      },
    });
    // Checked by the type checker (npm test runs it): the input type is the schema's.
    expectTypeOf(typed.execute).parameter(0).toEqualTypeOf<{ left: number }>();
    expect(typed.name).toBe("typed");
  });
});

describe("schemaTool with valibot 1", () => {
  const schema = v.strictObject({
    path: v.pipe(v.string(), v.minLength(1)),
    line: v.optional(v.number()),
  });

  test("needs an explicit parameters option: MISSING_JSON_SCHEMA names the fix", () => {
    const error = thrownBy(() =>
      schemaTool({ name: "read", description: "Read.", schema, execute }),
    );
    expect(error.code).toBe("MISSING_JSON_SCHEMA");
    expect(error.message).toContain("@valibot/to-json-schema");
  });

  const read = schemaTool({
    name: "read",
    description: "Read a file.",
    schema,
    parameters: toJsonSchema(schema),
    execute,
  });

  test("takes toJsonSchema output as parameters, its draft-07 $schema dropped", () => {
    expect(read.parameters).toEqual({
      type: "object",
      properties: { path: { type: "string", minLength: 1 }, line: { type: "number" } },
      required: ["path"],
      additionalProperties: false,
    });
  });

  test("validates and rejects with path: message, unknown keys included", () => {
    expect(read.validate({ path: "a.txt" })).toEqual({ ok: true, value: { path: "a.txt" } });
    expect(rejectedWith(read, { path: "", extra: 1 })).toBe(
      "path: Invalid length: Expected >=1 but received 0; extra: is not allowed (unknown key)",
    );
  });
});

describe("schemaTool with arktype 2", () => {
  const read = schemaTool({
    name: "read",
    description: "Read a file.",
    schema: type({ path: "string > 0", "line?": "number.integer", "+": "reject" }),
    execute,
  });

  test("validates and rejects without repeating the path", () => {
    expect(read.validate({ path: "a.txt", line: 3 })).toEqual({
      ok: true,
      value: { path: "a.txt", line: 3 },
    });
    expect(rejectedWith(read, { path: "", line: 1.5, extra: 1 })).toBe(
      "path: must be non-empty; line: must be an integer (was 1.5); extra: is not allowed (unknown key)",
    );
  });

  test("takes parameters from arktype's Standard JSON Schema", () => {
    expect(read.parameters).toEqual({
      type: "object",
      properties: { path: { type: "string", minLength: 1 }, line: { type: "integer" } },
      required: ["path"],
      additionalProperties: false,
    });
  });
});

describe("schemaTool refuses what is not a Standard Schema", () => {
  test.each<[string, unknown]>([
    ["a string", "z.object()"],
    ["null", null],
    ["a plain object", { parse: () => 1 }],
    ["a version 2 schema", { "~standard": { version: 2, vendor: "x", validate: () => ({}) } }],
    ["a schema without validate", { "~standard": { version: 1, vendor: "x" } }],
  ])("INVALID_SCHEMA for %s", (_label, schema) => {
    const error = thrownBy(() =>
      schemaTool({ name: "t", description: "T.", schema: schema as StandardSchemaV1, execute }),
    );
    expect(error.code).toBe("INVALID_SCHEMA");
    expect(error.toolName).toBe("t");
  });

  test("a raw TypeBox schema gets a pointer to fromTypeBox", () => {
    const error = thrownBy(() =>
      schemaTool({
        name: "t",
        description: "T.",
        schema: Type.Object({ a: Type.String() }) as unknown as StandardSchemaV1,
        execute,
      }),
    );
    expect(error.code).toBe("INVALID_SCHEMA");
    expect(error.message).toContain("fromTypeBox()");
  });

  test("SchemaToolError instances are frozen", () => {
    const error = thrownBy(() =>
      schemaTool({ name: "t", description: "T.", schema: null as never, execute }),
    );
    expect(Object.isFrozen(error)).toBe(true);
  });
});

describe("schemaTool reads the schema once", () => {
  test("reads ~standard once; replacing validate later changes nothing", () => {
    let reads = 0;
    const props = {
      version: 1 as const,
      vendor: "counting",
      validate: (value: unknown) => ({ value }),
    };
    const schema = {
      get "~standard"() {
        reads += 1;
        return props;
      },
    };
    const tool = schemaTool({
      name: "t",
      description: "T.",
      schema,
      parameters: { type: "object" },
      execute,
    });
    props.validate = () => ({ issues: [{ message: "swapped" }] }) as never;
    expect(tool.validate({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    tool.validate({ a: 2 });
    expect(reads).toBe(1);
  });

  test("writes the JSON Schema once, at definition time", () => {
    const input = vi.fn(() => ({ type: "object" }));
    const schema = {
      "~standard": {
        version: 1 as const,
        vendor: "counting",
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input, output: input },
      },
    };
    const tool = schemaTool({ name: "t", description: "T.", schema, execute });
    tool.validate({});
    tool.validate({});
    expect(input).toHaveBeenCalledTimes(1);
    expect(input).toHaveBeenCalledWith({ target: "draft-2020-12" });
  });
});

describe("schemaTool with dropNullOptionals", () => {
  const schema = z.object({ path: z.string(), line: z.number().optional() }).strict();

  test("without the option a null optional field is rejected as sent", () => {
    const tool = schemaTool({ name: "read", description: "Read.", schema, execute });
    expect(rejectedWith(tool, { path: "a", line: null })).toBe(
      "line: Invalid input: expected number, received null",
    );
  });

  test("with the option a null optional field counts as left out", () => {
    const tool = schemaTool({
      name: "read",
      description: "Read.",
      schema,
      execute,
      dropNullOptionals: true,
    });
    expect(tool.validate({ path: "a", line: null })).toEqual({ ok: true, value: { path: "a" } });
    // A required field is never dropped: null still reaches the schema and fails.
    expect(rejectedWith(tool, { path: null })).toBe(
      "path: Invalid input: expected string, received null",
    );
  });
});
