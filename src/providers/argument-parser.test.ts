/**
 * The bounded argument parser, through its public entry `parseToolArguments`:
 * what it accepts equals `JSON.parse`, what it refuses it refuses with an exact
 * reason and position, and no hostile text makes it throw, recurse or run code.
 */
import { describe, expect, test } from "vitest";
import {
  PROVIDER_ARGUMENTS_MAX_CHARACTERS,
  PROVIDER_ARGUMENTS_MAX_DEPTH,
  parseToolArguments,
} from "./index.ts";

const invalid = (position: number, what: string) =>
  `arguments are not valid JSON at position ${position}: ${what}`;

function refusal(text: string, options?: Parameters<typeof parseToolArguments>[1]): string {
  const parsed = parseToolArguments(text, options);
  if (parsed.ok) throw new Error(`expected a refusal for ${JSON.stringify(text.slice(0, 60))}`);
  return parsed.reason;
}

/** Arguments nesting exactly `depth` levels: `{"a":[[0]]}` nests 3. */
const nestedArrays = (depth: number) => `{"a":${"[".repeat(depth - 1)}0${"]".repeat(depth - 1)}}`;

describe("what it accepts is exactly what JSON.parse reads", () => {
  const accepted = [
    "{}",
    " \t\n\r{ } \n",
    '{"a":1}',
    '{"a":[1,2,{"b":null}],"c":true,"d":false,"e":-0.5e+3,"f":"text"}',
    '{"escapes":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC"}',
    '{"pair escaped":"\\ud83d\\ude00","pair raw":"😀"}',
    '{"high escaped, low raw":"\\ud83d\ude00"}',
    '{"n":-0,"m":1E2,"o":0.1,"p":10e-2,"q":1e300}',
    '{"":1," ":2}',
    '{"constructor":1,"toString":2,"hasOwnProperty":3,"valueOf":{"__proto__":4}}',
    '{"deep":[[[[[[[[[[{"x":[]}]]]]]]]]]]}',
  ];

  test.each(accepted)("%s", (text) => {
    expect(accepted.length).toBeGreaterThan(0);
    const parsed = parseToolArguments(text);
    expect(parsed).toEqual({ ok: true, value: JSON.parse(text) });
    expect(Object.isFrozen(parsed)).toBe(true);
    if (parsed.ok) expect(Object.isFrozen(parsed.value)).toBe(true);
  });

  test("every object and array of accepted arguments is frozen, each array at its length", () => {
    const parsed = parseToolArguments('{"a":[[],[1,{"b":[{}]}]],"c":{"d":[null]}}');
    if (!parsed.ok) throw new Error(parsed.reason);
    const containers: object[] = [];
    const pending: unknown[] = [parsed.value];
    while (pending.length > 0) {
      const node = pending.pop();
      if (typeof node !== "object" || node === null) continue;
      containers.push(node);
      pending.push(...Object.values(node));
    }
    expect(containers).toHaveLength(9);
    expect(containers.every((node) => Object.isFrozen(node))).toBe(true);
    // Arrays are made at their length when they close: no slot past the last element.
    const lists = containers.filter((node) => Array.isArray(node)) as unknown[][];
    expect(lists.map((list) => list.length).sort()).toEqual([0, 1, 1, 2, 2]);
  });

  test("-0 stays -0, as JSON.parse reads it", () => {
    const parsed = parseToolArguments('{"n":-0}');
    expect(parsed.ok && Object.is(parsed.value.n, -0)).toBe(true);
  });
});

describe("what it refuses, with the reason the model reads", () => {
  test.each([
    ["empty text", "", invalid(0, "unexpected end of input")],
    ["white space only", "  ", invalid(2, "unexpected end of input")],
    ["an object cut off after a value", '{"left":1', invalid(9, "unexpected end of input")],
    ["truncated mid-string", '{"path":"/tmp/fi', invalid(16, "unexpected end of input")],
    ["truncated mid-escape", '{"a":"\\u12', invalid(10, "unexpected end of input")],
    ["truncated after a backslash", '{"a":"\\', invalid(7, "unexpected end of input")],
    ["truncated mid-literal", '{"a":nul', invalid(8, "unexpected end of input")],
    [
      "a trailing comma in an object",
      '{"a":1,}',
      invalid(7, "expected a property name in double quotes"),
    ],
    ["a trailing comma in an array", '{"a":[1,]}', invalid(8, "unexpected character")],
    ["an unquoted key", "{a:1}", invalid(1, "expected a property name in double quotes")],
    ["a single-quoted key", "{'a':1}", invalid(1, "expected a property name in double quotes")],
    ["a missing colon", '{"a" 1}', invalid(5, "expected ':' after a property name")],
    [
      "a missing comma in an object",
      '{"a":1 "b":2}',
      invalid(7, "expected ',' or '}' after a property value"),
    ],
    [
      "a missing comma in an array",
      '{"a":[1 2]}',
      invalid(8, "expected ',' or ']' after an array element"),
    ],
    ["a leading zero", '{"a":01}', invalid(6, "expected ',' or '}' after a property value")],
    ["a fraction without digits", '{"a":1.}', invalid(7, "expected a digit")],
    ["an exponent without digits", '{"a":1e+}', invalid(8, "expected a digit")],
    ["a bare minus", '{"a":-}', invalid(6, "expected a digit")],
    ["a plus sign", '{"a":+1}', invalid(5, "unexpected character")],
    ["a leading dot", '{"a":.5}', invalid(5, "unexpected character")],
    ["NaN", '{"a":NaN}', invalid(5, "unexpected character")],
    ["Infinity", '{"a":Infinity}', invalid(5, "unexpected character")],
    ["a misspelt literal", '{"a":tru}', invalid(8, "unexpected character")],
    ["an unknown escape", '{"a":"x\\q"}', invalid(7, "invalid escape sequence")],
    ["a bad unicode escape", '{"a":"\\u12G4"}', invalid(6, "invalid escape sequence")],
    [
      "a raw line break in a string",
      '{"a":"line\nbreak"}',
      invalid(10, "control characters must be escaped in strings"),
    ],
    [
      "a raw NUL in a string",
      '{"a":"\u0000"}',
      invalid(6, "control characters must be escaped in strings"),
    ],
    ["text after the object", '{"a":1} x', invalid(8, "unexpected text after the JSON value")],
    ["two objects", '{"a":1}{}', invalid(7, "unexpected text after the JSON value")],
    ["a byte-order mark", "\uFEFF{}", invalid(0, "unexpected character")],
    ["a comment", "/* c */{}", invalid(0, "unexpected character")],
    ["a duplicate key", '{"a":1,"a":2}', "arguments repeat an object key at position 7"],
    [
      "a duplicate key in a nested object",
      '{"a":{"b":1,"b":1}}',
      "arguments repeat an object key at position 12",
    ],
    [
      "a duplicate __proto__ key",
      '{"__proto__":1,"__proto__":2}',
      "arguments repeat an object key at position 15",
    ],
    [
      "a key repeated through an escape",
      '{"a":1,"\\u0061":2}',
      "arguments repeat an object key at position 7",
    ],
    [
      "a duplicate key after an astral character (UTF-16 positions)",
      '{"😀":1,"😀":2}',
      "arguments repeat an object key at position 8",
    ],
    [
      "an escaped lone high surrogate",
      '{"a":"\\ud800"}',
      "arguments contain a lone surrogate at position 6",
    ],
    [
      "an escaped lone low surrogate",
      '{"a":"\\udc00"}',
      "arguments contain a lone surrogate at position 6",
    ],
    [
      "a reversed surrogate pair",
      '{"a":"\\udc00\\ud800"}',
      "arguments contain a lone surrogate at position 6",
    ],
    [
      "a high surrogate before a plain escape",
      '{"a":"\\ud800\\n"}',
      "arguments contain a lone surrogate at position 6",
    ],
    [
      "a raw lone high surrogate",
      '{"a":"\ud800"}',
      "arguments contain a lone surrogate at position 6",
    ],
    [
      "a raw lone high surrogate at the end of a string",
      '{"a":"x\ud800"}',
      "arguments contain a lone surrogate at position 7",
    ],
    [
      "a raw lone low surrogate",
      '{"a":"\udc00x"}',
      "arguments contain a lone surrogate at position 6",
    ],
    [
      "a lone surrogate in a key",
      '{"\\ud800":1}',
      "arguments contain a lone surrogate at position 2",
    ],
    [
      "a number beyond a double",
      '{"a":1e999}',
      "arguments contain a number too large for a double at position 5",
    ],
    [
      "a negative number beyond a double",
      '{"a":[-1e400]}',
      "arguments contain a number too large for a double at position 6",
    ],
    ["a number", "42", "arguments must be a JSON object, not a number"],
    ["an array", "[1,2]", "arguments must be a JSON object, not an array"],
    ["a string", '"{}"', "arguments must be a JSON object, not a string"],
    ["a boolean", "true", "arguments must be a JSON object, not a boolean"],
    ["null", "null", "arguments must be a JSON object, not null"],
  ])("%s", (_label, text, reason) => {
    expect(refusal(text)).toBe(reason);
  });

  test("a refusal never quotes the text", () => {
    const secret = "sk-the-model-wrote-this";
    for (const text of [
      `{"${secret}"`,
      `{"a":"${secret}\\q"}`,
      `{"a":1,"a":"${secret}"}`,
      `["${secret}"]`,
    ]) {
      expect(refusal(text)).not.toContain(secret);
    }
  });
});

describe("limits", () => {
  test.each([
    ["exactly the limit", 20, true],
    ["one over the limit", 21, false],
  ])("maxArgumentCharacters: %s", (_label, length, ok) => {
    const text = `{"a":"${"x".repeat(length - 8)}"}`;
    expect(text).toHaveLength(length);
    const parsed = parseToolArguments(text, { maxArgumentCharacters: 20 });
    expect(parsed.ok).toBe(ok);
    if (!parsed.ok) {
      expect(parsed.reason).toBe("arguments are 21 characters long, more than the limit of 20");
    }
  });

  test.each([
    ["the default depth", undefined, PROVIDER_ARGUMENTS_MAX_DEPTH],
    ["a depth of 1", 1, 1],
    ["the core's depth", 256, 256],
  ])(
    "maxArgumentDepth: %s accepts exactly that many levels and refuses one more",
    (_l, option, depth) => {
      const options = option === undefined ? undefined : { maxArgumentDepth: option };
      expect(parseToolArguments(nestedArrays(depth), options).ok).toBe(true);
      expect(refusal(nestedArrays(depth + 1), options)).toBe(
        `arguments nest deeper than ${depth} levels at position ${4 + depth}`,
      );
    },
  );

  test("the defaults are 1,000,000 characters and 64 levels", () => {
    expect(PROVIDER_ARGUMENTS_MAX_CHARACTERS).toBe(1_000_000);
    expect(PROVIDER_ARGUMENTS_MAX_DEPTH).toBe(64);
  });

  test("counts the length in UTF-16 code units", () => {
    const text = `{"a":"${"😀".repeat(6)}"}`; // 8 + 12 code units
    expect(parseToolArguments(text, { maxArgumentCharacters: 20 }).ok).toBe(true);
    expect(parseToolArguments(text, { maxArgumentCharacters: 19 }).ok).toBe(false);
  });

  test.each([
    [
      "maxArgumentCharacters 0",
      { maxArgumentCharacters: 0 },
      "maxArgumentCharacters must be a positive integer or Infinity",
    ],
    [
      "maxArgumentCharacters -1",
      { maxArgumentCharacters: -1 },
      "maxArgumentCharacters must be a positive integer or Infinity",
    ],
    [
      "maxArgumentCharacters 1.5",
      { maxArgumentCharacters: 1.5 },
      "maxArgumentCharacters must be a positive integer or Infinity",
    ],
    [
      "maxArgumentCharacters NaN",
      { maxArgumentCharacters: Number.NaN },
      "maxArgumentCharacters must be a positive integer or Infinity",
    ],
    [
      "maxArgumentCharacters as a string",
      { maxArgumentCharacters: "10" },
      "maxArgumentCharacters must be a positive integer or Infinity",
    ],
    [
      "maxArgumentDepth 0",
      { maxArgumentDepth: 0 },
      "maxArgumentDepth must be an integer from 1 to 256",
    ],
    [
      "maxArgumentDepth 257",
      { maxArgumentDepth: 257 },
      "maxArgumentDepth must be an integer from 1 to 256",
    ],
    [
      "maxArgumentDepth Infinity",
      { maxArgumentDepth: Number.POSITIVE_INFINITY },
      "maxArgumentDepth must be an integer from 1 to 256",
    ],
    [
      "maxArgumentDepth 2.5",
      { maxArgumentDepth: 2.5 },
      "maxArgumentDepth must be an integer from 1 to 256",
    ],
    ["null options", null, "options must be an object; found null"],
    ["numeric options", 5, "options must be an object; found a number"],
    ["Proxy options", new Proxy({}, {}), "options must be an object; found a Proxy"],
  ])("refuses %s with a TypeError naming it", (_label, options, message) => {
    expect(() => parseToolArguments("{}", options as never)).toThrow(TypeError);
    expect(() => parseToolArguments("{}", options as never)).toThrow(message);
  });

  test("maxArgumentCharacters: Infinity lifts the length limit", () => {
    const text = `{"a":"${"x".repeat(PROVIDER_ARGUMENTS_MAX_CHARACTERS)}"}`;
    expect(parseToolArguments(text).ok).toBe(false);
    expect(parseToolArguments(text, { maxArgumentCharacters: Number.POSITIVE_INFINITY }).ok).toBe(
      true,
    );
  });

  test("reads each option once", () => {
    const reads: string[] = [];
    const options = {
      get maxArgumentCharacters() {
        reads.push("maxArgumentCharacters");
        return 100;
      },
      get maxArgumentDepth() {
        reads.push("maxArgumentDepth");
        return 8;
      },
    };
    expect(parseToolArguments("{}", options).ok).toBe(true);
    expect(reads).toEqual(["maxArgumentCharacters", "maxArgumentDepth"]);
  });

  test("refuses text that is not a string with a TypeError", () => {
    expect(() => parseToolArguments({} as never)).toThrow(
      "parseToolArguments needs the argument text as a string; found an object",
    );
  });
});

describe("hostile text", () => {
  test("10 MB of argument text is refused by its length", () => {
    const text = `{"a":"${"x".repeat(10_000_000)}"}`;
    expect(refusal(text)).toBe(
      `arguments are ${text.length} characters long, more than the limit of 1000000`,
    );
  });

  test.each([
    ["arrays", "[", "]"],
    ["objects", '{"a":', "}"],
  ])(
    "100,000 nested %s are refused at the depth limit, never a RangeError, even with no length limit",
    (_label, open, close) => {
      const text = `{"a":${open.repeat(100_000)}1${close.repeat(100_000)}}`;
      const reason = refusal(text, { maxArgumentCharacters: Number.POSITIVE_INFINITY });
      // The 65th container opens after `{"a":` and 63 openings.
      expect(reason).toBe(
        `arguments nest deeper than 64 levels at position ${5 + 63 * open.length}`,
      );
    },
  );

  test("a __proto__ key is an own data key: the prototype is untouched and nothing is polluted", () => {
    const parsed = parseToolArguments('{"__proto__":{"polluted":true},"inner":{"__proto__":[1]}}');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const value = parsed.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
    expect(Object.keys(value)).toEqual(["__proto__", "inner"]);
    expect(Object.getPrototypeOf(value.inner)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // Accessors planted on Array.prototype indices are out of scope (see docs/security-model.md):
  // the boundary's own scratch arrays inherit from it.
  test("a setter planted on Object.prototype never runs, and the key stays the model's own", () => {
    let runs = 0;
    const setter = {
      set(_value: unknown) {
        runs += 1;
      },
      get() {
        return undefined;
      },
      configurable: true,
    };
    let parsed: ReturnType<typeof parseToolArguments>;
    // Planted and removed synchronously: the test runner itself writes to arrays.
    Object.defineProperty(Object.prototype, "planted", setter);
    try {
      parsed = parseToolArguments('{"planted":1,"list":[{"planted":2}]}');
    } finally {
      delete (Object.prototype as Record<string, unknown>).planted;
    }
    expect(runs).toBe(0);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(Object.getOwnPropertyDescriptor(parsed.value, "planted")?.value).toBe(1);
    expect(parsed.value.list).toEqual([{ planted: 2 }]);
  });

  test("JSON.parse and String.prototype methods patched after loading change nothing", () => {
    const { parse } = JSON;
    const { charCodeAt, slice } = String.prototype;
    let parsed: ReturnType<typeof parseToolArguments>;
    // Patched and restored synchronously: the test runner itself needs the real ones.
    JSON.parse = () => {
      throw new Error("patched JSON.parse ran");
    };
    String.prototype.charCodeAt = () => 0x7b;
    String.prototype.slice = () => "patched";
    try {
      parsed = parseToolArguments('{"a":[1.5,{"b":"text"}]}');
    } finally {
      JSON.parse = parse;
      String.prototype.charCodeAt = charCodeAt;
      String.prototype.slice = slice;
    }
    expect(parsed).toEqual({ ok: true, value: { a: [1.5, { b: "text" }] } });
  });
});
