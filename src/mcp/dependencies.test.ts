/**
 * `dependentRequired` (and draft-07's `dependencies` with lists of names):
 * Ajv writes such a list out name by name, each check nested in the one
 * before (1,000 names compiled in 0.6 s, 3,000 in 7 s and then ran the engine
 * out of stack), and neither the compile budget nor the step bound saw it. The
 * compiled copy holds each list as the subschema `{ required: names }`, which
 * means the same, is checked in a loop and is priced as a subschema.
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

describe("lists of names become subschemas", () => {
  test("one trigger with 600 names compiles as a loop and checks every name", () => {
    const compile = vi.spyOn(ajv.draft2020.prototype, "compile");
    const check = checkOf({ type: "object", dependentRequired: { t: names(600) } });
    const validate = compile.mock.results[0]?.value as { toString(): string };
    // Written out, each name was about 50 characters of code nested in the last.
    expect(validate.toString().length).toBeLessThan(10_000);
    const all = Object.fromEntries(names(600).map((name) => [name, 1]));
    expect(check({ t: 1, ...all })).toBeUndefined();
    expect(check({})).toBeUndefined();
    const { n599: _last, ...lacking } = all;
    expect(check({ t: 1, ...lacking })).toBe("arguments must have required property 'n599'");
  });

  test.each([
    ["where the copy rewrites it", { dependentRequired: { t: names(3_000) } }],
    [
      "where a $ref reaches it in data, which the copy leaves as it is",
      { $ref: "#/default", default: { dependentRequired: { t: names(3_000) } } },
    ],
    ["with one name that is not a string", { dependentRequired: { t: [...names(3_000), 0] } }],
  ])("attack: a list of 3,000 names is priced as written out, %s", (_where, schema) => {
    // Written out, 3,000 names compiled for 7 s and then ran the engine out of stack.
    const compiles = vi.spyOn(ajv.draft2020.prototype, "compile");
    expect(compileArgumentCheck(ajv, schema, undefined).ok).toBe(false);
    expect(compiles).not.toHaveBeenCalled();
  });

  test(`attack: 3,000 triggers of one name each are priced as 3,000 subschemas, refused before Ajv reads them`, () => {
    const compiles = vi.spyOn(ajv.draft2020.prototype, "compile");
    const triggers = Object.fromEntries(names(3_000).map((name) => [name, ["a"]]));
    expect(compileArgumentCheck(ajv, { dependentRequired: triggers }, undefined)).toEqual({
      ok: false,
      reason: `the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
    });
    expect(compiles).not.toHaveBeenCalled();
  });

  test("attack: lists that join a dependentSchemas map of the same triggers are priced as joined", () => {
    // 610 schemas and 610 lists under the same triggers: 1,220 subschemas and 610 allOf in
    // one map, which compiled for 0.5 to 0.8 s while priced as two maps of 610.
    const compiles = vi.spyOn(ajv.draft2020.prototype, "compile");
    const triggers = names(610);
    const schema = {
      dependentSchemas: Object.fromEntries(triggers.map((name) => [name, { type: "object" }])),
      dependentRequired: Object.fromEntries(triggers.map((name) => [name, ["a"]])),
    };
    expect(compileArgumentCheck(ajv, schema, undefined).ok).toBe(false);
    expect(compiles).not.toHaveBeenCalled();
  });

  test("the copy holds dependentSchemas, merged with the schema's own; the schema is unchanged", () => {
    const schema = {
      dependentRequired: { a: ["b"], odd: "not a list" },
      dependentSchemas: { a: { required: ["c"] }, d: { required: ["e"] } },
    };
    const before = JSON.stringify(schema);
    const copied = JSON.parse(JSON.stringify(meteredSchema(schema).schema));
    expect(copied).toEqual({
      dependentRequired: { odd: "not a list" },
      dependentSchemas: {
        a: { allOf: [{ required: ["c"] }, { required: ["b"] }] },
        d: { required: ["e"] },
      },
    });
    expect(JSON.stringify(schema)).toBe(before);
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
  ];
  const values: unknown[] = [
    {},
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
