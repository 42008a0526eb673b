/**
 * toRe2Syntax may run after a Tool of the process replaced built-ins (a
 * remote server's schemas are compiled when its Tools are first listed): the
 * RE2 text must be the one the declared pattern means, and what RE2 cannot
 * run must still be refused. Each row replaces what one escape or group used
 * to call, counts how often the replacement ran (never), and checks the
 * rewrite equals the one made with no attack.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  type BuiltinAttack,
  replace,
  restoreAll,
  underAttackNow,
} from "../../test/support/patched-builtins.ts";
import { PatternRefusal, type PlatformQuestions, toRe2Syntax } from "./pattern-translation.ts";

afterEach(restoreAll);

// Answers made without any built-in: white space but "a" is in the class; RE2 knows "Greek".
const platform: PlatformQuestions = {
  inClass: (_source, char) => char !== "a",
  re2Knows: (name) => name === "Greek",
  propertyRanges: () => [[0x370, 0x3ff]],
};

/**
 * The RE2 text of `pattern`, or the reason it is refused; bounded, so that a rewrite sent back
 * to the pattern's start (an `indexOf` finding nothing) is refused rather than run forever.
 */
function rewrite(pattern: string): string {
  try {
    return toRe2Syntax(pattern, platform, 10_000);
  } catch (thrown) {
    if (thrown instanceof PatternRefusal) return `refused: ${thrown.message}`;
    throw thrown;
  }
}

/** Replaces `target[key]` with a counted stand-in answering `forged`. */
const forge =
  (target: object, key: PropertyKey, forged: (...args: never[]) => unknown): BuiltinAttack[1] =>
  (count) =>
    replace(target, key, (...args: never[]) => {
      count();
      return forged(...args);
    });

const attacks: ReadonlyArray<readonly [...BuiltinAttack, string]> = [
  [
    "String.prototype.indexOf (finding nothing)",
    forge(String.prototype, "indexOf", () => -1),
    "^\\p{Script=Greek}(?<year>\\d{4})\\u{1F600}$",
  ],
  [
    "String.prototype.slice (the whole text)",
    forge(String.prototype, "slice", () => "x"),
    "^\\x41\\u0042\\p{sc=Greek}(?:c)$",
  ],
  [
    "String.prototype.startsWith (never)",
    forge(String.prototype, "startsWith", () => false),
    "(?=a)b",
  ],
  [
    "String.prototype.startsWith (a surrogate pair's second half missed)",
    forge(String.prototype, "startsWith", () => false),
    "^\\uD83D\\uDE00$",
  ],
  ["String.prototype.codePointAt (a NUL)", forge(String.prototype, "codePointAt", () => 0), "\\cJ"],
  [
    "Number.prototype.toString (a zero)",
    forge(Number.prototype, "toString", () => "0"),
    "\\u{1F600}",
  ],
  [
    "String.prototype.toUpperCase (lower case kept)",
    forge(String.prototype, "toUpperCase", () => "ffff"),
    "\\u{1F600}",
  ],
  ["Number.parseInt (an A)", forge(Number, "parseInt", () => 0x41), "^\\u0042$"],
  [
    "RegExp.prototype.test (no hex)",
    forge(RegExp.prototype, "test", () => false),
    "\\uD83D\\uDE00",
  ],
  ["String.fromCodePoint (an a)", forge(String, "fromCodePoint", () => "a"), "^[^a\\S]$"],
  [
    "Array.prototype.filter (keeping nothing)",
    forge(Array.prototype, "filter", () => []),
    "[^a\\S]",
  ],
];

describe("a pattern rewritten for RE2, after a Tool replaced the built-ins", () => {
  test("the table of attacks is not empty", () => {
    expect(attacks.length).toBeGreaterThan(0);
  });

  test.each(attacks)("%s: the rewrite is the true one", (_attack, plant, pattern) => {
    const truth = rewrite(pattern);
    let calls = 0;
    plant(() => {
      calls += 1;
    });
    const attacked = underAttackNow(() => rewrite(pattern));
    expect(calls).toBe(0);
    expect(attacked).toBe(truth);
  });

  test("with no attack, the rewrites are the documented ones", () => {
    expect(rewrite("(?=a)b")).toMatch(/^refused: lookaround cannot run in linear time/);
    expect(rewrite("^\\uD83D\\uDE00$")).toBe("^\\x{1F600}$");
    expect(rewrite("^\\p{Script=Greek}$")).toBe("^\\p{Greek}$");
    expect(rewrite("\\cJ")).toBe("\\x{A}");
  });
});
