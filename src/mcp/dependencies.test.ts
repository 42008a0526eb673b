/**
 * `dependentRequired` (and draft-07's `dependencies` with lists of names):
 * Ajv writes such a list out name by name, each check nested in the one
 * before (1,000 names compiled in 0.6 s, 3,000 in 7 s and then ran the engine
 * out of stack), and neither the compile budget nor the step bound saw it.
 * Ajv now expands each keyword, wherever it compiles one, into what it means
 * (`if` the trigger is there, `then` the list as `required`, checked in a
 * loop), priced before it reads the schema; the schema is left as it is.
 */
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, test, vi } from "vitest";
import { compileArgumentCheck, loadAjv } from "./json-schema-check.ts";
import { MAX_SCHEMA_COMPILE_COST } from "./pattern-budgets.ts";
import { meteredSchema } from "./schema-meter.ts";

const ajv = await loadAjv();

afterEach(() => {
  vi.restoreAllMocks();
});

const names = (count: number) => Array.from({ length: count }, (_, index) => `n${index}`);

function checkOf(schema: Record<string, unknown>) {
  const compiled = compileArgumentCheck(ajv, schema, undefined);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.check;
}

describe("Ajv expands the keywords into what they mean", () => {
  test.each([
    ["in the schema", { type: "object", dependentRequired: { t: names(3_000) } }],
    [
      "where a $ref reaches it in data",
      { $ref: "#/default", default: { dependentRequired: { t: names(3_000) } } },
    ],
    ["with an entry that is not a string", { dependentRequired: { t: [...names(3_000), 0] } }],
    [
      "under draft-07's dependencies",
      { $schema: "http://json-schema.org/draft-07/schema#", dependencies: { t: names(3_000) } },
    ],
  ])(
    "attack: a list of 3,000 names compiles as a loop and checks every name, %s",
    (_where, schema) => {
      // Written out, 3,000 names compiled for 7 s and then ran the engine out of stack.
      const compiles = [ajv.draft07, ajv.draft2020].map((Class) =>
        vi.spyOn(Class.prototype, "compile"),
      );
      const check = checkOf(schema);
      const validate = compiles.flatMap((spy) => spy.mock.results)[0]?.value as {
        toString(): string;
      };
      expect(validate.toString().length).toBeLessThan(20_000);
      const all = Object.fromEntries(names(3_000).map((name) => [name, 1]));
      expect(check({ t: 1, ...all, 0: 1 })).toBeUndefined();
      expect(check({})).toBeUndefined();
      const { n2999: _last, ...lacking } = all;
      expect(check({ t: 1, ...lacking, 0: 1 })).toBe(
        "arguments must have required property 'n2999'",
      );
    },
  );

  test(`attack: 3,000 triggers of one name each are priced as an allOf of 3,000, refused before Ajv reads them`, () => {
    const compiles = vi.spyOn(ajv.draft2020.prototype, "compile");
    const triggers = Object.fromEntries(names(3_000).map((name) => [name, ["a"]]));
    expect(compileArgumentCheck(ajv, { dependentRequired: triggers }, undefined)).toEqual({
      ok: false,
      reason: `the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
    });
    expect(compiles).not.toHaveBeenCalled();
  });

  test("the compiled copy leaves the keywords as they are", () => {
    const schema = {
      dependentRequired: { a: ["b"] },
      dependentSchemas: { a: { required: ["c"] } },
      dependencies: { d: ["e"] },
    };
    expect(JSON.parse(JSON.stringify(meteredSchema(schema).schema))).toEqual(schema);
  });
});

describe("they mean what Ajv's own reading means", () => {
  const ajv2020 = new Ajv2020({ strict: false, logger: false });
  const ajv07 = new Ajv({ strict: false, logger: false });
  const draft07 = "http://json-schema.org/draft-07/schema#";
  const schemas: [string, Record<string, unknown>, Ajv | Ajv2020][] = [
    ["dependentRequired", { dependentRequired: { a: ["b", "c"] } }, ajv2020],
    [
      "dependentRequired beside dependentSchemas on one trigger",
      {
        dependentRequired: { a: ["b"] },
        dependentSchemas: { a: { properties: { b: { type: "number" } } } },
      },
      ajv2020,
    ],
    ["a trigger named __proto__", JSON.parse('{"dependentRequired":{"__proto__":["b"]}}'), ajv2020],
    [
      "draft-07 dependencies, lists and schemas",
      { $schema: draft07, dependencies: { a: ["b"], c: { required: ["d"] } } },
      ajv07,
    ],
    [
      "a $ref into dependentSchemas beside dependentRequired",
      {
        properties: { x: { $ref: "#/dependentSchemas/a" } },
        dependentSchemas: { a: { type: "object" } },
        dependentRequired: { a: ["b"] },
      },
      ajv2020,
    ],
    [
      "a $ref into a list under dependencies",
      {
        $schema: draft07,
        properties: { x: { $ref: "#/dependencies/a" } },
        dependencies: { a: ["b"] },
      },
      ajv07,
    ],
    [
      "dependentRequired in draft-07, which ignores it",
      { $schema: draft07, dependentRequired: { a: ["b"] } },
      ajv07,
    ],
    [
      "beside unevaluatedProperties",
      {
        dependentSchemas: { a: { properties: { b: true } } },
        dependentRequired: { a: ["b"] },
        unevaluatedProperties: false,
        properties: { a: true },
      },
      ajv2020,
    ],
  ];
  const values: unknown[] = [
    {},
    { x: {} },
    { x: { a: 1 } },
    { a: 1, z: 1 },
    { a: 1 },
    { a: 1, b: 1 },
    { a: 1, b: "x", c: 1 },
    { a: 1, b: 2, c: 3 },
    { c: 1 },
    { c: 1, d: 1 },
    JSON.parse('{"__proto__":1}'),
    JSON.parse('{"__proto__":1,"b":1}'),
    "not an object",
  ];

  test("the tables are not empty", () => {
    expect(schemas.length).toBeGreaterThan(0);
    expect(values.length).toBeGreaterThan(0);
  });

  test.each(schemas)("%s", (_what, schema, reference) => {
    const check = checkOf(schema);
    const theirs = reference.compile(schema);
    for (const value of values) {
      expect([value, check(value) === undefined]).toEqual([value, theirs(value) === true]);
    }
  });
});
