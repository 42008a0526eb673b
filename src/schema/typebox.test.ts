import { Type } from "typebox";
import { describe, expect, expectTypeOf, test, vi } from "vitest";
import { thrownBy } from "../../test/support/schema.ts";
import { schemaTool } from "./index.ts";
import { fromTypeBox } from "./typebox.ts";

// The real compiler, wrapped to count how often it runs.
const compileCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("typebox/compile", async (importOriginal) => {
  const original = await importOriginal<typeof import("typebox/compile")>();
  return {
    ...original,
    Compile: (...args: Parameters<typeof original.Compile>) => {
      compileCalls.count += 1;
      return Reflect.apply(original.Compile, undefined, args);
    },
  };
});

const execute = async (input: unknown) => input;

function rejectedWith(tool: { validate: (input: unknown) => unknown }, input: unknown): string {
  const decision = tool.validate(input) as { ok: boolean; error?: string };
  expect(decision.ok).toBe(false);
  return decision.error ?? "";
}

const Edit = Type.Object(
  {
    path: Type.String({ minLength: 1 }),
    mode: Type.Union([Type.Literal("append"), Type.Literal("replace")]),
    lines: Type.Optional(Type.Array(Type.Integer())),
  },
  { additionalProperties: false },
);

describe("fromTypeBox with schemaTool", () => {
  test("compiles the checker once at definition time, never per call", () => {
    const before = compileCalls.count;
    const edit = schemaTool({
      name: "edit",
      description: "Edit.",
      schema: fromTypeBox(Edit),
      execute,
    });
    expect(compileCalls.count - before).toBe(1);
    for (let index = 0; index < 5; index += 1) edit.validate({ path: "a", mode: "append" });
    rejectedWith(edit, { path: 1 });
    expect(compileCalls.count - before).toBe(1);
  });

  const edit = schemaTool({
    name: "edit",
    description: "Edit a file.",
    schema: fromTypeBox(Edit),
    execute,
  });

  test("accepts valid arguments as they are", () => {
    const input = { path: "a.txt", mode: "append", lines: [1, 2] };
    expect(edit.validate(input)).toEqual({ ok: true, value: input });
  });

  test("reports a wrong type with what was received", () => {
    expect(rejectedWith(edit, { path: 7, mode: "append" })).toBe(
      "path: must be string (received number)",
    );
  });

  test("reports each missing and each unknown key on its own path", () => {
    expect(rejectedWith(edit, { extra: 1, other: 2 })).toBe(
      "path: is required; mode: is required; extra: is not allowed (unknown key); other: is not allowed (unknown key)",
    );
  });

  test("reports a union of literals once, listing the allowed values", () => {
    expect(rejectedWith(edit, { path: "a", mode: "delete" })).toBe(
      'mode: must be one of "append", "replace"',
    );
  });

  test("reports array elements with numeric indexes", () => {
    expect(rejectedWith(edit, { path: "a", mode: "append", lines: [1, 2.5, "x"] })).toBe(
      "lines[1]: must be integer (received number); lines[2]: must be integer (received string)",
    );
  });

  test("reports constraint failures with TypeBox's message", () => {
    expect(rejectedWith(edit, { path: "", mode: "append" })).toBe(
      "path: must not have fewer than 1 characters",
    );
  });

  test("reports a union of objects once, without its branches' noise", () => {
    const shape = schemaTool({
      name: "shape",
      description: "Shape.",
      schema: fromTypeBox(
        Type.Object({
          shape: Type.Union([
            Type.Object({ kind: Type.Literal("circle"), radius: Type.Number() }),
            Type.Object({ kind: Type.Literal("square"), side: Type.Number() }),
          ]),
        }),
      ),
      execute,
    });
    expect(rejectedWith(shape, { shape: { kind: "circle", radius: "big" } })).toBe(
      "shape: does not match any of the allowed shapes",
    );
  });

  test("uses the TypeBox schema itself as parameters", () => {
    expect(edit.parameters).toEqual({
      type: "object",
      required: ["path", "mode"],
      properties: {
        path: { type: "string", minLength: 1 },
        mode: {
          anyOf: [
            { type: "string", const: "append" },
            { type: "string", const: "replace" },
          ],
        },
        lines: { type: "array", items: { type: "integer" } },
      },
      additionalProperties: false,
    });
  });

  test("does not coerce by default: the string 42 is not a number", () => {
    const count = schemaTool({
      name: "count",
      description: "Count.",
      schema: fromTypeBox(Type.Object({ n: Type.Number() })),
      execute,
    });
    expect(rejectedWith(count, { n: "42" })).toBe("n: must be number (received string)");
  });

  test("coerces when asked, on a copy of the frozen arguments", () => {
    const count = schemaTool({
      name: "count",
      description: "Count.",
      schema: fromTypeBox(Type.Object({ n: Type.Number() }), { coerce: true }),
      execute,
    });
    const input = Object.freeze({ n: "42" });
    expect(count.validate(input)).toEqual({ ok: true, value: { n: 42 } });
    expect(input).toEqual({ n: "42" });
  });

  test("the static type reaches execute", () => {
    const typed = schemaTool({
      name: "typed",
      description: "Typed.",
      schema: fromTypeBox(Type.Object({ n: Type.Number() })),
      execute: async (input) => {
        const n: number = input.n;
        // @ts-expect-error: the schema has no `m`.
        return n + input.m;
      },
    });
    // Checked by the type checker (npm test runs it): the input type is the schema's.
    expectTypeOf(typed.execute).parameter(0).toEqualTypeOf<{ n: number }>();
    expect(typed.name).toBe("typed");
  });
});

describe("fromTypeBox refuses what it cannot use", () => {
  test("INVALID_SCHEMA for a schema that is not plain JSON", () => {
    const error = thrownBy(() => fromTypeBox({ ...Type.Object({}), default: new Date(0) }));
    expect(error.code).toBe("INVALID_SCHEMA");
    expect(error.message).toContain("$.default: Date objects are not supported");
  });

  test("INVALID_SCHEMA when TypeBox cannot compile the schema", () => {
    const error = thrownBy(() => fromTypeBox(Type.String({ pattern: "(" })));
    expect(error.code).toBe("INVALID_SCHEMA");
    expect(error.message).toContain("TypeBox could not compile the schema");
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });
});
