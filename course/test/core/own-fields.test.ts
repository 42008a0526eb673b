/**
 * Non-blank strings: a call's id and name, a Tool's name and description and
 * a validator's error must have something besides white space in them. The
 * check answers most strings from their first character and trims the rest;
 * both ways must agree with `trim` for every first character. Data or
 * accessor: a descriptor is told apart by its shape, and a `value` planted on
 * Object.prototype neither turns an accessor into data nor runs.
 */
import { describe, expect, test } from "vitest";
import { serializeToolOutput } from "../../src/index.ts";
import {
  isDataDescriptor,
  isNonBlankString,
  ownDataValue,
  readOwnField,
  readOwnValue,
} from "../../src/own-fields.ts";

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

describe("isDataDescriptor", () => {
  const holder = {
    data: 1,
    get getter() {
      return 2;
    },
    set setter(_value: unknown) {},
  };
  Object.defineProperty(holder, "hidden", { value: 3, enumerable: false });
  const cases: [string, PropertyKey, boolean][] = [
    ["a data field", "data", true],
    ["a non-enumerable data field", "hidden", true],
    ["a getter", "getter", false],
    ["a setter alone", "setter", false],
  ];

  test("the descriptor table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("tells %s apart", (_label, key, expected) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(holder, key) as PropertyDescriptor;
    expect(isDataDescriptor(descriptor)).toBe(expected);
  });

  describe("with a value planted on Object.prototype", () => {
    /**
     * Runs `during` with a `value` getter planted on Object.prototype, which
     * counts its reads; removed before anything is asserted (it breaks every
     * `{ get }` descriptor object of the test runner while it is there).
     */
    function planted<T>(during: () => T): { readonly result: T; readonly reads: number } {
      let reads = 0;
      Object.defineProperty(Object.prototype, "value", {
        configurable: true,
        get() {
          reads += 1;
          return "planted";
        },
      });
      try {
        return { result: during(), reads };
      } finally {
        delete (Object.prototype as Record<string, unknown>).value;
      }
    }

    test.each(cases)(
      "attack: still tells %s apart, and the planted getter never runs",
      (_label, key, expected) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(holder, key) as PropertyDescriptor;
        const { result, reads } = planted(() => isDataDescriptor(descriptor));
        expect(result).toBe(expected);
        expect(reads).toBe(0);
      },
    );

    const readers: [string, (target: object, key: string) => unknown, unknown, unknown][] = [
      ["readOwnValue", readOwnValue, 1, 2],
      ["readOwnField", readOwnField, { found: true, value: 1 }, { found: true, value: 2 }],
      ["ownDataValue", ownDataValue, 1, undefined],
    ];

    test("the reader table is not empty", () => {
      expect(readers.length).toBeGreaterThan(0);
    });

    test.each(readers)(
      "attack: %s reads an own field as before, the planted getter unread",
      (_name, read, data, getter) => {
        const { result, reads } = planted(() => [read(holder, "data"), read(holder, "getter")]);
        expect(result).toEqual([data, getter]);
        expect(reads).toBe(0);
      },
    );

    test("attack: the serializer leaves an accessor out and writes data as it is, the planted getter unread", () => {
      const output = { b: 1, list: [0] };
      Object.defineProperty(output, "a", { enumerable: true, get: () => "run" });
      Object.defineProperty(output.list, 1, { enumerable: true, get: () => "run" });
      const { result, reads } = planted(() => serializeToolOutput(output));
      expect(result).toEqual({
        ok: true,
        content: '{"b":1,"list":[0,"[Accessor omitted]"]}',
        truncated: false,
      });
      expect(reads).toBe(0);
    });
  });
});
