/**
 * The estimate of a pattern's program, made before RE2JS builds it: close to
 * what RE2JS compiles for ordinary patterns, and never below it on this list.
 */
import { RE2JS } from "re2js";
import { expect, test } from "vitest";
import { estimatePatternSize } from "./pattern-size.ts";

const PATTERNS = [
  "^[a-z]+$",
  "^\\d{4}-\\d{2}-\\d{2}$",
  "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
  "(?:a?){1000}",
  "a{1000}",
  "(?:ab|cd|ef)+",
  "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$",
  "^.{1,1000}$",
  "(?:a{10}){100}",
  "(a|b|c|d){5,20}",
  "^(?:\\+?1)?[ -]?\\(?\\d{3}\\)?[ -]?\\d{3}[ -]?\\d{4}$",
  "x{2,}",
  "(?:x|y){0,50}z",
  "^[\\p{L}\\p{N}_-]{1,64}$",
  "^\\u{1F600}+?$",
];

test("the estimate is never below what RE2JS compiles, and close to it", () => {
  expect(PATTERNS.length).toBeGreaterThan(0);
  for (const pattern of PATTERNS) {
    const actual = RE2JS.compile(pattern.replace("\\u{1F600}", "\\x{1F600}")).programSize();
    const estimate = estimatePatternSize(pattern);
    expect(estimate, pattern).toBeGreaterThanOrEqual(actual);
    expect(estimate, pattern).toBeLessThanOrEqual(3 * actual);
  }
});

test.each([
  ["a capturing group costs two", "(a)", 5],
  ["a group that does not capture, nothing", "(?:a)", 3],
  ["a named group is rewritten as one that does not capture", "(?<name>a)", 3],
  ["an alternative costs one", "a|b", 5],
  ["a lazy quantifier as a greedy one", "a{2,4}?", 8],
  ["a class is one, whatever it holds", "[a-z\\]\\d]", 3],
  ["an escape is one", "\\p{Lu}\\u{41}\\k<x>", 5],
])("%s", (_what, pattern, expected) => {
  expect(estimatePatternSize(pattern)).toBe(expected);
});
