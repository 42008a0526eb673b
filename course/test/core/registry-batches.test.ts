/**
 * Pins the host-visible refusals of ToolRegistry batches and single
 * registrations: the exact INVALID_TOOL_BATCH messages (not an array, a
 * Proxy, a hole, an entry that throws), the labels that name a bad
 * definition, that a failed batch leaves the registry unchanged, and that the
 * registry brand check answers false (never throws) for primitives.
 */
import { describe, expect, test } from "vitest";
import { defineTool, ToolRegistry } from "../../src/index.ts";
import { isToolRegistry } from "../../src/registry.ts";
import { countingHandler, refusal } from "./support/hostile.ts";

const definition = (name: string) => ({
  name,
  description: `The ${name} Tool.`,
  validate: (input: unknown) => ({ ok: true as const, value: input }),
  execute: async () => name,
});

type Batch = Parameters<ToolRegistry["registerMany"]>[0];

describe("refusing a batch that is not a plain array", () => {
  const cases: [string, unknown][] = [
    ["a number", 42],
    ["null", null],
    ["undefined", undefined],
    ["a string", "echo"],
    ["an array-like object", { length: 1, 0: definition("echo") }],
    ["a function", () => [definition("echo")]],
  ];

  test("the not-an-array table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("refuses %s as INVALID_TOOL_BATCH", (_name, batch) => {
    const registry = new ToolRegistry();
    const error = refusal(() => registry.registerMany(batch as Batch));
    expect(error.code).toBe("INVALID_TOOL_BATCH");
    expect(error.message).toBe("Tool batch must be an array (not a Proxy)");
    expect(registry.size).toBe(0);
  });

  test("refuses a Proxy of an array without running a trap", () => {
    const { handler, traps } = countingHandler<ReturnType<typeof definition>[]>();
    const error = refusal(() => new ToolRegistry(new Proxy([definition("echo")], handler)));
    expect(error.code).toBe("INVALID_TOOL_BATCH");
    expect(error.message).toBe("Tool batch must be an array (not a Proxy)");
    expect(traps()).toBe(0);
  });
});

describe("refusing a bad slot of a batch", () => {
  test("refuses a hole with its index, leaving the registry unchanged", () => {
    const registry = new ToolRegistry([definition("kept")]);
    const batch = [definition("a"), definition("placeholder"), definition("b")];
    delete batch[1];
    const error = refusal(() => registry.registerMany(batch));
    expect(error.code).toBe("INVALID_TOOL_BATCH");
    expect(error.message).toBe("Tool batch has a hole at index 1");
    expect(registry.names).toEqual(["kept"]);
  });

  test("an entry whose getter throws is read once and refused with the throw as cause", () => {
    let reads = 0;
    const thrown = new Error("hostile entry");
    const batch = [definition("a"), definition("b")];
    Object.defineProperty(batch, 1, {
      get() {
        reads += 1;
        throw thrown;
      },
    });
    const registry = new ToolRegistry();
    const error = refusal(() => registry.registerMany(batch));
    expect(error.code).toBe("INVALID_TOOL_BATCH");
    expect(error.message).toBe("Tool batch entry 1 threw when read");
    expect(error.cause).toBe(thrown);
    expect(reads).toBe(1);
    expect(registry.size).toBe(0);
  });

  test("an entry accessor without a getter reads as undefined, refused as a definition", () => {
    const batch = [definition("a"), definition("b")];
    Object.defineProperty(batch, 1, { set() {} });
    const error = refusal(() => new ToolRegistry(batch));
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe("Tool definition at index 1 must be an object");
  });

  test("an entry getter runs with the batch as this and no arguments", () => {
    const seen: { self: unknown; count: number }[] = [];
    const batch = [definition("a")];
    Object.defineProperty(batch, 0, {
      get(this: unknown, ...rest: unknown[]) {
        seen.push({ self: this, count: rest.length });
        return definition("a");
      },
    });
    expect(new ToolRegistry(batch).names).toEqual(["a"]);
    expect(seen).toEqual([{ self: batch, count: 0 }]);
  });
});

describe("labels that name a bad definition", () => {
  test("registerMany names the index of the bad entry and changes nothing", () => {
    const registry = new ToolRegistry([definition("kept")]);
    const error = refusal(() => registry.registerMany([definition("a"), 42] as unknown as Batch));
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe("Tool definition at index 1 must be an object");
    expect(registry.names).toEqual(["kept"]);
  });

  test("register names the definition without an index", () => {
    const registry = new ToolRegistry();
    const error = refusal(() => registry.register(null as never));
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe("Tool definition must be an object");
  });

  test("a duplicate inside one batch is refused and nothing is registered", () => {
    const registry = new ToolRegistry();
    const error = refusal(() =>
      registry.registerMany([defineTool(definition("a")), definition("a")]),
    );
    expect(error.code).toBe("DUPLICATE_TOOL_NAME");
    expect(error.message).toBe('Tool name "a" is already registered');
    expect(registry.size).toBe(0);
  });
});

describe("the registry brand check", () => {
  const values: [string, unknown][] = [
    ["a number", 42],
    ["a string", "registry"],
    ["undefined", undefined],
    ["null", null],
    ["a boolean", true],
    ["a symbol", Symbol("registry")],
    ["a plain object", {}],
    ["a function", () => new ToolRegistry()],
  ];

  test("the non-registry table is not empty", () => {
    expect(values.length).toBeGreaterThan(0);
  });

  test.each(values)("answers false for %s without throwing", (_name, value) => {
    expect(isToolRegistry(value)).toBe(false);
  });

  test("answers true for a registry and for its snapshot", () => {
    const registry = new ToolRegistry([definition("a")]);
    expect(isToolRegistry(registry)).toBe(true);
    expect(isToolRegistry(registry.snapshot())).toBe(true);
  });
});
