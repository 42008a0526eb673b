import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import {
  type CourseToolCall,
  executeToolCall,
  NonRecoverableToolError,
  ToolContractError,
  ToolRegistry,
} from "../../course/src/index.ts";
import { type AiSdkToolLike, fromAiSdkTool } from "./from-ai-sdk-tool.ts";

interface Seen {
  readonly input: unknown;
  readonly options: {
    toolCallId: string;
    abortSignal: AbortSignal;
    messages: unknown;
    context: unknown;
  };
}

/** An AI SDK-shaped tool with a zod input schema that records each call. */
function zodAdd(
  answer: (input: { left: number; right: number }) => unknown = (input) => input.left + input.right,
) {
  const seen: Seen[] = [];
  const tool = {
    description: "Add two numbers.",
    inputSchema: z.object({ left: z.number(), right: z.number() }),
    execute: async (input: { left: number; right: number }, options: Seen["options"]) => {
      seen.push({ input, options });
      return answer(input);
    },
  };
  return { tool, seen };
}

const call = (args: Record<string, unknown>): CourseToolCall =>
  ({ type: "toolCall", id: "call-add-1", name: "add", arguments: args }) as CourseToolCall;

function run(tool: AiSdkToolLike, args: Record<string, unknown>, signal?: AbortSignal) {
  const registry = new ToolRegistry([fromAiSdkTool("add", tool)]);
  return executeToolCall(registry, call(args), signal ?? new AbortController().signal);
}

describe("fromAiSdkTool", () => {
  test("runs execute with the validated input, our call id, the boundary's signal, no messages and no context", async () => {
    const { tool, seen } = zodAdd();
    const controller = new AbortController();
    const result = await run(tool, { left: 20, right: 22 }, controller.signal);
    expect(result).toMatchObject({ toolCallId: "call-add-1", content: "42", isError: false });
    expect(seen).toEqual([
      {
        input: { left: 20, right: 22 },
        options: {
          toolCallId: "call-add-1",
          abortSignal: controller.signal,
          messages: [],
          context: undefined,
        },
      },
    ]);
  });

  test("refuses arguments the schema rejects as TOOL_ARGUMENTS_INVALID, with no effect", async () => {
    const { tool, seen } = zodAdd();
    const result = await run(tool, { left: "20", right: 22 });
    expect(JSON.parse(result.content)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "left: Invalid input: expected number, received string",
      },
    });
    expect(seen).toHaveLength(0);
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
  ])("turns a tool that throws %s into TOOL_EXECUTION_FAILED", async (_label, fail, message) => {
    const result = await run({ ...zodAdd().tool, execute: fail }, { left: 1, right: 2 });
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_EXECUTION_FAILED", message },
    });
  });

  test("lets a registered NonRecoverableToolError stop the call", async () => {
    const fatal = new NonRecoverableToolError("ledger is corrupt");
    await expect(run(zodAdd(() => Promise.reject(fatal)).tool, { left: 1, right: 2 })).rejects.toBe(
      fatal,
    );
  });

  test("a streaming tool's output is its last value; it is read no further once the signal aborts", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    let pulled = 0;
    const tool = {
      ...zodAdd().tool,
      execute: async function* () {
        for (let step = 1; step <= 5; step += 1) {
          pulled += 1;
          if (step === 2) controller.abort(reason);
          yield step;
        }
      },
    };
    await expect(run(tool, { left: 1, right: 2 }, controller.signal)).rejects.toBe(reason);
    expect(pulled).toBe(2);
    const finished = await run({ ...tool, execute: zodAdd().tool.execute }, { left: 1, right: 2 });
    expect(finished.content).toBe("3");
    const counting = {
      ...tool,
      execute: async function* () {
        yield "working";
        yield "done";
      },
    };
    expect((await run(counting, { left: 1, right: 2 })).content).toBe('"done"');
  });

  test("reads each tool field once, inherited fields too", () => {
    const reads: string[] = [];
    const { tool } = zodAdd();
    const prototype = {};
    for (const [key, value] of Object.entries({
      ...tool,
      type: "function",
      contextSchema: undefined,
    })) {
      Object.defineProperty(prototype, key, {
        get: () => {
          reads.push(key);
          return value;
        },
      });
    }
    fromAiSdkTool("add", Object.create(prototype) as AiSdkToolLike);
    expect(reads.sort()).toEqual([
      "contextSchema",
      "description",
      "execute",
      "inputSchema",
      "type",
    ]);
  });

  test("refuses a Proxy tool before any trap runs", () => {
    let traps = 0;
    const proxy = new Proxy(zodAdd().tool, {
      get: (target, key) => {
        traps += 1;
        return Reflect.get(target, key);
      },
      has: (target, key) => {
        traps += 1;
        return Reflect.has(target, key);
      },
    });
    expect(() => fromAiSdkTool("add", proxy)).toThrow(ToolContractError);
    expect(traps).toBe(0);
  });

  test.each([
    ["null", null, 'AI SDK tool "add" must be an object'],
    [
      "a throwing getter",
      {
        get description(): string {
          throw new Error("boom");
        },
      },
      'AI SDK tool "add" field "description" threw when read',
    ],
    [
      "no execute (a client-side tool)",
      { ...zodAdd().tool, execute: undefined },
      'AI SDK tool "add" has no execute: a client-side tool is answered by the application, so there is nothing to run',
    ],
    [
      "an execute that is not a function",
      { ...zodAdd().tool, execute: "run" },
      'AI SDK tool "add" execute must be a function',
    ],
    [
      "a provider tool",
      { ...zodAdd().tool, type: "provider" },
      'AI SDK tool "add" is a provider tool; only function and dynamic tools run behind the boundary',
    ],
    [
      "a contextSchema",
      { ...zodAdd().tool, contextSchema: z.object({}) },
      'AI SDK tool "add" has a contextSchema; the boundary has no tool context to give it',
    ],
    [
      "a description function",
      { ...zodAdd().tool, description: () => "Add." },
      'AI SDK tool "add" needs a description string',
    ],
  ])("refuses %s as INVALID_TOOL_DEFINITION, saying what is wrong", (_label, tool, message) => {
    const attempt = () => fromAiSdkTool("add", tool as AiSdkToolLike);
    expect(attempt).toThrow(expect.objectContaining({ code: "INVALID_TOOL_DEFINITION", message }));
  });

  test("checks the blank name like any definition", () => {
    expect(() => fromAiSdkTool(" ", zodAdd().tool)).toThrow(
      expect.objectContaining({ code: "INVALID_TOOL_DEFINITION" }),
    );
  });

  test("carries zod's JSON Schema as deep-frozen parameters", () => {
    const tool = fromAiSdkTool("add", zodAdd().tool);
    expect(tool.parameters).toMatchObject({ type: "object", required: ["left", "right"] });
    expect(Object.isFrozen(tool.parameters?.properties)).toBe(true);
  });

  test("a later change to the AI SDK tool changes nothing", async () => {
    const { tool, seen } = zodAdd();
    const mutable = { ...tool } as { execute: unknown; description: string };
    const ours = fromAiSdkTool("add", mutable as AiSdkToolLike);
    const swapped = vi.fn();
    mutable.execute = swapped;
    mutable.description = "Changed.";
    await executeToolCall(
      new ToolRegistry([ours]),
      call({ left: 1, right: 1 }),
      new AbortController().signal,
    );
    expect(ours.description).toBe("Add two numbers.");
    expect(swapped).not.toHaveBeenCalled();
    expect(seen).toHaveLength(1);
  });
});
