/**
 * What a server's schema costs to compile before any pattern: Ajv writes code
 * for each object, so the objects are counted and paid for before Ajv reads
 * the schema, whichever engine runs its patterns; and a `$ref` is compiled
 * once, not pasted into every place that uses it.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { compileArgumentCheck, loadAjv } from "./json-schema-check.ts";
import { linearTimePatterns } from "./linear-patterns.ts";
import { CompileAccount, MAX_SCHEMA_COMPILE_COST, SCHEMA_OBJECT_COST } from "./pattern-budgets.ts";
import { schemaShape } from "./schema-structure.ts";

const engine = await linearTimePatterns();
const ajv = await loadAjv();
const MOST_OBJECTS = MAX_SCHEMA_COMPILE_COST / SCHEMA_OBJECT_COST;

afterEach(() => {
  vi.restoreAllMocks();
});

/** An object schema of `count` string properties: `count + 2` objects. */
function flat(count: number, property: (index: number) => object = () => ({ type: "string" })) {
  return {
    type: "object",
    properties: Object.fromEntries(
      Array.from({ length: count }, (_, index) => [`p${index}`, property(index)]),
    ),
  };
}

/** Counts Ajv's compiles of every dialect's class. */
function spyOnAjvCompiles(): () => number {
  const spies = [ajv.draft07, ajv.draft2019, ajv.draft2020].map((Class) =>
    vi.spyOn(Class.prototype, "compile"),
  );
  return () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
}

describe("schemaShape", () => {
  test.each([
    ["a bare object", {}, 1],
    ["an object with two properties", flat(2), 4],
    ["arrays are walked, not counted", { anyOf: [{}, {}, [{}]] }, 4],
    ["primitives are not counted", { type: "string", enum: ["a", 1, null, true] }, 1],
    ["not an object", "string", 0],
  ])("%s", (_what, schema, expected) => {
    expect(schemaShape(schema, 100).objects).toBe(expected);
  });

  test.each([
    ["ten properties", flat(10), 1],
    ["a hundred properties", flat(100), 100],
    [
      "an allOf of 50, each of two",
      { allOf: Array.from({ length: 50 }, () => flat(2)) },
      25 + 50 * 0,
    ],
  ])("crowding of %s", (_what, schema, expected) => {
    expect(schemaShape(schema, 10_000).crowding).toBe(expected);
  });

  test.each([
    ["a $ref", { $ref: "#" }, true],
    ["a $dynamicRef under properties", { properties: { a: { $dynamicRef: "#node" } } }, true],
    ["a $recursiveRef in an array", { anyOf: [{ $recursiveRef: "#" }] }, true],
    ["no reference", flat(3), false],
    ["the word as a value only", { enum: ["$ref"], const: "$dynamicRef" }, false],
    ["uniqueItems: true", { items: { type: "array", uniqueItems: true } }, true],
    ["uniqueItems: false", { uniqueItems: false }, false],
    ["uniqueItems inherited", Object.create({ uniqueItems: true }), false],
  ])("whether its check follows the value down: %s", (_what, schema, expected) => {
    expect(schemaShape(schema, 100).followsValues).toBe(expected);
  });

  test("stops once the count passes the limit", () => {
    expect(schemaShape(flat(10_000), 50).objects).toBe(51);
  });

  test("attack: a value that refers to itself ends at the limit", () => {
    const looped: Record<string, unknown> = { type: "object" };
    looped.properties = { self: looped };
    expect(schemaShape(looped, 1_000).objects).toBe(1_001);
  });

  test("attack: an array that holds itself ends the walk past 1,024 levels", () => {
    const looped: unknown[] = [];
    looped.push(looped);
    const entries = vi.spyOn(Object, "entries");
    expect(schemaShape({ allOf: looped }, 1_000)).toMatchObject({ objects: 1, nesting: 1_025 });
    // The object and the array at each level up to 1,024: read once each.
    expect(entries).toHaveBeenCalledTimes(1_024);
  });

  test("8,000 pairs of numbers in an example are no reason to stop", () => {
    const polygon = Array.from({ length: 8_000 }, (_, index) => [index, index + 1]);
    const shape = schemaShape({ type: "array", examples: [polygon] }, MOST_OBJECTS);
    expect(shape).toMatchObject({ objects: 1, nesting: 4 });
    expect(compileArgumentCheck(ajv, { type: "array", examples: [polygon] }, undefined).ok).toBe(
      true,
    );
  });

  test("attack: 100,000 levels deep stop the walk past 1,024, without recursion", () => {
    let schema: object = { type: "string" };
    for (let level = 0; level < 100_000; level += 1) schema = { items: schema };
    expect(schemaShape(schema, 1_000_000)).toMatchObject({ objects: 1_024, nesting: 1_025 });
  });
});

describe("compiling a server's schema", () => {
  test.each([
    ["the linear-time engine", engine],
    ["the platform's RegExp", undefined],
  ])(
    `attack: over ${MOST_OBJECTS} objects is refused before Ajv reads it (%s)`,
    (_engine, regExp) => {
      const compiles = spyOnAjvCompiles();
      const schema = flat(MOST_OBJECTS);
      expect(schemaShape(schema, Number.POSITIVE_INFINITY).objects).toBe(MOST_OBJECTS + 2);
      expect(compileArgumentCheck(ajv, schema, regExp)).toEqual({
        ok: false,
        reason: `the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
      });
      expect(compiles()).toBe(0);
    },
  );

  test("900 properties in one object fit a schema's budget; 1,000 are refused before Ajv reads them", () => {
    // 9,020 for the objects and 8,100 for the crowding; 10,020 and 10,000.
    expect(compileArgumentCheck(ajv, flat(900), engine).ok).toBe(true);
    const compiles = spyOnAjvCompiles();
    expect(compileArgumentCheck(ajv, flat(1_000), engine)).toEqual({
      ok: false,
      reason: `the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
    });
    expect(compiles()).toBe(0);
  });

  test("a listing's schemas share one budget for their objects", () => {
    const listing = new CompileAccount(20_000, "the server's schemas, all Tools together,");
    const reasons = Array.from({ length: 3 }, () => {
      const compiled = compileArgumentCheck(ajv, flat(500), undefined, listing);
      return compiled.ok ? "ok" : compiled.reason;
    });
    // Each schema is 502 objects and 500 properties in one map: 5,020 + 2,500. Two fit in 20,000.
    expect(reasons.slice(0, 2)).toEqual(["ok", "ok"]);
    expect(reasons[2]).toMatch(/^the server's schemas, all Tools together, cost more than 20000/);
  });

  test("attack: a definition referenced 100 times is compiled once, not pasted 100 times", () => {
    // 100 references to a 100-property definition: 6.6 KB of schema, 205 objects. Pasted into
    // each place that uses it, Ajv wrote about 6 MB of code for it, in over 2 seconds.
    const schema = {
      $defs: { entry: flat(100, () => ({ type: "string", maxLength: 5 })) },
      ...flat(100, () => ({ $ref: "#/$defs/entry" })),
    };
    expect(schemaShape(schema, Number.POSITIVE_INFINITY).objects).toBe(205);
    const compiled = compileArgumentCheck(ajv, schema, engine);
    if (!compiled.ok) throw new Error(compiled.reason);
    const ajvCompile = vi.spyOn(ajv.draft2020.prototype, "compile");
    const again = compileArgumentCheck(ajv, schema, engine);
    expect(again.ok).toBe(true);
    const validate = ajvCompile.mock.results[0]?.value as { toString(): string };
    // The generated code, counted: the definition's code once, 100 calls to it.
    expect(validate.toString().length).toBeLessThan(200_000);
    expect(compiled.check({ p0: { p0: "short" } })).toBeUndefined();
    expect(compiled.check({ p0: { p0: "too long" } })).toBe(
      "arguments/p0/p0 must NOT have more than 5 characters",
    );
  });

  test("attack: 1,990 subschemas in one allOf are refused before Ajv reads them", () => {
    // Ajv nests each sibling's code in the one before: compiled, this overflowed the engine's
    // stack on every call (0.7 s each), after 0.6 s of compiling.
    const compiles = spyOnAjvCompiles();
    const schema = {
      type: "object",
      allOf: Array.from({ length: 1_990 }, () => ({ type: "object" })),
    };
    expect(schemaShape(schema, Number.POSITIVE_INFINITY).crowding).toBe(39_601);
    const compiled = compileArgumentCheck(ajv, schema, undefined);
    expect(compiled.ok).toBe(false);
    expect(compiles()).toBe(0);
  });

  test.each([
    ["const", (value: unknown) => ({ const: value })],
    ["enum", (value: unknown) => ({ enum: [value] })],
    ["default", (value: unknown) => ({ type: "object", default: value })],
  ])(
    "attack: arrays nested 3,000 deep under %s are refused before Ajv reads them",
    (_key, wrap) => {
      // Before, Ajv's compile ran out of the engine's stack on it.
      const compiles = spyOnAjvCompiles();
      let value: unknown = 1;
      for (let level = 0; level < 3_000; level += 1) value = [value];
      const schema = wrap(value) as Record<string, unknown>;
      // The walk stops past 1,024 levels: far enough to refuse.
      expect(schemaShape(schema, MOST_OBJECTS).nesting).toBe(1_025);
      expect(compileArgumentCheck(ajv, schema, undefined)).toEqual({
        ok: false,
        reason: "its objects and arrays nest 1025 deep, over 256",
      });
      expect(compiles()).toBe(0);
    },
  );

  test.each([
    [256, true],
    [257, false],
  ])("a const nested %i deep in all (the root object included) compiles: %s", (nesting, ok) => {
    let value: unknown = 1;
    for (let level = 1; level < nesting; level += 1) value = [value];
    const schema = { const: value };
    expect(schemaShape(schema, 100).nesting).toBe(nesting);
    expect(compileArgumentCheck(ajv, schema, undefined).ok).toBe(ok);
  });

  test("objects and arrays nested 256 deep together compile", () => {
    let schema: Record<string, unknown> = { type: "string" };
    // Each level is an object and the allOf array holding it: 2 levels of nesting.
    for (let level = 1; level < 128; level += 1) schema = { allOf: [schema] };
    expect(schemaShape(schema, 1_000)).toMatchObject({ depth: 128, nesting: 255 });
    expect(compileArgumentCheck(ajv, schema, undefined).ok).toBe(true);
  });

  test("attack: objects nested 250 deep are refused before Ajv reads them", () => {
    const compiles = spyOnAjvCompiles();
    let schema: object = { type: "string" };
    for (let level = 0; level < 125; level += 1) schema = { properties: { a: schema } };
    expect(compileArgumentCheck(ajv, schema as Record<string, unknown>, undefined)).toEqual({
      ok: false,
      reason: "its objects nest 251 deep, over 128",
    });
    expect(compiles()).toBe(0);
  });

  test("code the engine cannot run is found at definition, not on every call", () => {
    // Whatever shape gets past the budgets, the compiled code runs once on null first.
    vi.spyOn(ajv.draft2020.prototype, "compile").mockImplementation(
      () =>
        Object.assign(
          () => {
            throw new RangeError("Maximum call stack size exceeded");
          },
          { errors: null },
        ) as never,
    );
    expect(compileArgumentCheck(ajv, { type: "object" }, undefined)).toEqual({
      ok: false,
      reason: "its checking code nests too deeply to run (Maximum call stack size exceeded)",
    });
  });

  test("a long required list is checked in a loop, not written out name by name", () => {
    const compile = vi.spyOn(ajv.draft2020.prototype, "compile");
    const required = Array.from({ length: 1_000 }, (_, index) => `name${index}`);
    const compiled = compileArgumentCheck(ajv, { type: "object", required }, engine);
    if (!compiled.ok) throw new Error(compiled.reason);
    const validate = compile.mock.results[0]?.value as { toString(): string };
    // Written out, each name was about 150 characters of code: 150,000 in all.
    expect(validate.toString().length).toBeLessThan(10_000);
    expect(compiled.check({})).toBe("arguments must have required property 'name0'");
  });
});
