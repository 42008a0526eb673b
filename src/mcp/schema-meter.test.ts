/**
 * Each check of a model's arguments counts the schema objects Ajv applies,
 * and stops past MAX_CHECK_STEPS: a `$ref` chain that applies its last
 * definition exponentially often, or an `anyOf` of many branches over many
 * items, is answered at once, with either pattern engine, and the marks that
 * count change nothing a schema means.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, test, vi } from "vitest";
import { executeToolCall, ToolRegistry } from "../../course/src/index.ts";
import { doubling } from "../../test/support/hostile-schemas.ts";
import { type ListedTool, useScriptedServers } from "../../test/support/mcp-client.ts";
import { countSteps } from "../../test/support/step-counter.ts";
import { fromMcpClient } from "./index.ts";
import { compileArgumentCheck, compileOutputCheck, loadAjv } from "./json-schema-check.ts";
import { linearTimePatterns } from "./linear-patterns.ts";
import { MAX_CHECK_STEPS, meteredSchema, STEP_KEYWORD } from "./schema-meter.ts";

const scripted = useScriptedServers();
const engine = await linearTimePatterns();
const ajv = await loadAjv();

afterEach(() => {
  vi.restoreAllMocks();
});

function checkOf(schema: Record<string, unknown>, regExp = engine) {
  const compiled = compileArgumentCheck(ajv, schema, regExp);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.check;
}

const REFUSAL = `arguments take too long to check against the Tool's schema (the check applies the schema's objects over ${MAX_CHECK_STEPS} times); send fewer values`;

describe("attacks on the check's work", () => {
  test.each([
    ["the linear-time engine", engine],
    ["the platform's RegExp", undefined],
  ])(
    "a $ref chain doubling 60 times stops past the bound, the schema's fault (%s)",
    (_engine, regExp) => {
      // 2^60 applications of the last definition to the value 1, from a schema of 3 KB: the
      // arguments' two values cannot explain it, so the Tool's validation fails.
      const steps = countSteps([ajv.draft07, ajv.draft2019, ajv.draft2020]);
      const check = checkOf(doubling(60), regExp);
      const MULTIPLIED = `the Tool's input schema cannot check 2 values within ${MAX_CHECK_STEPS} steps: its definitions apply each other many times over`;
      // At definition the code runs once on null: one step (the root's type fails there).
      expect(steps()).toBe(1);
      expect(() => check({ x: 1 })).toThrow(MULTIPLIED);
      expect(steps()).toBe(1 + MAX_CHECK_STEPS + 1);
      // The next check has the whole budget again, and stops at the same place.
      expect(() => check({ x: 1 })).toThrow(MULTIPLIED);
      expect(steps()).toBe(1 + 2 * (MAX_CHECK_STEPS + 1));
    },
  );

  test("through fromMcpClient, such a schema is TOOL_VALIDATION_FAILED and nothing is sent", async () => {
    const { client, log } = await scripted([
      { name: "lookup", inputSchema: doubling(60) as unknown as ListedTool["inputSchema"] },
    ]);
    const { tools } = await fromMcpClient(client);
    const result = await executeToolCall(
      new ToolRegistry(tools),
      { type: "toolCall", id: "c1", name: "lookup", arguments: { x: 1 } },
      new AbortController().signal,
    );
    expect(JSON.parse(result.content)).toEqual({
      error: {
        code: "TOOL_VALIDATION_FAILED",
        message: `the Tool's input schema cannot check 2 values within ${MAX_CHECK_STEPS} steps: its definitions apply each other many times over`,
      },
    });
    expect(log.calls).toHaveLength(0);
  });

  test("an anyOf of 900 branches over 10,000 items stops past the bound", () => {
    const steps = countSteps([ajv.draft07, ajv.draft2019, ajv.draft2020]);
    const branches = Array.from({ length: 900 }, (_, index) => ({ required: [`k${index}`] }));
    const check = checkOf({
      type: "object",
      properties: { rows: { type: "array", items: { anyOf: branches } } },
    });
    const rows = Array.from({ length: 10_000 }, () => ({ k899: 1 }));
    expect(check({ rows })).toBe(REFUSAL);
    // Applications counted: one on null at definition, then the check's; the list of 10,000
    // items weighs 156 more steps (one per 64).
    expect(steps()).toBe(1 + MAX_CHECK_STEPS + 1 - 156);
  });

  test("a long enum weighs on each item it is applied to", () => {
    // 6,400 values: each application is 131 steps (100 for the entries, 30 for their 30,891
    // characters), so 700 items are 91,700 and 2,000 items 262,000.
    const check = checkOf({
      type: "object",
      properties: {
        rows: {
          type: "array",
          items: { enum: Array.from({ length: 6_400 }, (_, index) => index) },
        },
      },
    });
    expect(check({ rows: Array.from({ length: 700 }, () => 6_399) })).toBeUndefined();
    expect(check({ rows: Array.from({ length: 2_000 }, () => 6_399) })).toBe(REFUSAL);
  });

  test("a long string weighs on each object applied to it", () => {
    // 1 MB: 1,025 steps for each of the 2^14 applications of the chain's last definition.
    const schema = doubling(14) as { $defs: Record<string, unknown> };
    schema.$defs.d14 = { minLength: 1 };
    const check = checkOf(schema as Record<string, unknown>);
    expect(check({ x: "a" })).toBeUndefined();
    // The string's own weight (976 steps) is in the arguments: refused as too long to check.
    expect(check({ x: "a".repeat(1_000_000) })).toBe(REFUSAL);
  });

  test("10,000 records of six fields are checked whole, within the bound", () => {
    const steps = countSteps([ajv.draft07, ajv.draft2019, ajv.draft2020]);
    const fields = ["id", "name", "email", "age", "city", "active"];
    const check = checkOf({
      type: "object",
      properties: {
        rows: {
          type: "array",
          items: {
            type: "object",
            properties: Object.fromEntries(fields.map((field) => [field, { type: "string" }])),
            required: fields,
          },
        },
      },
    });
    const row = Object.fromEntries(fields.map((field) => [field, "x"]));
    expect(check({ rows: Array.from({ length: 10_000 }, () => row) })).toBeUndefined();
    // One on null at definition; then the root, the array, and each record with its six fields.
    expect(steps()).toBe(1 + 2 + 10_000 * 7);
    expect(steps()).toBeLessThan(MAX_CHECK_STEPS);
  });
});

describe("attacks that fail early", () => {
  test.each([
    ["draft 2020-12", {}],
    ["draft-07", { $schema: "http://json-schema.org/draft-07/schema#" }],
  ])(
    "an anyOf chain whose every branch fails is counted: 2^30 tries stop at the bound (%s)",
    (_dialect, dialect) => {
      // Before, the step keyword ran after `anyOf`, so no failing branch was counted: 20
      // levels took 0.8 s for one step, and each level more doubled it.
      const steps = countSteps([ajv.draft07, ajv.draft2020]);
      const check = checkOf({ ...doubling(30, "anyOf", { type: "string" }), ...dialect });
      const atDefinition = steps();
      expect(() => check({ x: 1 })).toThrow(
        `the Tool's input schema cannot check 2 values within ${MAX_CHECK_STEPS} steps: its definitions apply each other many times over`,
      );
      expect(steps() - atDefinition).toBe(MAX_CHECK_STEPS + 1);
    },
  );

  test("a long enum of long entries weighs its text", () => {
    // 63 entries of 16 strings of 1,000 characters: 1 MB of enum, about 1,000 steps a try.
    const entry = Array.from({ length: 16 }, (_, index) => `${index}`.padEnd(1_000, "x"));
    const listed = Array.from({ length: 63 }, () => entry);
    const { weight } = meteredSchema({ enum: listed });
    expect(weight).toBe(1 + Math.floor(JSON.stringify(listed).length / 1_024));
    expect(weight).toBeGreaterThan(980);
  });
});

describe("the marks change nothing a schema means", () => {
  test("every object carries its weight unseen; the keys, and the server's schema, are unchanged", () => {
    const schema = {
      type: "object",
      properties: { enum: { type: "string" }, list: { items: { const: { a: 1 } } } },
      $defs: {
        d: { anyOf: [{ type: "null" }] },
        big: { enum: Array.from({ length: 130 }, String) },
      },
      enum: [{ a: 1 }],
      "x-vendor": { nested: {} },
      [STEP_KEYWORD]: "the server's own",
    };
    const before = JSON.stringify(schema);
    const copied = meteredSchema(schema).schema as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    const { [STEP_KEYWORD]: _own, ...listed } = schema;
    // What lists keys (Ajv's empty-schema test, `properties`, deep equality) sees the schema.
    expect(JSON.parse(JSON.stringify(copied))).toEqual(listed);
    expect(copied[STEP_KEYWORD]).toBe(1);
    expect(copied.properties?.enum?.[STEP_KEYWORD]).toBe(1);
    // 130 entries of `enum`: two more steps each time it is applied, and one for its 1,561
    // characters.
    expect(copied.$defs?.big?.[STEP_KEYWORD]).toBe(4);
    // Under data and unknown keywords too: a $ref may point there.
    expect((copied.enum as unknown as Record<string, unknown>[])[0]?.[STEP_KEYWORD]).toBe(1);
    expect(copied["x-vendor"]?.nested?.[STEP_KEYWORD]).toBe(1);
    expect(JSON.stringify(schema)).toBe(before);
  });

  // Each of these gave another answer than Ajv's own when the marks could be seen as keys.
  test.each([
    [
      "dependentRequired",
      { type: "object", dependentRequired: { a: ["b"] } },
      [{ a: 1 }, { a: 1, b: 2 }],
    ],
    [
      "unevaluatedItems after an empty contains",
      { unevaluatedItems: false, contains: {} },
      [[1], []],
    ],
    [
      "unevaluatedProperties after if/then",
      // As a server sends it: JSON text (a `then` key in a literal reads as a thenable).
      JSON.parse('{"unevaluatedProperties":false,"if":{"properties":{"a":true}},"then":{}}'),
      [{ a: 1 }, {}],
    ],
    [
      "unevaluatedItems after if/then",
      JSON.parse('{"unevaluatedItems":false,"if":{"prefixItems":[true]},"then":{}}'),
      [[1], []],
    ],
    [
      "a $ref to a map of properties",
      { properties: { const: { title: "c" }, x: { $ref: "#/properties" } } },
      [{ x: { const: 1 } }, { x: 1 }, { x: { x: 2 } }],
    ],
    [
      "a server's own key named like the unique keyword",
      { type: "array", "x-toolbound-unique-items": true },
      [[1, 1]],
    ],
  ])("%s: Ajv's own answers", (_what, schema, values) => {
    const reference = new Ajv2020({ strict: false }).compile(schema);
    const compiled = compileOutputCheck(ajv, schema as Record<string, unknown>, engine);
    if (!compiled.ok) throw new Error(compiled.reason);
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) {
      expect(compiled.check(value) === undefined, JSON.stringify(value)).toBe(reference(value));
    }
  });

  test("a $ref into data carries the weight: a doubling chain under `default` stops", () => {
    const chain = doubling(60) as { $defs: Record<string, unknown> };
    const text = JSON.stringify({ ...chain, $defs: undefined, default: chain.$defs }).replaceAll(
      "#/$defs/",
      "#/default/",
    );
    const check = checkOf(JSON.parse(text) as Record<string, unknown>);
    expect(() => check({ x: 1 })).toThrow(/cannot check 2 values within 100000 steps/);
  });

  test("a property named __proto__ stays a property of the copy, with Ajv's own answers", () => {
    // JSON text makes `__proto__` an own key; an assignment in the copy would make it a prototype.
    const text =
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}';
    const copied = meteredSchema(JSON.parse(text)).schema as { properties: object };
    expect(Object.hasOwn(copied.properties, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copied.properties)).toBe(Object.prototype);
    const check = checkOf(JSON.parse(text) as Record<string, unknown>);
    const reference = new Ajv2020({ strict: false }).compile(JSON.parse(text));
    for (const input of ['{"__proto__":1}', '{"__proto__":"a"}', '{"other":1}', "{}"]) {
      const value = JSON.parse(input) as unknown;
      const expected = reference(value)
        ? undefined
        : `arguments${reference.errors?.[0]?.instancePath} ${reference.errors?.[0]?.message}`;
      expect(check(value)?.replace(/ \(".*"\)$/, ""), input).toBe(expected);
    }
  });

  test.each([
    [
      "a property named like the mark, under additionalProperties: false",
      { [STEP_KEYWORD]: true },
      'arguments must NOT have additional properties ("x-toolbound-step")',
    ],
    [
      "an enum of objects, matched exactly",
      { choice: { a: 1, [STEP_KEYWORD]: true } },
      "arguments/choice must be equal to one of the allowed values",
    ],
    ["the same enum's own value", { choice: { a: 1 } }, undefined],
  ])("%s", (_what, input, expected) => {
    const check = checkOf({
      type: "object",
      properties: { choice: { enum: [{ a: 1 }] } },
      patternProperties: { "^c": true },
      additionalProperties: false,
    });
    expect(check(input)).toBe(expected);
  });
});
