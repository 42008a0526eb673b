/**
 * The output flags on their own: which `--max-output-characters` values
 * parse, and which call options the flags stand for.
 */
import { InvalidArgumentError } from "commander";
import { describe, expect, test } from "vitest";
import {
  describeOutputFlags,
  outputCallOptions,
  parseMaxOutputCharacters,
  TRUNCATE_CHOICES,
} from "./output-flags.ts";

const RULE = "It must be a whole number of characters from 1024 to 10000000.";

describe("parseMaxOutputCharacters", () => {
  test.each([
    ["1024", 1_024],
    ["50000", 50_000],
    ["0004096", 4_096],
    ["10000000", 10_000_000],
  ])("accepts %j as %d", (text, value) => {
    expect(parseMaxOutputCharacters(text)).toBe(value);
  });

  test.each([
    ["one below the floor", "1023"],
    ["one above the ceiling", "10000001"],
    ["zero", "0"],
    ["a negative number", "-5000"],
    ["a plus sign", "+5000"],
    ["an exponent", "1e6"],
    ["hexadecimal", "0x4000"],
    ["a fraction", "5000.5"],
    ["a digit separator", "50_000"],
    ["a suffix", "50k"],
    ["surrounding spaces", " 5000 "],
    ["an empty value", ""],
    ["a huge number", "99999999999999999999"],
  ])("refuses %s (%j), stating the rule", (_label, text) => {
    expect(() => parseMaxOutputCharacters(text)).toThrow(InvalidArgumentError);
    expect(() => parseMaxOutputCharacters(text)).toThrow(RULE);
  });
});

describe("outputCallOptions", () => {
  test("no flags are no call options at all, so results are the tools module's own", () => {
    expect(outputCallOptions({})).toBeUndefined();
  });

  test.each([
    [{ maxOutputCharacters: 50_000 }, { outputBudget: { maxCharacters: 50_000 } }],
    [{ truncate: "tail" as const }, { truncate: "tail" }],
    [
      { maxOutputCharacters: 2_048, truncate: "head-and-tail" as const },
      { outputBudget: { maxCharacters: 2_048 }, truncate: "head-and-tail" },
    ],
  ])("%j becomes %j, with no field left undefined", (flags, options) => {
    const made = outputCallOptions(flags);
    expect(made).toStrictEqual(options);
    expect(Object.isFrozen(made)).toBe(true);
  });
});

test("--truncate offers exactly the core's three strategies", () => {
  expect(TRUNCATE_CHOICES).toEqual(["head", "tail", "head-and-tail"]);
});

test.each([
  [{}, ""],
  [{ maxOutputCharacters: 50_000 }, "; results up to 50000 characters"],
  [{ truncate: "tail" as const }, "; truncate tail"],
  [
    { maxOutputCharacters: 2_048, truncate: "head" as const },
    "; results up to 2048 characters, truncate head",
  ],
])("describeOutputFlags(%j) is %j", (flags, text) => {
  expect(describeOutputFlags(flags)).toBe(text);
});
