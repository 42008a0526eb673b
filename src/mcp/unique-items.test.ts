/**
 * `uniqueItems` behind the boundary: linear in the items, with Ajv's own
 * answer. Ajv compares every pair of items whose type is not declared
 * scalar, so a model's array of 20,000 strings took 1.5 s.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect, test } from "vitest";
import { compileArgumentCheck, compileOutputCheck, loadAjv } from "./json-schema-check.ts";
import { linearTimePatterns } from "./linear-patterns.ts";
import { MAX_CHECK_STEPS } from "./schema-meter.ts";

const engine = await linearTimePatterns();
const ajv = await loadAjv();
const SCHEMA = { type: "object", properties: { list: { type: "array", uniqueItems: true } } };

function checkOf(schema: Record<string, unknown>) {
  const compiled = compileArgumentCheck(ajv, schema, engine);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.check;
}

test("attack: 2,000 distinct objects are each read once, not once per pair", () => {
  let reads = 0;
  const list = Array.from({ length: 2_000 }, (_, index) => ({
    get v() {
      reads += 1;
      return `item ${index}`;
    },
  }));
  expect(checkOf(SCHEMA)({ list })).toBeUndefined();
  // Compared in pairs, as Ajv does, the getters ran about 4,000,000 times.
  expect(reads).toBe(2_000);
});

// Ajv's own `uniqueItems`, for the answers ours must give.
const reference = new Ajv2020({ strict: false }).compile(SCHEMA);

test.each([
  ["distinct scalars", [1, "1", true, null, "true"]],
  ["a repeated number", [1, 2, 1]],
  ["two repeats: the last is named", [1, 2, 1, 2]],
  [
    "objects equal in any key order",
    [
      { a: 1, b: [2, { c: 3 }] },
      { b: [2, { c: 3 }], a: 1 },
    ],
  ],
  [
    "arrays in another order",
    [
      [1, 2],
      [2, 1],
    ],
  ],
  ["zero and negative zero", [0, -0]],
  ["an empty list", []],
])("%s: the same answer as Ajv's own", (_what, list) => {
  const expected = reference({ list })
    ? undefined
    : `arguments/list ${reference.errors?.[0]?.message}`;
  expect(checkOf(SCHEMA)({ list })).toBe(expected);
});

test("uniqueItems: false, and a list without it, take repeats", () => {
  const loose = { type: "object", properties: { list: { type: "array", uniqueItems: false } } };
  expect(checkOf(loose)({ list: [1, 1] })).toBeUndefined();
  expect(checkOf({ type: "object" })({ list: [1, 1] })).toBeUndefined();
});

test("a number JSON cannot write is not taken for null", () => {
  // 1e999 in a server's JSON reads as Infinity; JSON.stringify writes it as null.
  const compiled = compileOutputCheck(ajv, { type: "array", uniqueItems: true }, engine);
  if (!compiled.ok) throw new Error(compiled.reason);
  expect(compiled.check(JSON.parse("[1e999, null]"))).toBeUndefined();
  expect(compiled.check(JSON.parse("[1e999, 1e999]"))).toMatch(/items ## 0 and 1 are identical/);
});

test("attack: a schema that applies itself to nested lists pays for the text it writes again", () => {
  // Each level writes its items' text anew: 200 levels of a 100 KB list wrote 20 MB.
  const schema = {
    type: "object",
    properties: { x: { $ref: "#/$defs/n" } },
    $defs: { n: { uniqueItems: true, items: { $ref: "#/$defs/n" } } },
  };
  let nested: unknown = ["y".repeat(100_000)];
  for (let level = 0; level < 200; level += 1) nested = [nested];
  // Stopped at the step bound: few values, so the work is put down to the schema.
  expect(() => checkOf(schema)({ x: nested })).toThrow(
    `the Tool's input schema cannot check 203 values within ${MAX_CHECK_STEPS} steps`,
  );
});
