/**
 * Output settings under attack: keys planted on Object.prototype, budgets that
 * are not plain objects, getters that throw, Proxy prototypes whose traps
 * throw. None of them may change the course's result, run code they should
 * not, or escape the boundary unwrapped.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  COURSE_TOOL_TRUNCATION_MARKER,
  executeToolCall,
  type OutputBudget,
  serializeToolOutput,
  ToolContractError,
  ToolRegistry,
} from "../../src/index.ts";
import { call, emitting, signal } from "./support/emitting-tool.ts";

const LONG = "x".repeat(10_000);

const planted: string[] = [];
/** Plants an enumerable, writable key on Object.prototype for one test. */
function plant(key: string, value: unknown): void {
  Object.defineProperty(Object.prototype, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  planted.push(key);
}
afterEach(() => {
  for (const key of planted.splice(0)) delete (Object.prototype as Record<string, unknown>)[key];
});

describe("keys planted on Object.prototype are never settings", () => {
  test.each([
    ["outputBudget", { maxCharacters: 1_000_000, maxStringCharacters: 1_000_000 }],
    ["truncate", "tail"],
    ["spill", () => "planted"],
  ])("a planted %s leaves the course's three-argument result unchanged", async (key, value) => {
    plant(key, value);
    const result = await executeToolCall(new ToolRegistry([emitting(LONG)]), call, signal());
    expect(result.content).toBe(`"${"x".repeat(4071)}${COURSE_TOOL_TRUNCATION_MARKER}`);
  });

  test("a planted budget field does not fill one the host left out", async () => {
    plant("maxCharacters", 1_000_000);
    const result = await executeToolCall(new ToolRegistry([emitting(LONG)]), call, signal(), {
      outputBudget: { maxDepth: 10 },
    });
    expect([...result.content].length).toBe(4_096);
  });

  test("a planted spill hook is not called for a call that passes options of its own", async () => {
    let spilled = 0;
    plant("spill", () => {
      spilled += 1;
      return "stolen";
    });
    const result = await executeToolCall(new ToolRegistry([emitting(LONG)]), call, signal(), {
      outputBudget: { maxCharacters: 2_000 },
    });
    expect(result.content).not.toContain("stolen");
    expect(spilled).toBe(0);
  });

  test("a planted truncate on a Tool's snapshot is not the Tool's strategy", async () => {
    plant("truncate", "tail");
    const registry = new ToolRegistry([emitting(LONG)], { outputBudget: { maxCharacters: 2_000 } });
    const result = await executeToolCall(registry, call, signal());
    expect(result.content.startsWith('"xxx')).toBe(true);
  });
});

describe("budgets that are not plain objects are refused without running their code", () => {
  class Budget {
    get maxCharacters(): number {
      throw new Error("a getter on the class ran");
    }
  }
  const notPlain: ReadonlyArray<readonly [string, () => unknown]> = [
    ["an array", () => []],
    ["a Date", () => new Date()],
    ["a Map", () => new Map([["maxCharacters", 50_000]])],
    ["a class instance", () => new Budget()],
    ["an object inheriting its fields", () => Object.create({ maxCharacters: 50_000 })],
  ];

  test.each(notPlain)("%s is INVALID_TOOL_CALL", async (_label, make) => {
    expect(notPlain.length).toBeGreaterThan(0);
    const rejection = executeToolCall(new ToolRegistry([emitting("x")]), call, signal(), {
      outputBudget: make() as OutputBudget,
    });
    await expect(rejection).rejects.toMatchObject({
      code: "INVALID_TOOL_CALL",
      message: "outputBudget must be a plain object (not a Proxy)",
    });
  });

  test("a budget on a Proxy prototype is refused before any trap runs", async () => {
    const traps: string[] = [];
    const proto = new Proxy(Object.prototype, {
      ownKeys: (target) => {
        traps.push("ownKeys");
        return Reflect.ownKeys(target);
      },
      getPrototypeOf: (target) => {
        traps.push("getPrototypeOf");
        return Reflect.getPrototypeOf(target);
      },
    });
    const budget = Object.create(proto) as OutputBudget;
    expect(() => new ToolRegistry([], { outputBudget: budget })).toThrow(
      new TypeError("ToolRegistry options: outputBudget must be a plain object (not a Proxy)"),
    );
    expect(() => emitting("x", { outputBudget: budget })).toThrow(ToolContractError);
    expect(traps).toEqual([]);
  });

  test("a null-prototype budget is accepted", async () => {
    const budget = Object.assign(Object.create(null), { maxCharacters: 50_000 }) as OutputBudget;
    const result = await executeToolCall(new ToolRegistry([emitting(LONG)]), call, signal(), {
      outputBudget: budget,
    });
    expect(result.content).toBe(JSON.stringify(LONG));
  });
});

describe("throws from user code are wrapped and named", () => {
  const trapThrows = (thrown: unknown) =>
    Object.create(
      new Proxy(Object.prototype, {
        getPrototypeOf: () => {
          throw thrown;
        },
      }),
    );

  test("parameters on a Proxy prototype whose trap throws: INVALID_TOOL_DEFINITION, the throw as cause", () => {
    const forged = new ToolContractError("INVALID_TOOL_CALL", "forged by the definition");
    let caught: unknown;
    try {
      emitting("x", { parameters: { nested: trapThrows(forged) } as never });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolContractError);
    expect(caught).not.toBe(forged);
    expect(caught).toMatchObject({ code: "INVALID_TOOL_DEFINITION" });
    expect((caught as Error).message).toContain("$.nested: reading its prototype threw");
    expect((caught as Error).cause).toBe(forged);
  });

  test("call arguments on such a prototype: INVALID_TOOL_CALL naming the path, the throw as cause", async () => {
    const thrown = new Error("trap threw");
    const rejection = executeToolCall(
      new ToolRegistry([emitting("x")]),
      {
        ...call,
        arguments: { deep: trapThrows(thrown) },
      },
      signal(),
    );
    await expect(rejection).rejects.toMatchObject({
      code: "INVALID_TOOL_CALL",
      message: "Tool call arguments at $.deep: reading its prototype threw",
      cause: thrown,
    });
  });

  test("a call option getter that throws is refused naming the option", async () => {
    const thrown = new Error("hostile getter");
    const options = {
      get truncate(): "head" {
        throw thrown;
      },
    };
    await expect(
      executeToolCall(new ToolRegistry([emitting("x")]), call, signal(), options),
    ).rejects.toMatchObject({
      code: "INVALID_TOOL_CALL",
      message: 'Tool call option "truncate" threw when read',
      cause: thrown,
    });
  });

  test("a serializeToolOutput option getter that throws is a TypeError naming it", () => {
    const options = {
      get outputBudget(): OutputBudget {
        throw new Error("hostile getter");
      },
    };
    expect(() => serializeToolOutput("x", options)).toThrow(
      new TypeError("serializeToolOutput options: outputBudget threw when read"),
    );
  });

  test("the getter's own error is the TypeError's cause", () => {
    const thrown = new Error("hostile getter");
    const options = {
      get truncate(): "head" {
        throw thrown;
      },
    };
    let caught: unknown;
    try {
      serializeToolOutput("x", options);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as TypeError).cause).toBe(thrown);
  });

  test.each([
    ["a number", 5],
    ["a string", "head"],
    ["null", null],
    ["a Proxy", new Proxy({}, {})],
  ])("serializeToolOutput options that are %s are refused as a TypeError", (_label, options) => {
    expect(() => serializeToolOutput("x", options as never)).toThrow(
      new TypeError("serializeToolOutput options: must be a plain object (not a Proxy)"),
    );
  });
});

describe("refusals under a configured budget", () => {
  const proxyOutput = { plain: new Proxy({}, {}) };
  const message = "$.plain: Proxy objects are not supported";

  test("serializeToolOutput answers the refusal, not a cut", () => {
    expect(serializeToolOutput(proxyOutput, { outputBudget: { maxCharacters: 50_000 } })).toEqual({
      ok: false,
      message,
    });
  });

  test("executeToolCall answers TOOL_OUTPUT_SERIALIZATION_FAILED with the walk's message", async () => {
    const result = await executeToolCall(
      new ToolRegistry([emitting(proxyOutput)]),
      call,
      signal(),
      {
        outputBudget: { maxCharacters: 50_000 },
      },
    );
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      JSON.stringify({ error: { code: "TOOL_OUTPUT_SERIALIZATION_FAILED", message } }),
    );
  });
});

describe("an own key named like a missing array slot", () => {
  // The write loop stops at the last collected key: one step further would read keys[length].
  test.each([
    ["course budget", undefined],
    ["configured budget", { outputBudget: { maxCharacters: 50_000 } }],
  ] as const)("{ undefined: 1 } is written once (%s)", (_label, options) => {
    expect(serializeToolOutput({ undefined: 1, b: 2 }, options)).toEqual({
      ok: true,
      content: '{"b":2,"undefined":1}',
      truncated: false,
    });
  });
});

describe("error results keep their code whatever the budget", () => {
  test.each([
    ["maxDepth 1", { maxDepth: 1 }],
    ["maxStringCharacters 5", { maxStringCharacters: 5 }],
    ["maxNodes 2", { maxNodes: 2 }],
    ["maxEntries 1", { maxEntries: 1 }],
  ] as const)("%s", async (_label, outputBudget) => {
    const result = await executeToolCall(new ToolRegistry([]), call, signal(), { outputBudget });
    expect(result.content).toBe(
      JSON.stringify({ error: { code: "TOOL_NOT_FOUND", message: 'Unknown Tool "emit"' } }),
    );
  });
});
