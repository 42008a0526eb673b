/**
 * A part's fields at their edges: a file name is refused for each code unit
 * that could make its line look like more than one line (the first and last
 * unit of every refused range, and the units just outside it accepted), for
 * a lone surrogate at either end of either half, for its length and for not
 * being a string; a part or its data of the wrong kind is refused naming the
 * field.
 */
import { describe, expect, test } from "vitest";
import { PNG_1X1 } from "../../../test/support/parts.ts";
import { toolContent } from "../../src/index.ts";

const CONTROLS =
  "must not hold control characters, line separators, direction controls or brackets";

/** The TypeError message for a file part named `name`, or "accepted". */
function verdict(name: unknown): string {
  try {
    toolContent([{ type: "file", data: "aGk=", mimeType: "text/plain", name } as never]);
    return "accepted";
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(TypeError);
    return (thrown as Error).message;
  }
}

const refused = (problem: string) => `toolContent: parts[0].name ${problem}`;
const hex = (unit: number) => unit.toString(16).padStart(4, "0");

/** Rows of `[unit, problem]`, labelled by the unit in hexadecimal for the test name. */
const labelled = <Row extends readonly [number, ...unknown[]]>(rows: Row[]) =>
  rows.map((row) => [hex(row[0]), ...row] as const);

describe("a file name's code units", () => {
  test.each(
    labelled([
      [0x1f, CONTROLS],
      [0x20, undefined],
      [0x7e, undefined],
      [0x7f, CONTROLS],
      [0x9f, CONTROLS],
      [0xa0, undefined],
      [0x2027, undefined],
      [0x2028, CONTROLS],
      [0x2029, CONTROLS],
      [0x202a, CONTROLS],
      [0x202e, CONTROLS],
      [0x202f, undefined],
      [0x2065, undefined],
      [0x2066, CONTROLS],
      [0x2069, CONTROLS],
      [0x206a, undefined],
      // The direction marks are Bidi_Control too.
      [0x061b, undefined],
      [0x061c, CONTROLS],
      [0x061d, undefined],
      [0x200d, undefined],
      [0x200e, CONTROLS],
      [0x200f, CONTROLS],
      [0x2010, undefined],
      [0x5a, undefined],
      [0x5b, CONTROLS],
      [0x5d, CONTROLS],
      [0x5e, undefined],
      [0xd7ff, undefined],
      [0xd800, "must not hold a lone surrogate"],
      [0xdbff, "must not hold a lone surrogate"],
      [0xdc00, "must not hold a lone surrogate"],
      [0xdfff, "must not hold a lone surrogate"],
      [0xe000, undefined],
      [0xfffd, undefined],
    ]),
  )("U+%s inside a name", (_hex, unit, problem) => {
    const name = `a${String.fromCharCode(unit)}b`;
    expect(verdict(name)).toBe(problem === undefined ? "accepted" : refused(problem));
  });

  test.each(
    labelled([
      // Each surrogate half at both ends of its range, paired and unpaired.
      [0xd800, 0xdc00, undefined],
      [0xdbff, 0xdfff, undefined],
      [0xd800, 0xdbff, "must not hold a lone surrogate"],
      [0xdbff, 0xe000, "must not hold a lone surrogate"],
      [0xd800, 0x61, "must not hold a lone surrogate"],
      [0xdc00, 0xd800, "must not hold a lone surrogate"],
    ]),
  )("U+%s followed by another unit", (_hex, first, second, problem) => {
    const name = `a${String.fromCharCode(first, second)}`;
    expect(verdict(name)).toBe(problem === undefined ? "accepted" : refused(problem));
  });

  test("a lone low surrogate at the end of a name", () => {
    expect(verdict(`a${String.fromCharCode(0xdfff)}`)).toBe(
      refused("must not hold a lone surrogate"),
    );
  });

  test("the table's units are named as the test names say", () => {
    expect(hex(0x2028)).toBe("2028");
  });
});

describe("a name of nothing but space is blank", () => {
  // Every unit counted as space, at both ends of its range; the units beside them are not.
  const BLANK = [0x20, 0xa0, 0x1680, 0x2000, 0x200b, 0x202f, 0x205f, 0x3000, 0xfeff];
  const SHOWN = [0x1f, 0x21, 0xa1, 0x167f, 0x1681, 0x1fff, 0x200c, 0x2030, 0x205e, 0x3001, 0xfefe];

  test("the tables are not empty", () => {
    expect(BLANK.length).toBeGreaterThan(0);
    expect(SHOWN.length).toBeGreaterThan(0);
  });

  test.each(BLANK.map((unit) => [hex(unit), unit]))("U+%s alone is blank", (_hex, unit) => {
    expect(verdict(String.fromCharCode(unit, unit))).toBe(refused("must not be blank"));
  });

  test.each(SHOWN.map((unit) => [hex(unit), unit]))("U+%s is not space", (_hex, unit) => {
    const verdictOf = verdict(` ${String.fromCharCode(unit)}`);
    expect(verdictOf).not.toBe(refused("must not be blank"));
  });
});

describe("a file name's length and kind", () => {
  test.each([
    ["", refused("must have 1 to 64 characters")],
    [" ", refused("must not be blank")],
    ["\u00a0", refused("must not be blank")],
    ["\u200b\u3000", refused("must not be blank")],
    ["\ufeff \u2007", refused("must not be blank")],
    ["\u200ba", "accepted"],
    ["report (final).pdf", "accepted"],
    ["n", "accepted"],
    ["n".repeat(64), "accepted"],
    ["n".repeat(65), refused("must have 1 to 64 characters")],
  ])("%j", (name, expected) => {
    expect(verdict(name)).toBe(expected);
  });

  test.each([
    ["a number", 5],
    ["null", null],
    ["an array of characters", ["a"]],
  ])("%s is refused as not a string", (_label, name) => {
    expect(verdict(name)).toBe("toolContent: parts[0].name must be a string");
  });
});

describe("a part, and its data, of the wrong kind", () => {
  test.each([
    ["null", null],
    ["undefined", undefined],
    ["a number", 7],
  ])("a part that is %s", (_label, part) => {
    expect(() => toolContent([part as never])).toThrow(
      new TypeError("toolContent: parts[0] must be an object (not a Proxy)"),
    );
  });

  test.each([
    ["a number", 5],
    ["null", null],
    ["a boolean", true],
    ["a plain object", { length: 1, 0: 137 }],
    ["a Uint16Array", new Uint16Array(4)],
    ["a DataView", new DataView(PNG_1X1.buffer)],
  ])("data that is %s", (_label, data) => {
    expect(() => toolContent([{ type: "image", data, mimeType: "image/png" } as never])).toThrow(
      new TypeError("toolContent: parts[0].data must be a Uint8Array or a base64 string"),
    );
  });
});
