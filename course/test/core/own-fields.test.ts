/**
 * Non-blank strings: a call's id and name, a Tool's name and description and
 * a validator's error must have something besides white space in them. The
 * check answers most strings from their first character and trims the rest;
 * both ways must agree with `trim` for every first character.
 */
import { describe, expect, test } from "vitest";
import { isNonBlankString } from "../../src/own-fields.ts";

/** What the check must answer: the definition, written with `trim`. */
const reference = (text: string): boolean => text.trim().length > 0;

describe("isNonBlankString", () => {
  test("agrees with trim for every UTF-16 code unit, alone, before a letter and before spaces", () => {
    const units = Array.from({ length: 0x10000 }, (_, unit) => String.fromCharCode(unit));
    expect(units.length).toBe(0x10000);
    const disagreements: string[] = [];
    for (const unit of units) {
      for (const text of [unit, `${unit}a`, `${unit}  `]) {
        if (isNonBlankString(text) !== reference(text)) disagreements.push(JSON.stringify(text));
      }
    }
    expect(disagreements).toEqual([]);
  });

  test.each([
    ["the empty string", "", false],
    ["a space", " ", false],
    ["spaces around a letter", "  a  ", true],
    ["a tab, a line feed and a carriage return", "\t\n\r", false],
    ["a no-break space", "\u00a0", false],
    ["a byte order mark", "\ufeff", false],
    ["an ideographic space before text", "\u3000call-1", true],
    ["the first printable ASCII character", "!", true],
    ["the last printable ASCII character", "~", true],
    ["DEL, which is no white space", "\u007f", true],
    ["a lone surrogate", "\ud800", true],
  ])("%s: %s", (_label, text, expected) => {
    expect(isNonBlankString(text)).toBe(expected);
    expect(reference(text)).toBe(expected);
  });

  test.each([
    ["undefined", undefined],
    ["null", null],
    ["a number", 1],
    ["a String object", Object("call-1")],
    ["an object with a non-blank toString", { toString: () => "call-1" }],
  ])("%s is not a string, so never non-blank", (_label, value) => {
    expect(isNonBlankString(value)).toBe(false);
  });
});
