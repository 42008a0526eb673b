/**
 * The walk that checks parsed argument values: it counts exactly what
 * `JSON.stringify` writes, finds what a model can cause (depth, length,
 * non-finite numbers, lone surrogates), and runs no code of what host code
 * built: getters, Proxies and exotic objects are passed over and reported.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { plainJsonObject } from "../../test/property/support/json-arbitraries.ts";
import { hasLoneSurrogate, measureArgumentValue } from "./value-rules.ts";

/** Whether a string is not well-formed Unicode: encodeURIComponent refuses exactly those. */
function illFormed(text: string): boolean {
  try {
    encodeURIComponent(text);
    return false;
  } catch {
    return true;
  }
}

/** Whether any key or string of a JSON value holds a lone surrogate (the oracle). */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") return illFormed(value);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, child]) => illFormed(key) || holdsLoneSurrogate(child));
}

describe("what it counts", () => {
  test("for any plain JSON object, the length JSON.stringify writes, and a complete walk", () => {
    fc.assert(
      fc.property(plainJsonObject, (value) => {
        // Lone surrogates are refused; the rest must count exactly.
        const measured = measureArgumentValue(value, 256, Number.POSITIVE_INFINITY);
        if (measured.fault === "lone-surrogate") return holdsLoneSurrogate(value);
        return (
          measured.fault === undefined &&
          measured.characters === JSON.stringify(value).length &&
          measured.complete
        );
      }),
      { seed: 20_260_406, numRuns: 400 },
    );
  });

  test("entries JSON.stringify leaves out are left out, and the walk says it passed them over", () => {
    const value = { a: 1, gone: undefined, run: () => 1, b: [2] };
    expect(measureArgumentValue(value, 64, 1_000)).toEqual({
      fault: undefined,
      characters: JSON.stringify(value).length,
      complete: false,
    });
  });

  test.each([
    ["exactly the limit", 20, undefined],
    ["one under the text", 19, "long"],
  ])("a limit of %s", (_label, limit, fault) => {
    const value = { a: "x".repeat(12) };
    expect(JSON.stringify(value)).toHaveLength(20);
    expect(measureArgumentValue(value, 64, limit).fault).toBe(fault);
  });

  test.each([
    [2, undefined],
    [1, "deep"],
  ])("depth: an object holding an array nests 2 levels; a limit of %i", (maxDepth, fault) => {
    expect(measureArgumentValue({ a: [] }, maxDepth, 100).fault).toBe(fault);
  });
});

describe("what a model can cause", () => {
  test.each([
    ["Infinity", { n: [Number.POSITIVE_INFINITY] }, "not-finite"],
    ["NaN", { n: Number.NaN }, "not-finite"],
    ["a lone high surrogate in a string", { s: "a\ud800" }, "lone-surrogate"],
    ["a lone low surrogate in a key", { "\udc00": 1 }, "lone-surrogate"],
    ["two highs in a row", { s: "\ud800\ud800\udc00" }, "lone-surrogate"],
  ])("%s", (_label, value, fault) => {
    expect(measureArgumentValue(value, 64, 1_000).fault).toBe(fault);
  });

  test.each([
    ["", false],
    ["plain", false],
    ["\ud83d\ude00", false],
    ["\ud83d", true],
    ["\ude00", true],
    ["x\ud83dy", true],
    ["\ud83d\ud83d\ude00", true],
  ])("hasLoneSurrogate(%j) is %s", (text, lone) => {
    expect(hasLoneSurrogate(text)).toBe(lone);
  });
});

describe("what only host code builds is passed over, running nothing", () => {
  test("a getter never runs; the walk is incomplete", () => {
    let reads = 0;
    const value = Object.defineProperty({ a: 1 }, "b", {
      enumerable: true,
      get: () => {
        reads += 1;
        return 2;
      },
    });
    expect(measureArgumentValue(value, 64, 1_000)).toMatchObject({ complete: false });
    expect(reads).toBe(0);
  });

  test("no trap of a Proxy runs, nor of a Proxy used as a prototype", () => {
    let traps = 0;
    const handler = new Proxy(
      {},
      {
        get: () => {
          traps += 1;
          return undefined;
        },
      },
    );
    const proxied = new Proxy({}, handler);
    const onProxy = Object.create(new Proxy({}, handler)) as object;
    const measured = measureArgumentValue({ a: proxied, b: onProxy, c: 1 }, 64, 1_000);
    expect(measured).toMatchObject({ fault: undefined, complete: false });
    expect(traps).toBe(0);
  });

  test("a cycle is stepped over, not followed", () => {
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    expect(measureArgumentValue(cyclic, 64, 1_000)).toMatchObject({ complete: false });
  });

  test("a hole is passed over", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point.
    expect(measureArgumentValue({ a: [1, , 3] }, 64, 1_000)).toMatchObject({ complete: false });
  });

  test("shared parts are measured once: 2^40 paths are answered at once", () => {
    let shared: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 40; level += 1) shared = { l: shared, r: shared };
    const measured = measureArgumentValue(shared, 64, Number.POSITIVE_INFINITY);
    expect(measured).toMatchObject({ fault: undefined, complete: true });
    // {"leaf":true} is 13 characters; each level adds {"l":…,"r":…}, 11 around two copies.
    expect(measured.fault === undefined && measured.characters).toBe(
      13 * 2 ** 40 + 11 * (2 ** 40 - 1),
    );
  });

  test("a shared part too deep where it appears again is deep, though shallow where first met", () => {
    let chain: unknown = {};
    for (let level = 0; level < 10; level += 1) chain = [chain, chain];
    // chain nests 11 levels: fine under the root (12), too deep under 4 more arrays (16).
    expect(measureArgumentValue({ a: chain, b: [[[[chain]]]] }, 15, 1e9).fault).toBe("deep");
    expect(measureArgumentValue({ a: chain, b: [[[[chain]]]] }, 16, 1e9).fault).toBeUndefined();
  });
});
