/**
 * Generators of plain JSON values for the differential properties: hostile
 * keys (`__proto__`, `constructor`, numeric-looking keys), strings full of
 * quotes, control characters, surrogate pairs and lone surrogates, awkward
 * numbers, and sizes that land on both sides of every serializer budget.
 */

import fc from "fast-check";

/** A JSON value as the engine's own `JSON.parse` would build it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((unit) => String.fromCharCode(unit));
const astral = fc
  .integer({ min: 0x10000, max: 0x10ffff })
  .map((point) => String.fromCodePoint(point));
const control = fc.integer({ min: 0, max: 0x1f }).map((unit) => String.fromCharCode(unit));
const bmp = fc.integer({ min: 0x7f, max: 0xd7ff }).map((unit) => String.fromCharCode(unit));

/** One code unit or code point, biased towards what needs escaping or pairing. */
export const awkwardUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('"', "\\", "/", "\u2028", "\u2029", "\u007f") },
  { weight: 2, arbitrary: control },
  { weight: 2, arbitrary: astral },
  { weight: 2, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: bmp },
);

/** Short strings made of awkward units. */
export const awkwardString: fc.Arbitrary<string> = fc.string({ unit: awkwardUnit, maxLength: 24 });

/** Occasionally long strings: a short seed repeated, so the string budget is reached. */
export const longString: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ unit: awkwardUnit, minLength: 1, maxLength: 4 }),
    fc.integer({ min: 1, max: 1600 }),
  )
  .map(([seed, times]) => seed.repeat(times));

/** Object keys, including the ones that trip naive code. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "toJSON",
      "hasOwnProperty",
      "then",
      "",
      "0",
      "2",
      "10",
      "-1",
      "1e3",
      "a\u0000b",
    ),
  },
  { weight: 5, arbitrary: awkwardString },
);

/** Numbers that format in every way `String(n)` can: integers, exponents, -0, extremes. */
export const awkwardNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2),
);

/** Builds an object with own data properties, so `__proto__` stays an ordinary key. */
export function jsonObject(entries: ReadonlyArray<readonly [string, Json]>): {
  [key: string]: Json;
} {
  const target: { [key: string]: Json } = {};
  for (const [key, value] of entries) {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return target;
}

const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 3, arbitrary: fc.constantFrom<Json>(null, true, false) },
    { weight: 3, arbitrary: awkwardNumber },
    { weight: 4, arbitrary: awkwardString },
    { weight: 1, arbitrary: longString },
    { weight: 2, arbitrary: fc.array(tie("json"), { maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc
        .uniqueArray(fc.tuple(hostileKey, tie("json")), {
          maxLength: 40,
          selector: ([key]) => key,
        })
        .map(jsonObject),
    },
  ),
}));

/** A chain of nested arrays or objects around a leaf, near the depth budget of 32. */
export const deepJson: fc.Arbitrary<Json> = fc
  .tuple(fc.integer({ min: 26, max: 38 }), fc.boolean(), json)
  .map(([depth, arrays, leaf]) => {
    let value: Json = leaf;
    for (let level = 0; level < depth; level += 1) {
      value = arrays ? [value] : jsonObject([["k", value]]);
    }
    return value;
  });

/** Plain JSON values of every shape, about half of them beyond some budget. */
export const plainJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 8, arbitrary: json },
  { weight: 1, arbitrary: deepJson },
);

/** Plain JSON objects, as Tool call arguments must be. */
export const plainJsonObject: fc.Arbitrary<{ [key: string]: Json }> = fc
  .uniqueArray(fc.tuple(hostileKey, plainJson), { maxLength: 8, selector: ([key]) => key })
  .map(jsonObject);
