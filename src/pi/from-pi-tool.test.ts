import { Type } from "typebox";
import { describe, expect, test, vi } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolCall,
  executeToolCall,
  NonRecoverableToolError,
  ToolContractError,
  ToolRegistry,
} from "../../course/src/index.ts";
import { fromPiTool, type PiAgentToolLike } from "./index.ts";

// Counts compilations while keeping TypeBox's real compiler.
const compiles = vi.hoisted(() => ({ count: 0 }));
vi.mock("typebox/compile", async (importOriginal) => {
  const original = await importOriginal<typeof import("typebox/compile")>();
  return {
    ...original,
    Compile: (...args: Parameters<typeof original.Compile>) => {
      compiles.count += 1;
      return original.Compile(...args);
    },
  };
});

const parameters = Type.Object({ left: Type.Number(), right: Type.Number() });

interface Seen {
  toolCallId: string;
  params: unknown;
  signal: AbortSignal | undefined;
  onUpdate: unknown;
}

/** A structural fake of a Pi AgentTool that records each call. */
function fakeAdd(
  answer: (params: { left: number; right: number }) => Promise<unknown> = async ({
    left,
    right,
  }) => ({
    content: [{ type: "text", text: `Sum: ${left + right}` }],
    details: { sum: left + right },
  }),
) {
  const seen: Seen[] = [];
  const tool = {
    name: "add",
    label: "Add",
    description: "Add two numbers.",
    parameters,
    execute: async (
      toolCallId: string,
      params: { left: number; right: number },
      signal?: AbortSignal,
      onUpdate?: (partial: unknown) => void,
    ) => {
      seen.push({ toolCallId, params, signal, onUpdate });
      return answer(params);
    },
  };
  return { tool, seen };
}

const call = (args: Record<string, unknown>, id = "call-add-1"): CourseToolCall =>
  ({ type: "toolCall", id, name: "add", arguments: args }) as CourseToolCall;

async function run(tool: PiAgentToolLike, args: Record<string, unknown>, signal?: AbortSignal) {
  const registry = new ToolRegistry([fromPiTool(tool)]);
  return executeToolCall(registry, call(args), signal ?? new AbortController().signal);
}

describe("fromPiTool", () => {
  test("runs Pi's execute with the call id, the boundary's signal and the validated arguments", async () => {
    const { tool, seen } = fakeAdd();
    const controller = new AbortController();
    const result = await run(tool, { left: 20, right: 22 }, controller.signal);
    expect(result).toEqual({
      id: "tool-result-call-add-1",
      role: "toolResult",
      toolCallId: "call-add-1",
      toolName: "add",
      content: '"Sum: 42"',
      isError: false,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.toolCallId).toBe("call-add-1");
    expect(seen[0]?.params).toEqual({ left: 20, right: 22 });
    expect(seen[0]?.signal).toBe(controller.signal);
    expect(typeof seen[0]?.onUpdate).toBe("function");
  });

  test("gives Pi's execute a mutable copy of the frozen arguments, as Pi does", async () => {
    const { tool, seen } = fakeAdd(async (params) => {
      params.left = 0;
      return { content: [{ type: "text", text: "changed" }], details: {} };
    });
    const result = await run(tool, { left: 1, right: 2 });
    expect(result.isError).toBe(false);
    expect(Object.isFrozen(seen[0]?.params)).toBe(false);
    expect(seen[0]?.params).toEqual({ left: 0, right: 2 });
  });

  test.each([
    ["a numeric string Pi's loop would convert", { left: "20", right: 22 }, "/left must be number"],
    ["null Pi's loop would convert", { left: null, right: 22 }, "/left must be number"],
    ["a missing field", { left: 20 }, "/ must have required properties right"],
  ])("refuses %s as TOOL_ARGUMENTS_INVALID without running the Tool", async (_label, args, why) => {
    const { tool, seen } = fakeAdd();
    const result = await run(tool, args);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: why },
    });
    expect(seen).toHaveLength(0);
  });

  test("compiles the schema once, however many calls it checks", async () => {
    const { tool } = fakeAdd();
    const before = compiles.count;
    const registry = new ToolRegistry([fromPiTool(tool)]);
    for (const args of [{ left: 1, right: 2 }, { left: "x" }, { left: 3, right: 4 }]) {
      await executeToolCall(registry, call(args), new AbortController().signal);
    }
    expect(compiles.count - before).toBe(1);
  });

  test.each([
    ["an Error", () => Promise.reject(new Error("disk full")), "disk full"],
    [
      "a synchronous throw",
      () => {
        throw new Error("no such file");
      },
      "no such file",
    ],
    ["a thrown string", () => Promise.reject("quota exceeded"), "quota exceeded"],
  ])("turns a Pi Tool that throws %s into TOOL_EXECUTION_FAILED", async (_label, fail, message) => {
    const tool = { ...fakeAdd().tool, execute: fail as unknown as PiAgentToolLike["execute"] };
    const result = await run(tool, { left: 1, right: 2 });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_EXECUTION_FAILED", message },
    });
  });

  test("lets a registered NonRecoverableToolError from a Pi Tool stop the call", async () => {
    const fatal = new NonRecoverableToolError("ledger is corrupt");
    const { tool } = fakeAdd(() => Promise.reject(fatal));
    await expect(run(tool, { left: 1, right: 2 })).rejects.toBe(fatal);
  });

  test("text blocks and an image become toolContent: the image a checked part, its line in content", async () => {
    const { tool } = fakeAdd(async () => ({
      content: [
        { type: "text", text: "chart:" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
      details: {},
    }));
    const result = await run(tool, { left: 1, right: 2 });
    expect(result.content).toBe("chart:\n[image: image/png, 8 bytes]");
    expect(result.parts).toEqual([
      { type: "text", text: "chart:" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ]);
  });

  test("an image whose bytes are not its MIME type leaves the line saying why", async () => {
    const { tool } = fakeAdd(async () => ({
      content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/jpeg" }],
      details: {},
    }));
    const result = await run(tool, { left: 1, right: 2 });
    expect(result.content).toBe(
      "[image omitted: declared image/jpeg, but the bytes are image/png]",
    );
    expect("parts" in result).toBe(false);
  });

  test("an image block without string data stays a placeholder in text output", async () => {
    const { tool } = fakeAdd(async () => ({
      content: [{ type: "image", data: 42, mimeType: "image/png" }],
      details: {},
    }));
    const result = await run(tool, { left: 1, right: 2 });
    expect(JSON.parse(result.content)).toBe("[image: image/png]");
  });

  test("bounds an eight-million-character Pi result to the serializer's cap", async () => {
    const { tool } = fakeAdd(async () => ({
      content: [{ type: "text", text: "y".repeat(8_000_000) }],
      details: {},
    }));
    const result = await run(tool, { left: 1, right: 2 });
    expect(result.isError).toBe(false);
    expect([...result.content]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(result.content.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
  });

  test("turns a result that is not an AgentToolResult into TOOL_EXECUTION_FAILED", async () => {
    const { tool } = fakeAdd(async () => "forty-two");
    const result = await run(tool, { left: 1, right: 2 });
    expect(JSON.parse(result.content)).toMatchObject({ error: { code: "TOOL_EXECUTION_FAILED" } });
  });

  test("rejects with the run's reason when cancelled mid-Tool, and the Pi Tool saw the abort", async () => {
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    let sawAbort = false;
    const { tool } = fakeAdd(
      () =>
        new Promise((_resolve, reject) => {
          const signal = controller.signal;
          signal.addEventListener("abort", () => {
            sawAbort = signal.aborted;
            reject(new Error("Operation aborted"));
          });
          controller.abort(reason);
        }),
    );
    await expect(run(tool, { left: 1, right: 2 }, controller.signal)).rejects.toBe(reason);
    expect(sawAbort).toBe(true);
  });

  test("carries the schema over as deep-frozen JSON parameters", () => {
    const tool = fromPiTool(fakeAdd().tool);
    expect(tool.parameters).toEqual(JSON.parse(JSON.stringify(parameters)));
    expect(tool.parameters).not.toBe(parameters);
    expect(Object.isFrozen(tool.parameters)).toBe(true);
    expect(Object.isFrozen(tool.parameters?.properties)).toBe(true);
  });

  test("checks the copy it carries over, so a later change to the Pi schema changes nothing", async () => {
    const schema = {
      type: "object",
      properties: { left: { type: "number" }, right: { type: "number" } },
      required: ["left", "right"],
    };
    const { tool, seen } = fakeAdd();
    const registry = new ToolRegistry([fromPiTool({ ...tool, parameters: schema })]);
    schema.properties.left.type = "string";
    const result = await executeToolCall(
      registry,
      call({ left: "1", right: 2 }),
      new AbortController().signal,
    );
    expect(result.isError).toBe(true);
    expect(seen).toHaveLength(0);
  });

  test("refuses a Proxy Pi Tool as INVALID_TOOL_DEFINITION before any trap runs", () => {
    let traps = 0;
    const proxy = new Proxy(fakeAdd().tool, {
      get: (target, key) => {
        traps += 1;
        return Reflect.get(target, key);
      },
    });
    expect(() => fromPiTool(proxy)).toThrow(ToolContractError);
    expect(traps).toBe(0);
  });

  test("reads each Pi Tool field once", () => {
    const reads: string[] = [];
    const { tool } = fakeAdd();
    const counted = {};
    for (const [key, value] of Object.entries(tool)) {
      Object.defineProperty(counted, key, {
        enumerable: true,
        get: () => {
          reads.push(key);
          return value;
        },
      });
    }
    fromPiTool(counted as PiAgentToolLike);
    expect(reads.sort()).toEqual(["description", "execute", "name", "parameters"]);
  });

  test.each([
    [
      "a throwing getter",
      {
        get name(): string {
          throw new Error("boom");
        },
      },
    ],
    ["a missing execute", { ...fakeAdd().tool, execute: undefined }],
    ["missing parameters", { ...fakeAdd().tool, parameters: undefined }],
    [
      "a schema that is not JSON",
      { ...fakeAdd().tool, parameters: { type: "object", default: () => 1 } },
    ],
    ["a blank name", { ...fakeAdd().tool, name: " " }],
  ])("refuses a Pi Tool with %s as INVALID_TOOL_DEFINITION", (_label, tool) => {
    expect(() => fromPiTool(tool as unknown as PiAgentToolLike)).toThrow(
      expect.objectContaining({ code: "INVALID_TOOL_DEFINITION" }),
    );
  });
});
