/**
 * Pins how a location inside a Tool call or output is written in messages:
 * which keys count as identifiers (dot form) and which are quoted (bracket
 * form), how quotes, backslashes and control characters are written inside
 * brackets, how a long key is shortened, and that a trail gathered while a
 * walk unwinds (innermost segment first) is written root first. The same
 * rules are checked end to end, through a refused argument and a refused
 * output nested past the walks' four preallocated levels, and once on a
 * freshly loaded copy (the identifier pattern is built at load). The refusal
 * that carries a trail is recognised without running any code of what was
 * thrown, and its trail is built without consulting Array.prototype.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { serializeToolOutput, snapshotToolCall } from "../../src/index.ts";
import { formatJsonTrail, PathRefusal, passedLevel } from "../../src/json-path.ts";
import { countingHandler } from "./support/hostile.ts";

describe("formatting one key", () => {
  const cases: [string, string, string][] = [
    ["a one-letter identifier", "a", "$.a"],
    ["a word", "items", "$.items"],
    ["underscore, dollar and digits after the first character", "_a$1", "$._a$1"],
    ["a dollar alone", "$", "$.$"],
    ["an upper-case word", "Zed", "$.Zed"],
    ["a leading digit", "1abc", '$["1abc"]'],
    ["a digit only", "7", '$["7"]'],
    ["a space inside", "a b", '$["a b"]'],
    ["a trailing dash", "ab-", '$["ab-"]'],
    ["a leading dash", "-ab", '$["-ab"]'],
    ["the empty key", "", '$[""]'],
    ["a double quote", 'say "hi"', '$["say \\"hi\\""]'],
    ["a backslash", "a\\b", '$["a\\\\b"]'],
    ["control characters", "a\nb\u0000", '$["a?b?"]'],
    ["a non-ASCII letter", "é", '$["é"]'],
    ["a key of exactly 40 characters", "k".repeat(40), `$.${"k".repeat(40)}`],
    ["a key of 41 characters", "k".repeat(41), `$["${"k".repeat(40)}…"]`],
  ];

  test("the key table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("writes %s as expected", (_name, key, path) => {
    expect(formatJsonTrail([key])).toBe(path);
  });

  test("a freshly loaded copy of the module writes every key of the table the same way", async () => {
    vi.resetModules();
    const fresh = await import("../../src/json-path.ts");
    for (const [, key, path] of cases) expect(fresh.formatJsonTrail([key])).toBe(path);
  });
});

describe("formatting a trail", () => {
  test("writes the root alone as $", () => {
    expect(formatJsonTrail([])).toBe("$");
  });

  test("writes the innermost segment last: the trail is gathered on the way out", () => {
    expect(formatJsonTrail(["name", 3, "items"])).toBe("$.items[3].name");
    expect(formatJsonTrail([0, 1])).toBe("$[1][0]");
  });

  test("a refused argument names its location with the same rules", () => {
    const args = { "odd key": [{ ok: 1, "1st": Number.POSITIVE_INFINITY }] };
    expect(() =>
      snapshotToolCall({ type: "toolCall", id: "c", name: "t", arguments: args }),
    ).toThrow('Tool call arguments at $["odd key"][0]["1st"]: numbers must be finite');
  });
});

/** `{ k0: [ { k2: [ … leaf … ] } ] }`, `levels` containers deep, keys and indexes alternating. */
function nested(levels: number, leaf: unknown): { readonly value: unknown; readonly path: string } {
  let value = leaf;
  let path = "";
  for (let level = levels - 1; level >= 0; level -= 1) {
    value = level % 2 === 0 ? { [`k${level}`]: value } : [value];
    path = (level % 2 === 0 ? `.k${level}` : "[0]") + path;
  }
  return { value, path: `$${path}` };
}

describe("a refusal below the walks' four preallocated levels names every level", () => {
  const depths = [1, 2, 5, 9, 20];

  test("the depth table is not empty", () => {
    expect(depths.length).toBeGreaterThan(0);
  });

  test.each(depths)("an argument refused %i containers deep", (levels) => {
    const { value, path } = nested(levels, Number.NaN);
    expect(() =>
      snapshotToolCall({ type: "toolCall", id: "c", name: "t", arguments: { top: value } }),
    ).toThrow(`Tool call arguments at $.top${path.slice(1)}: numbers must be finite`);
  });

  test.each(depths)("an output refused %i containers deep", (levels) => {
    const { value, path } = nested(levels, new Map());
    expect(serializeToolOutput(value)).toEqual({
      ok: false,
      message: `${path}: Map objects are not supported`,
    });
  });
});

describe("the refusal that carries a trail", () => {
  test("is recognised by its brand; a look-alike is not", () => {
    expect(PathRefusal.is(new PathRefusal("why", undefined))).toBe(true);
    const lookAlike = Object.create(PathRefusal.prototype);
    Object.assign(lookAlike, { trail: [], reason: "why", cause: undefined });
    expect(PathRefusal.is(lookAlike)).toBe(false);
    expect(PathRefusal.is(null)).toBe(false);
    expect(PathRefusal.is("refused")).toBe(false);
  });

  test("attack: asking whether a thrown Proxy is a refusal runs none of its traps", () => {
    const { handler, traps } = countingHandler();
    const counting = new Proxy({}, handler);
    expect(PathRefusal.is(counting)).toBe(false);
    // Passing a level, as it would through every container of a walk, leaves it untouched.
    expect(passedLevel(passedLevel(counting, "a"), 0)).toBe(counting);
    expect(traps()).toBe(0);
  });

  test("attack: a Proxy thrown by a Proxy prototype's trap leaves the output walk with none of its own traps run", () => {
    const { handler, traps } = countingHandler();
    const thrown = new Proxy({}, handler);
    const prototype = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw thrown;
        },
      },
    );
    // Three levels deep, so the throw passes three containers on its way out.
    const output = { a: [{ b: Object.create(prototype) }] };
    let caught: unknown;
    try {
      serializeToolOutput(output);
    } catch (error) {
      caught = error;
    }
    expect(caught === thrown).toBe(true);
    expect(traps()).toBe(0);
  });

  describe("with an index setter planted on Array.prototype", () => {
    let writes = 0;

    afterEach(() => {
      delete (Array.prototype as unknown as Record<string, unknown>)["0"];
      delete (Array.prototype as unknown as Record<string, unknown>)["1"];
    });

    test("attack: the segments a refusal gathers never reach the planted setter", () => {
      for (const index of ["0", "1"]) {
        Object.defineProperty(Array.prototype, index, {
          configurable: true,
          set() {
            // Swallows the value: a trail built by assignment would come out empty.
            writes += 1;
          },
        });
      }
      const refusal = new PathRefusal("why", undefined);
      passedLevel(refusal, 3);
      passedLevel(refusal, "items");
      expect(writes).toBe(0);
      expect(formatJsonTrail(refusal.trail)).toBe("$.items[3]");
    });
  });
});
