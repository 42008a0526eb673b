/**
 * Pins how a location inside a Tool call or output is written in messages:
 * which keys count as identifiers (dot form) and which are quoted (bracket
 * form), how quotes, backslashes and control characters are written inside
 * brackets, how a long key is shortened, and that unset segments are skipped.
 * The same rules are checked once end to end, through a refused argument, and
 * once on a freshly loaded copy (the identifier pattern is built at load).
 */
import { describe, expect, test, vi } from "vitest";
import { snapshotToolCall } from "../../src/index.ts";
import { formatJsonPath } from "../../src/json-path.ts";

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
    expect(formatJsonPath([undefined, key], 1)).toBe(path);
  });

  test("a freshly loaded copy of the module writes every key of the table the same way", async () => {
    vi.resetModules();
    const fresh = await import("../../src/json-path.ts");
    for (const [, key, path] of cases) expect(fresh.formatJsonPath([undefined, key], 1)).toBe(path);
  });
});

describe("formatting a path", () => {
  test("writes the root alone as $", () => {
    expect(formatJsonPath([], 0)).toBe("$");
  });

  test("mixes keys and indexes, up to the given depth only", () => {
    expect(formatJsonPath([undefined, "items", 3, "name", "ignored"], 3)).toBe("$.items[3].name");
  });

  test("skips unset segments instead of failing on them", () => {
    expect(formatJsonPath([undefined, undefined, "a"], 2)).toBe("$.a");
    expect(formatJsonPath([undefined], 1)).toBe("$");
  });

  test("a refused argument names its location with the same rules", () => {
    const args = { "odd key": [{ ok: 1, "1st": Number.POSITIVE_INFINITY }] };
    expect(() =>
      snapshotToolCall({ type: "toolCall", id: "c", name: "t", arguments: args }),
    ).toThrow('Tool call arguments at $["odd key"][0]["1st"]: numbers must be finite');
  });
});
