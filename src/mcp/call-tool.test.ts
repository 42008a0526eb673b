/**
 * The bridge's pieces without a transport: `callRegistryTool` answering each
 * outcome, and `createMcpToolServer` refusing what MCP cannot carry.
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolValidation,
  defineTool,
  NonRecoverableToolError,
  ToolRegistry,
} from "../../course/src/index.ts";
import examples from "../../examples/tools.ts";
import { callRegistryTool, createMcpToolServer } from "./index.ts";

const anyObject = (input: unknown): CourseToolValidation<Record<string, unknown>> =>
  typeof input === "object" && input !== null
    ? { ok: true, value: input as Record<string, unknown> }
    : { ok: false, error: "arguments must be an object" };

/** A Tool that reports the own keys of its arguments, and counts its runs. */
function keysTool() {
  const counts = { executions: 0 };
  const tool = defineTool({
    name: "keys",
    description: "List the own keys of the arguments.",
    validate: anyObject,
    execute: async (input) => {
      counts.executions += 1;
      return Object.getOwnPropertyNames(input);
    },
  });
  return { counts, tool };
}

function settings() {
  const logged: string[] = [];
  return { logged, settings: { log: (line: string) => logged.push(line) } };
}

describe("callRegistryTool", () => {
  test("a request cancelled while the Tool runs rejects with the reason: no result is invented", async () => {
    let aborts = 0;
    const wait = defineTool({
      name: "wait",
      description: "Wait until cancelled.",
      validate: anyObject,
      execute: (_input, { signal }) =>
        new Promise<never>((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            aborts += 1;
            reject(new Error("the Tool's own rejection"));
          });
        }),
    });
    const controller = new AbortController();
    const { logged, settings: options } = settings();
    const reason = new Error("cancelled by the client");
    const pending = callRegistryTool(
      new ToolRegistry([wait]),
      { name: "wait", arguments: {} },
      { requestId: 7, signal: controller.signal },
      options,
    );
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(aborts).toBe(1);
    expect(logged).toEqual([]);
  });

  test("a request cancelled before it starts rejects and runs nothing", async () => {
    const { counts, tool } = keysTool();
    const controller = new AbortController();
    controller.abort(new Error("too late"));
    const pending = callRegistryTool(
      new ToolRegistry([tool]),
      { name: "keys", arguments: {} },
      { requestId: 1, signal: controller.signal },
      settings().settings,
    );
    await expect(pending).rejects.toThrow("too late");
    expect(counts.executions).toBe(0);
  });

  test.each([
    ["an empty name", ""],
    ["a blank name", "   "],
  ])("%s is an isError TOOL_NOT_FOUND result", async (_label, name) => {
    const result = await callRegistryTool(
      new ToolRegistry(examples),
      { name, arguments: {} },
      { requestId: 3, signal: new AbortController().signal },
      settings().settings,
    );
    expect(result.isError).toBe(true);
    const [item] = result.content;
    expect(item?.type === "text" && JSON.parse(item.text).error.code).toBe("TOOL_NOT_FOUND");
  });

  test('keeps "__proto__" in arguments an ordinary key and pollutes no prototype', async () => {
    const { counts, tool } = keysTool();
    const args = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const result = await callRegistryTool(
      new ToolRegistry([tool]),
      { name: "keys", arguments: args },
      { requestId: 4, signal: new AbortController().signal },
      settings().settings,
    );
    expect(result).toEqual({
      content: [{ type: "text", text: '["__proto__","a"]' }],
      isError: false,
    });
    expect(counts.executions).toBe(1);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test("missing arguments are read as an empty object", async () => {
    const { tool } = keysTool();
    const result = await callRegistryTool(
      new ToolRegistry([tool]),
      { name: "keys" },
      { requestId: 5, signal: new AbortController().signal },
      settings().settings,
    );
    expect(result).toEqual({ content: [{ type: "text", text: "[]" }], isError: false });
  });

  test("a non-recoverable error with line breaks is logged as exactly one line", async () => {
    const fatal = defineTool({
      name: "fatal",
      description: "Break an invariant.",
      validate: anyObject,
      execute: async () => {
        throw new NonRecoverableToolError("first line\nsecond line\r\nthird line");
      },
    });
    const { logged, settings: options } = settings();
    const pending = callRegistryTool(
      new ToolRegistry([fatal]),
      { name: "fatal", arguments: {} },
      { requestId: "req-9", signal: new AbortController().signal },
      options,
    );
    await expect(pending).rejects.toMatchObject({ code: -32603 });
    expect(logged).toEqual([
      'toolbound mcp: request req-9: Tool "fatal" stopped with a non-recoverable error: ' +
        "NonRecoverableToolError: first line second line third line",
    ]);
  });

  test("a host mistake (invalid call options) is a protocol error, not a model-visible result", async () => {
    const { counts, tool } = keysTool();
    const { logged } = settings();
    const pending = callRegistryTool(
      new ToolRegistry([tool]),
      { name: "keys", arguments: {} },
      { requestId: 6, signal: new AbortController().signal },
      { callOptions: { timeoutMs: -1 }, log: (line) => logged.push(line) },
    );
    await expect(pending).rejects.toMatchObject({ code: -32603 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("an unexpected error: ToolContractError");
    expect(counts.executions).toBe(0);
  });
});

describe("createMcpToolServer", () => {
  test.each([
    [
      "a string schema",
      "odd",
      { type: "string" },
      /Tool "odd": parameters must have type "object"/,
    ],
    ["a schema without a type", "odd", { properties: {} }, /type "object"/],
    ["a name with a space (MCP's name rule)", "read file", undefined, /MCP rule/],
  ])("refuses %s up front, naming the Tool", (_label, name, parameters, message) => {
    const odd = defineTool({
      name,
      description: "Something MCP cannot carry.",
      ...(parameters === undefined ? {} : { parameters }),
      validate: anyObject,
      execute: async () => null,
    });
    expect(() => createMcpToolServer(new ToolRegistry([odd]))).toThrow(message);
  });

  test("refuses a registry look-alike without calling any of its methods", () => {
    let calls = 0;
    const count = () => {
      calls += 1;
      return [];
    };
    const fake = { names: [], get: count, snapshot: count } as unknown as ToolRegistry;
    expect(() => createMcpToolServer(fake)).toThrow("needs a ToolRegistry");
    expect(calls).toBe(0);
  });
});
