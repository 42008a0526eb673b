/**
 * Hostile input at the round trip's front door: every hostile argument text
 * and value, in every format, becomes a linked TOOL_ARGUMENTS_INVALID answer
 * and never reaches `execute`; what only host code can build is a TypeError;
 * and reading a response runs each of its getters at most once and never a trap.
 */
import { describe, expect, test } from "vitest";
import { invalidArgumentsReason } from "../../course/src/index.ts";
import {
  anthropicMessage,
  chatCompletion,
  chatToolCall,
  errorContent,
  functionCallPart,
  geminiResponse,
  recordingRegistry,
  TEXT_FORMATS,
  thrownBy,
  toolUseBlock,
  VALUE_FORMATS,
} from "../../test/support/providers.ts";
import { executeToolCalls } from "../rounds/index.ts";
import { readToolCalls } from "./index.ts";

const signal = () => new AbortController().signal;

/** `depth` objects nested under key "a", built without recursion. */
function deepObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < depth; level += 1) value = { a: value };
  return value;
}

const HOSTILE_TEXTS: ReadonlyArray<readonly [string, string, string]> = [
  [
    "invalid JSON",
    '{"path": nope}',
    "arguments are not valid JSON at position 10: unexpected character",
  ],
  [
    "text truncated mid-string",
    '{"path":"/etc/pas',
    "arguments are not valid JSON at position 17: unexpected end of input",
  ],
  [
    "10 MB of text",
    `{"a":"${"x".repeat(10_000_000)}"}`,
    "arguments are 10000008 characters long, more than the limit of 1000000",
  ],
  [
    "a 100,000-deep array",
    `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    "arguments nest deeper than 64 levels at position 68",
  ],
  [
    "duplicate keys",
    '{"path":"safe.txt","path":"/etc/passwd"}',
    "arguments repeat an object key at position 19",
  ],
  [
    "an escaped lone surrogate",
    '{"name":"\\ud800"}',
    "arguments contain a lone surrogate at position 9",
  ],
  ["a raw lone surrogate", '{"name":"\udfff"}', "arguments contain a lone surrogate at position 9"],
  ["a number instead of an object", "42", "arguments must be a JSON object, not a number"],
  [
    "an array instead of an object",
    '[{"path":"a"}]',
    "arguments must be a JSON object, not an array",
  ],
  [
    "a number beyond a double",
    '{"n":1e999}',
    "arguments contain a number too large for a double at position 5",
  ],
];

describe.each(TEXT_FORMATS)("%s: hostile argument text", (format, response) => {
  test.each(HOSTILE_TEXTS)(
    "%s is answered with TOOL_ARGUMENTS_INVALID, linked, and never executed",
    async (_label, text, reason) => {
      expect(HOSTILE_TEXTS.length).toBeGreaterThan(0);
      const calls = readToolCalls(format, response(['{"ok":true}', text]));
      expect(invalidArgumentsReason(calls[1])).toBe(reason);
      const { registry, executed } = recordingRegistry();
      const results = await executeToolCalls(registry, calls, signal());
      expect(results[1]).toMatchObject({
        toolCallId: "call_1",
        toolName: "work",
        content: errorContent("TOOL_ARGUMENTS_INVALID", reason),
        isError: true,
      });
      expect(executed).toEqual([{ ok: true }]);
    },
  );

  test("a __proto__ key reaches the Tool as an own key, and nothing is polluted", async () => {
    const calls = readToolCalls(format, response(['{"__proto__":{"isAdmin":true}}']));
    const { registry, executed } = recordingRegistry();
    await executeToolCalls(registry, calls, signal());
    const [args] = executed as Record<string, unknown>[];
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(args, "__proto__")?.value).toEqual({ isAdmin: true });
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });
});

const HOSTILE_VALUES: ReadonlyArray<readonly [string, () => unknown, string]> = [
  ["a 100,000-deep object", () => deepObject(100_000), "arguments nest deeper than 64 levels"],
  ["a 65-deep object", () => deepObject(65), "arguments nest deeper than 64 levels"],
  [
    "a 10 MB string",
    () => ({ a: "x".repeat(10_000_000) }),
    "arguments are longer than the limit of 1000000 characters as JSON text",
  ],
  [
    "a number the SDK read as Infinity",
    () => JSON.parse('{"n":[1e999]}'),
    "arguments contain a number that is not finite",
  ],
  ["an array instead of an object", () => [1, 2], "arguments must be a JSON object, not an array"],
  ["a number instead of an object", () => 42, "arguments must be a JSON object, not a number"],
  [
    "a lone surrogate in a string",
    () => JSON.parse('{"name":["ok","\\ud800"]}'),
    "arguments contain a lone surrogate",
  ],
  [
    "a lone low surrogate in a key",
    () => JSON.parse('{"\\udc00":1}'),
    "arguments contain a lone surrogate",
  ],
];

describe.each(VALUE_FORMATS)("%s: hostile argument values", (format, response) => {
  test.each(HOSTILE_VALUES)(
    "%s is answered with TOOL_ARGUMENTS_INVALID and never executed",
    async (_label, value, reason) => {
      expect(HOSTILE_VALUES.length).toBeGreaterThan(0);
      const calls = readToolCalls(format, response([{ ok: true }, value()]));
      expect(invalidArgumentsReason(calls[1])).toBe(reason);
      const { registry, executed } = recordingRegistry();
      const results = await executeToolCalls(registry, calls, signal());
      expect(results[1]?.content).toBe(errorContent("TOOL_ARGUMENTS_INVALID", reason));
      expect(executed).toEqual([{ ok: true }]);
    },
  );

  test.each([
    ["exactly the limit", 20, true],
    ["one over the limit", 21, false],
  ])("maxArgumentCharacters counts compact JSON text: %s", (_label, length, ok) => {
    const value = { a: "x".repeat(length - 8) };
    expect(JSON.stringify(value)).toHaveLength(length);
    const [call] = readToolCalls(format, response([value]), { maxArgumentCharacters: 20 });
    expect(invalidArgumentsReason(call) === undefined).toBe(ok);
  });

  test("a value past its limit is refused before it is copied: a getter on it never runs", () => {
    let reads = 0;
    const value = Object.defineProperty({ big: "x".repeat(2_000_000) }, "probe", {
      enumerable: true,
      get() {
        reads += 1;
        return 1;
      },
    });
    const [call] = readToolCalls(format, response([value]));
    expect(invalidArgumentsReason(call)).toBe(
      "arguments are longer than the limit of 1000000 characters as JSON text",
    );
    expect(reads).toBe(0);
  });

  test("a getter's answer is measured after the copy: a too-long answer is refused, read once", () => {
    let reads = 0;
    const value = Object.defineProperty({ small: 1 }, "grows", {
      enumerable: true,
      get() {
        reads += 1;
        return "x".repeat(100);
      },
    });
    const [call] = readToolCalls(format, response([value]), { maxArgumentCharacters: 50 });
    expect(invalidArgumentsReason(call)).toBe(
      "arguments are longer than the limit of 50 characters as JSON text",
    );
    expect(reads).toBe(1);
  });

  test("surrogate pairs are text: a pair in a key and a string is accepted", () => {
    const [call] = readToolCalls(format, response([{ "😀": "😀" }]));
    expect(invalidArgumentsReason(call)).toBeUndefined();
  });

  test("exactly maxArgumentDepth levels are accepted", () => {
    const [call] = readToolCalls(format, response([deepObject(8)]), { maxArgumentDepth: 8 });
    expect(invalidArgumentsReason(call)).toBeUndefined();
  });

  test("a value sharing its parts 60 levels deep costs its size, not its 2^60 paths", () => {
    let shared: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 60; level += 1) shared = { left: shared, right: shared };
    const [call] = readToolCalls(format, response([shared]), { maxArgumentDepth: 64 });
    // Compact JSON would be 2^60 leaves long: the length budget stops the count early.
    expect(invalidArgumentsReason(call)).toBe(
      "arguments are longer than the limit of 1000000 characters as JSON text",
    );
  });

  test("a __proto__ key the SDK parsed stays an own key", () => {
    const [call] = readToolCalls(format, response([JSON.parse('{"__proto__":{"x":1}}')]));
    expect(Object.getPrototypeOf(call?.arguments)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(call?.arguments, "__proto__")?.value).toEqual({ x: 1 });
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  test.each([
    ["a Proxy", () => new Proxy({}, {})],
    ["a cycle", () => cyclic],
    ["a Date inside", () => ({ when: new Date(0) })],
    ["a class instance inside", () => ({ thing: new (class Thing {})() })],
    ["a function inside", () => ({ run: () => 1 })],
    [
      "a getter that throws",
      () =>
        Object.defineProperty({}, "a", {
          enumerable: true,
          get() {
            throw new Error("boom");
          },
        }),
    ],
  ])(
    "%s, which only host code can build, is a TypeError with the snapshot's reason as cause",
    (_label, value) => {
      const error = thrownBy(() => readToolCalls(format, response([value()])));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toMatch(
        new RegExp(`^readToolCalls\\("${format}"\\): .* holds arguments that are not JSON data$`),
      );
      expect((error as TypeError).cause).toMatchObject({ code: "INVALID_TOOL_CALL" });
    },
  );
});

/**
 * Rebuilds `value` with every own field of every object and array behind a
 * getter that counts its runs under its path.
 */
function counted(value: unknown, reads: Map<string, number>, path = "$"): unknown {
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const [key, inner] of Object.entries(value)) {
    const innerPath = `${path}.${key}`;
    const wrapped = counted(inner, reads, innerPath);
    reads.set(innerPath, 0);
    Object.defineProperty(copy, key, {
      enumerable: true,
      get() {
        reads.set(innerPath, (reads.get(innerPath) ?? 0) + 1);
        return wrapped;
      },
    });
  }
  return copy;
}

describe("reading a response touches each field at most once", () => {
  test.each([
    [
      "openai-chat",
      chatCompletion({
        content: "Checking.",
        tool_calls: [chatToolCall("call_1", "work", '{"a":1}'), chatToolCall("call_2", "add", "{")],
      }),
      ["$.choices.0.message.tool_calls.0.function.arguments", "$.choices.0.finish_reason"],
    ],
    [
      "anthropic",
      anthropicMessage([toolUseBlock("toolu_1", "work", { a: { b: [1, 2] } })], "tool_use"),
      ["$.content.0.input", "$.content.0.input.a.b.1", "$.stop_reason"],
    ],
    [
      "gemini",
      geminiResponse([{ text: "x" }, functionCallPart("work", { a: [1] })]),
      ["$.candidates.0.content.parts.1.functionCall.args.a.0", "$.candidates.0.finishReason"],
    ],
  ] as const)(
    "%s: every getter runs at most once, the ones it needs exactly once",
    (format, response, needed) => {
      const reads = new Map<string, number>();
      const calls = readToolCalls(format, counted(response, reads));
      expect(calls.length).toBeGreaterThan(0);
      expect(reads.size).toBeGreaterThan(0);
      for (const [path, count] of reads) expect([path, count]).toEqual([path, Math.min(count, 1)]);
      for (const path of needed) expect([path, reads.get(path)]).toEqual([path, 1]);
    },
  );

  test("a Proxy response is refused before any of its traps runs", () => {
    let traps = 0;
    const handler = new Proxy(
      {},
      {
        get() {
          traps += 1;
          return undefined;
        },
      },
    );
    for (const format of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
      expect(() =>
        readToolCalls(format, new Proxy(chatCompletion({ content: null }), handler)),
      ).toThrow("found a Proxy");
    }
    expect(traps).toBe(0);
  });

  test("a Proxy nested in the response is refused without running its traps", () => {
    let traps = 0;
    const counting = new Proxy(
      {},
      {
        get() {
          traps += 1;
          return undefined;
        },
      },
    );
    const tool_calls = new Proxy([chatToolCall("c", "work", "{}")], counting);
    expect(() => readToolCalls("openai-chat", { role: "assistant", tool_calls })).toThrow(
      "message.tool_calls must be an array; found a Proxy",
    );
    expect(traps).toBe(0);
  });

  test("a getter that throws is the host's mistake: a TypeError with the thrown value as cause", () => {
    const boom = new Error("getter failed");
    const response = Object.defineProperty({}, "choices", {
      get() {
        throw boom;
      },
    });
    const error = thrownBy(() => readToolCalls("openai-chat", response));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe(
      'readToolCalls("openai-chat"): response.choices must be readable; found undefined',
    );
    expect((error as TypeError).cause).toBe(boom);
  });

  test("inherited fields count as absent: a response made from a prototype has no calls to read", () => {
    const proto = chatCompletion({ content: null, tool_calls: [chatToolCall("c", "work", "{}")] });
    expect(() => readToolCalls("openai-chat", Object.create(proto))).toThrow(
      "found an object with neither",
    );
  });
});

describe("formats and options", () => {
  test.each([
    ["mcp", "mcp", '(MCP calls arrive one at a time through toolbound/mcp); found "mcp"'],
    ["an unknown name", "openai", 'found "openai"'],
    ["a number", 3, "found a number"],
  ])("an unknown format (%s) is a TypeError naming the formats", (_label, format, found) => {
    const error = thrownBy(() => readToolCalls(format as never, []));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toContain(
      "readToolCalls format must be one of openai-chat, openai-responses, anthropic, gemini",
    );
    expect((error as TypeError).message).toContain(found);
  });

  test("bad options are a TypeError before the response is read", () => {
    expect(() => readToolCalls("openai-chat", null, { maxArgumentDepth: 0 })).toThrow(
      "readToolCalls option maxArgumentDepth must be an integer from 1 to 256",
    );
  });
});
