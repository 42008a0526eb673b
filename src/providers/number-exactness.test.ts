/**
 * Numbers a double cannot hold exactly, through `parseToolArguments`: past
 * 2^53 - 1 a literal must be exactly the double written back, below the
 * normal doubles a non-zero literal must not become 0 nor lose its digits,
 * and in between every literal is read as `JSON.parse` reads it.
 */
import { describe, expect, test } from "vitest";
import { parseToolArguments } from "./index.ts";

/** 2^-1074 written out exactly: 5^1074 / 10^1074, 751 significant digits. */
function smallestSubnormalExactly(): string {
  const digits = (5n ** 1074n).toString();
  return `${digits[0]}.${digits.slice(1)}e-324`;
}

/** The literal as the value of key "n": the number starts at position 5. */
const argumentsWith = (literal: string) => `{"n":${literal}}`;

describe("accepted: read exactly as JSON.parse reads them", () => {
  const accepted = [
    ["the largest safe integer", "9007199254740991"],
    ["the smallest safe integer", "-9007199254740991"],
    ["2^53, held exactly", "9007199254740992"],
    ["2^60, every digit of the double's value", "1152921504606846976"],
    ["2^60 as String(n) writes it", "1152921504606847000"],
    [
      "the largest double, every digit",
      "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368",
    ],
    ["the smallest subnormal, all 751 digits of its value", smallestSubnormalExactly()],
    ["10^21, an integer written back as 1e+21", "1000000000000000000000"],
    ["1e300, written back as 1e+300", "1e300"],
    ["1e300 with an upper-case marker and a sign", "1E+300"],
    ["1e300 with a fraction of zeros", "1.000000000000000000000e300"],
    ["1e23, read as the double that writes back as 1e+23", "1e23"],
    ["the largest double", "1.7976931348623157e308"],
    ["the smallest normal double, not checked", "2.2250738585072014e-308"],
    ["the smallest subnormal", "5e-324"],
    ["the smallest subnormal, negative", "-5e-324"],
    ["a subnormal written as it writes back", "1.5e-323"],
    ["a subnormal the shortest form names", "1e-323"],
    ["zero", "0"],
    ["negative zero", "-0"],
    ["zero with a fraction and a huge negative exponent", "0.000e-99999"],
    ["zero with a huge exponent", "0e400"],
    ["0.1, inexact in binary but read as written", "0.1"],
    ["pi to 21 digits, read to the nearest double", "3.14159265358979323846"],
    ["17 significant digits in the ordinary range", "0.10000000000000001"],
  ] as const;

  test.each(accepted)("%s: %s", (_label, literal) => {
    expect(accepted.length).toBeGreaterThan(0);
    const parsed = parseToolArguments(argumentsWith(literal));
    expect(parsed).toEqual({ ok: true, value: JSON.parse(argumentsWith(literal)) });
  });
});

describe("refused, with the rule and the number's position", () => {
  const inexact = "arguments contain a number a double cannot hold exactly at position 5";
  const tooSmall = "arguments contain a number too small for a double at position 5";
  const refused = [
    ["2^53 + 1, read as 2^53", "9007199254740993", inexact],
    ["-(2^53 + 1)", "-9007199254740993", inexact],
    ["a 30-digit integer", "123456789012345678901234567890", inexact],
    ["2^53 + 1 written with a fraction", "9007199254740993.0", inexact],
    ["2^60 + 1", "1152921504606846977", inexact],
    ["2^60 rounded otherwise", "1152921504606846900", inexact],
    ["a fraction past 2^53", "9007199254740992.5", inexact],
    [
      "more digits than any double writes, past 2^53",
      "9007199254740992.000000000000000001",
      inexact,
    ],
    ["1e300 with a digit the double loses", "1.00000000000000000001e300", inexact],
    [
      "the smallest subnormal's value cut short",
      "4.9406564584124654417656879286822137236505980e-324",
      inexact,
    ],
    ["4e-324, read as 5e-324", "4e-324", inexact],
    ["2.5e-324, read as 5e-324", "2.5e-324", inexact],
    ["a subnormal that loses digits", "1.2345e-320", inexact],
    ["1e-400, read as 0", "1e-400", tooSmall],
    ["-1e-400, read as -0", "-1e-400", tooSmall],
    ["2e-324, below half the smallest subnormal", "2e-324", tooSmall],
    ["many digits read as 0", "1.234567890123456789012345e-400", tooSmall],
    ["a digit after many zeros, read as 0", `0.${"0".repeat(400)}1`, tooSmall],
    [
      "beyond a double altogether",
      "1e400",
      "arguments contain a number too large for a double at position 5",
    ],
  ] as const;

  test.each(refused)("%s: %s", (_label, literal, reason) => {
    expect(refused.length).toBeGreaterThan(0);
    expect(parseToolArguments(argumentsWith(literal))).toEqual({ ok: false, reason });
  });

  test("the position is the refused number's, wherever it is", () => {
    const text = '{"a":[1,2,{"b":9007199254740993}]}';
    expect(parseToolArguments(text)).toEqual({
      ok: false,
      reason: "arguments contain a number a double cannot hold exactly at position 15",
    });
  });

  test("a million-digit literal is judged without reading it as a number twice", () => {
    // 1 followed by a million zeros and a matching negative exponent is 1: ordinary, accepted.
    const one = `1${"0".repeat(1_000_000)}e-1000000`;
    expect(parseToolArguments(argumentsWith(one), { maxArgumentCharacters: 2_000_000 })).toEqual({
      ok: true,
      value: { n: 1 },
    });
    // The same digits scaled past 2^53 carry a million significant zeros but one significant digit.
    const big = `1${"0".repeat(1_000_000)}e-999980`;
    expect(parseToolArguments(argumentsWith(big), { maxArgumentCharacters: 2_000_000 })).toEqual({
      ok: true,
      value: { n: 1e20 },
    });
  });
});
