/**
 * Output budgets per registry, per Tool and per call: each level is read once
 * and checked where it is given, the narrowest level that sets a field wins,
 * and with nothing configured anywhere the course's result is unchanged.
 */
import { describe, expect, test } from "vitest";
import { executeToolCalls } from "../../../src/rounds/index.ts";
import {
  COURSE_TOOL_TRUNCATION_MARKER,
  defineTool,
  executeToolCall,
  OUTPUT_BUDGET_RANGES,
  type OutputBudget,
  serializeToolOutput,
  ToolContractError,
  ToolRegistry,
} from "../../src/index.ts";
import { call, emitting, signal } from "./support/emitting-tool.ts";

const codePoints = (text: string) => [...text].length;

function contractError(action: () => unknown): ToolContractError {
  try {
    action();
  } catch (error) {
    if (error instanceof ToolContractError) return error;
    throw error;
  }
  throw new Error("expected a ToolContractError");
}

describe("with nothing configured, the course's result byte for byte", () => {
  const cases: ReadonlyArray<readonly [string, unknown]> = [
    ["a long string", "a".repeat(10_000)],
    ["a wide array", Array.from({ length: 400 }, (_, index) => index)],
    ["a deep chain", JSON.parse(`${'{"a":'.repeat(40)}1${"}".repeat(40)}`)],
  ];
  test.each(cases)("%s: registry without options, no call options", async (_label, output) => {
    expect(cases.length).toBeGreaterThan(0);
    const result = await executeToolCall(new ToolRegistry([emitting(output)]), call, signal());
    const course = serializeToolOutput(output);
    expect(course.ok && result.content === course.content).toBe(true);
    expect(result.content.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
  });

  test("empty registry options and call options without output fields change nothing", async () => {
    const output = "b".repeat(5_000);
    const result = await executeToolCall(new ToolRegistry([emitting(output)], {}), call, signal(), {
      timeoutMs: 10_000,
    });
    expect(result.content).toBe(`"${"b".repeat(4071)}${COURSE_TOOL_TRUNCATION_MARKER}`);
  });
});

describe("each level alone", () => {
  const big = "x".repeat(20_000);

  test("a call's budget returns a 20 KB file whole", async () => {
    const registry = new ToolRegistry([emitting(big)]);
    const result = await executeToolCall(registry, call, signal(), {
      outputBudget: { maxCharacters: 50_000 },
    });
    expect(result).toMatchObject({ isError: false, content: JSON.stringify(big) });
  });

  test("a registry's budget applies to every call, and its snapshot keeps it", async () => {
    const registry = new ToolRegistry([emitting(big)], { outputBudget: { maxCharacters: 50_000 } });
    expect((await executeToolCall(registry, call, signal())).content).toBe(JSON.stringify(big));
    expect((await executeToolCall(registry.snapshot(), call, signal())).content).toBe(
      JSON.stringify(big),
    );
  });

  test("a Tool's budget is read once, frozen, and applies to its calls", async () => {
    let reads = 0;
    const definition = {
      name: "emit",
      description: "Returns its output.",
      validate: (input: unknown) => ({ ok: true as const, value: input }),
      execute: async () => big,
      get outputBudget(): OutputBudget {
        reads += 1;
        return { maxCharacters: 50_000 };
      },
    };
    const tool = defineTool(definition);
    expect(reads).toBe(1);
    expect(Object.isFrozen(tool.outputBudget)).toBe(true);
    expect(tool.outputBudget).toEqual({ maxCharacters: 50_000 });
    const result = await executeToolCall(new ToolRegistry([tool]), call, signal());
    expect(result.content).toBe(JSON.stringify(big));
    expect(reads).toBe(1);
  });

  test.each([
    ["outputBudget", { outputBudget: { maxCharacters: 2_048 } }],
    ["truncate", { truncate: "tail" as const }],
    ["format", { format: "text" as const }],
  ])("a definition's own %s is a field of its snapshot, after the course's four", (key, fields) => {
    const tool = emitting("x", fields);
    expect(Object.keys(tool)).toEqual(["name", "description", "validate", "execute", key]);
    expect(tool[key as keyof typeof tool]).toEqual(Object.values(fields)[0]);
  });

  test("a definition without output fields still has exactly the course's four fields", () => {
    expect(Object.keys(emitting("x"))).toEqual(["name", "description", "validate", "execute"]);
  });

  test("executeToolCalls passes a round's budget to every call", async () => {
    const registry = new ToolRegistry([emitting(big)]);
    const calls = [call, { ...call, id: "call-2" }];
    const results = await executeToolCalls(registry, calls, signal(), {
      outputBudget: { maxCharacters: 50_000 },
    });
    expect(results.map((result) => result.content.length)).toEqual([20_002, 20_002]);
  });
});

describe("precedence: call, then Tool, then registry, then the course, field by field", () => {
  const wide = Array.from({ length: 1_000 }, (_, index) => index);
  const entriesKept = (content: string) => {
    const match = /entries limit (\d+) reached/.exec(content);
    return match === null ? "whole" : Number(match[1]);
  };

  test.each([
    ["registry only", { maxEntries: 300 }, undefined, undefined, 300],
    ["Tool over registry", { maxEntries: 300 }, { maxEntries: 200 }, undefined, 200],
    ["call over Tool", { maxEntries: 300 }, { maxEntries: 200 }, { maxEntries: 100 }, 100],
    ["call over registry", { maxEntries: 300 }, undefined, { maxEntries: 100 }, 100],
    [
      "a call field left out falls to the Tool",
      undefined,
      { maxEntries: 200 },
      { maxDepth: 5 },
      200,
    ],
    [
      "only maxCharacters anywhere: entries grow with it",
      { maxCharacters: 20_000 },
      undefined,
      undefined,
      "whole",
    ],
  ] as const)("%s", async (_label, registryBudget, toolBudget, callBudget, expected) => {
    const tool = emitting(wide, toolBudget === undefined ? {} : { outputBudget: toolBudget });
    const registry = new ToolRegistry(
      [tool],
      registryBudget === undefined ? {} : { outputBudget: registryBudget },
    );
    const result = await executeToolCall(
      registry,
      call,
      signal(),
      callBudget === undefined ? undefined : { outputBudget: callBudget },
    );
    expect(entriesKept(result.content)).toBe(expected);
  });

  test("truncate: the call's strategy over the Tool's over the registry's", async () => {
    const log = `${"start ".repeat(1_000)}${"end ".repeat(1_000)}`;
    const tool = emitting(log, { truncate: "tail" });
    const registry = new ToolRegistry([tool], {
      truncate: "head",
      outputBudget: { maxCharacters: 2_000 },
    });
    const byTool = await executeToolCall(registry, call, signal());
    expect(byTool.content.startsWith("[Tool output truncated: ")).toBe(true);
    const byCall = await executeToolCall(registry, call, signal(), { truncate: "head-and-tail" });
    expect(byCall.content.startsWith('"start')).toBe(true);
    expect(byCall.content.endsWith('end "')).toBe(true);
  });

  test("a strategy alone, with no budget anywhere, makes the marker say what was cut", async () => {
    const registry = new ToolRegistry([emitting("log line\n".repeat(1_000))], { truncate: "tail" });
    const result = await executeToolCall(registry, call, signal());
    expect(result.content.startsWith("[Tool output truncated: ")).toBe(true);
    expect(codePoints(result.content)).toBeLessThanOrEqual(4_096);
  });

  test("a spill hook alone configures the call: the course's budgets, a marker naming the reference", async () => {
    const registry = new ToolRegistry([emitting("z".repeat(5_000))], { spill: () => "ref-1" });
    const result = await executeToolCall(registry, call, signal());
    expect(result.content.endsWith(" of 5000 characters kept; full output: ref-1]")).toBe(true);
  });

  test("maxSpillCharacters or onSpillError alone configure nothing: the course's result", async () => {
    const registry = new ToolRegistry([emitting("z".repeat(5_000))], {
      maxSpillCharacters: 5_000,
      onSpillError: () => {},
    });
    const result = await executeToolCall(registry, call, signal());
    expect(result.content.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
  });

  test("error results obey the call's maxCharacters too", async () => {
    const tool = defineTool({
      name: "emit",
      description: "Refuses with a long reason.",
      validate: () => ({ ok: false, error: "why ".repeat(3_000) }),
      execute: async () => "never",
    });
    const registry = new ToolRegistry([tool]);
    const result = await executeToolCall(registry, call, signal(), {
      outputBudget: { maxCharacters: 1_024 },
    });
    expect(result.isError).toBe(true);
    expect(codePoints(result.content)).toBeLessThanOrEqual(1_024);
    expect(result.content).toContain("[Tool output truncated: characters limit 1024 reached]");
    const unknown = await executeToolCall(
      registry,
      { ...call, name: "x".repeat(2_000) },
      signal(),
      {
        outputBudget: { maxCharacters: 1_024 },
      },
    );
    expect(codePoints(unknown.content)).toBeLessThanOrEqual(1_024);
  });
});

describe("invalid budgets are refused where they are given", () => {
  const ranges = Object.entries(OUTPUT_BUDGET_RANGES);
  const invalidValues = ranges.flatMap(([field, [low, high]]) => [
    [field, low - 1, `outputBudget.${field} must be an integer from ${low} to ${high}`],
    [field, high + 1, `outputBudget.${field} must be an integer from ${low} to ${high}`],
    [field, low + 0.5, `outputBudget.${field} must be an integer from ${low} to ${high}`],
    [field, `${low}`, `outputBudget.${field} must be an integer from ${low} to ${high}`],
    [field, Number.NaN, `outputBudget.${field} must be an integer from ${low} to ${high}`],
  ]) as Array<[string, unknown, string]>;

  test("the table covers every field", () => {
    expect(ranges.map(([field]) => field)).toEqual([
      "maxCharacters",
      "maxDepth",
      "maxNodes",
      "maxEntries",
      "maxStringCharacters",
      "maxBigIntBits",
      "maxParts",
      "maxPartBytes",
      "maxTotalBytes",
    ]);
    expect(invalidValues.length).toBe(45);
  });

  test.each(invalidValues)("call: %s = %j is INVALID_TOOL_CALL", async (field, value, message) => {
    const registry = new ToolRegistry([emitting("x")]);
    const rejection = executeToolCall(registry, call, signal(), {
      outputBudget: { [field]: value } as OutputBudget,
    });
    await expect(rejection).rejects.toMatchObject({ code: "INVALID_TOOL_CALL", message });
  });

  test.each(invalidValues)("Tool: %s = %j is INVALID_TOOL_DEFINITION", (field, value, message) => {
    const error = contractError(() =>
      emitting("x", { outputBudget: { [field]: value } as OutputBudget }),
    );
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe(`Tool definition ${message}`);
  });

  test.each(invalidValues)("registry: %s = %j is a TypeError", (field, value, message) => {
    expect(
      () => new ToolRegistry([], { outputBudget: { [field]: value } as OutputBudget }),
    ).toThrow(new TypeError(`ToolRegistry options: ${message}`));
  });

  test.each([
    ["a typo", { maxChars: 100 }, 'outputBudget has an unknown field "maxChars"'],
    ["not an object", 50_000, "outputBudget must be a plain object (not a Proxy)"],
    ["a Proxy", new Proxy({}, {}), "outputBudget must be a plain object (not a Proxy)"],
    ["null", null, "outputBudget must be a plain object (not a Proxy)"],
  ])("%s as outputBudget is refused with a message naming it", async (_label, budget, message) => {
    const registry = new ToolRegistry([emitting("x")]);
    const rejection = executeToolCall(registry, call, signal(), {
      outputBudget: budget as OutputBudget,
    });
    await expect(rejection).rejects.toMatchObject({ code: "INVALID_TOOL_CALL" });
    await expect(rejection).rejects.toThrow(message);
  });

  test.each([
    ["truncate", { truncate: "middle" }, 'truncate must be "head", "tail" or "head-and-tail"'],
    ["spill", { spill: "a path" }, "spill must be a function"],
    ["onSpillError", { onSpillError: 1 }, "onSpillError must be a function"],
    [
      "maxSpillCharacters",
      { maxSpillCharacters: 100 },
      "maxSpillCharacters must be an integer from 1024 to 50000000",
    ],
  ])("a bad %s is refused at every level that takes it", async (_label, options, message) => {
    expect(() => new ToolRegistry([], options as never)).toThrow(
      new TypeError(`ToolRegistry options: ${message}`),
    );
    const rejection = executeToolCall(
      new ToolRegistry([emitting("x")]),
      call,
      signal(),
      options as never,
    );
    await expect(rejection).rejects.toMatchObject({ code: "INVALID_TOOL_CALL", message });
    await expect(
      executeToolCalls(new ToolRegistry([emitting("x")]), [call], signal(), options as never),
    ).rejects.toMatchObject({ code: "INVALID_TOOL_CALL", message });
  });

  test("a bad truncate on a definition is INVALID_TOOL_DEFINITION", () => {
    const error = contractError(() => emitting("x", { truncate: "middle" as never }));
    expect(error.message).toBe(
      'Tool definition truncate must be "head", "tail" or "head-and-tail"',
    );
  });

  test("a throwing getter in the budget is refused with its field named, and read once", async () => {
    let reads = 0;
    const budget = {
      get maxCharacters(): number {
        reads += 1;
        throw new Error("hostile");
      },
    };
    const rejection = executeToolCall(new ToolRegistry([emitting("x")]), call, signal(), {
      outputBudget: budget,
    });
    await expect(rejection).rejects.toThrow("outputBudget.maxCharacters threw when read");
    expect(reads).toBe(1);
  });

  test("a registry option getter that throws is a TypeError with the throw as cause", () => {
    const thrown = new Error("hostile");
    const options = {
      get outputBudget(): OutputBudget {
        throw thrown;
      },
    };
    let caught: unknown;
    try {
      new ToolRegistry([], options);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as TypeError).message).toBe(
      "ToolRegistry options: outputBudget threw when read",
    );
    expect((caught as TypeError).cause).toBe(thrown);
  });

  test.each([
    ["a number", 5],
    ["null", null],
    ["a Proxy", new Proxy({}, {})],
  ])("registry options that are %s are a TypeError", (_label, options) => {
    expect(() => new ToolRegistry([], options as never)).toThrow(
      new TypeError("ToolRegistry options must be a plain object (not a Proxy)"),
    );
  });

  test("an unknown budget field named undefined is refused, not read", async () => {
    const rejection = executeToolCall(new ToolRegistry([emitting("x")]), call, signal(), {
      outputBudget: { undefined: 5 } as never,
    });
    await expect(rejection).rejects.toThrow('outputBudget has an unknown field "undefined"');
  });

  test("a long unknown field is shortened to 40 characters in the message", async () => {
    const key = `${"k".repeat(40)}tail-that-is-cut`;
    const rejection = executeToolCall(new ToolRegistry([emitting("x")]), call, signal(), {
      outputBudget: { [key]: 5 } as never,
    });
    await expect(rejection).rejects.toThrow(
      `unknown field "${"k".repeat(40)}…"; the fields are maxCharacters, maxDepth`,
    );
    const exact = "q".repeat(40);
    await expect(
      executeToolCall(new ToolRegistry([emitting("x")]), call, signal(), {
        outputBudget: { [exact]: 5 } as never,
      }),
    ).rejects.toThrow(`unknown field "${exact}"; the fields`);
  });

  test("a frozen budget copy holds only the fields that were set", () => {
    const tool = emitting("x", {
      outputBudget: { maxDepth: 5, maxNodes: undefined } as unknown as OutputBudget,
    });
    expect(Object.keys(tool.outputBudget ?? {})).toEqual(["maxDepth"]);
  });

  test("an invalid registry option registers nothing: the constructor throws first", () => {
    let executed = 0;
    const tool = defineTool({
      name: "t",
      description: "d",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => {
        executed += 1;
      },
    });
    expect(() => new ToolRegistry([tool], { truncate: "sideways" as never })).toThrow(TypeError);
    expect(executed).toBe(0);
  });
});
