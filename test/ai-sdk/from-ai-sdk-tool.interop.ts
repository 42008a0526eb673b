/**
 * Real AI SDK tools (`tool()`, `dynamicTool()`, zod and `jsonSchema()` input
 * schemas from `ai` 7.0.173) behind our boundary through `fromAiSdkTool`,
 * inside `executeToolCall`, and back through `toAiSdkTools` into
 * `generateText` and `streamText`.
 */

import { dynamicTool, jsonSchema, tool } from "ai";
import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolCall,
  executeToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { fromAiSdkTool, toAiSdkTools } from "../../src/ai-sdk/index.ts";
import { PNG_1X1_BASE64 } from "../support/parts.ts";
import { call, type Loop, runLoop, toolOutputs } from "./support/scripted-model.ts";

interface Seen {
  readonly input: unknown;
  readonly toolCallId: string;
  readonly abortSignal: AbortSignal | undefined;
}

function zodAdd(
  answer = async ({ left, right }: { left: number; right: number }) => ({ sum: left + right }),
) {
  const seen: Seen[] = [];
  const made = tool({
    description: "Add two numbers.",
    inputSchema: z.object({ left: z.number(), right: z.number() }).strict(),
    execute: async (input, { toolCallId, abortSignal }) => {
      seen.push({ input, toolCallId, abortSignal });
      return answer(input);
    },
  });
  return { made, seen };
}

const addCall = (args: Record<string, unknown>, name = "add"): CourseToolCall => ({
  type: "toolCall",
  id: "call-add-1",
  name,
  arguments: args as CourseToolCall["arguments"],
});

async function run(
  made: Parameters<typeof fromAiSdkTool>[1],
  args: Record<string, unknown>,
  signal?: AbortSignal,
) {
  const registry = new ToolRegistry([fromAiSdkTool("add", made)]);
  return executeToolCall(registry, addCall(args), signal ?? new AbortController().signal);
}

const contentOf = (result: { content: string }) => JSON.parse(result.content) as unknown;

describe("fromAiSdkTool with a zod tool()", () => {
  test("runs execute with our call id, the boundary's signal and the validated input", async () => {
    const { made, seen } = zodAdd();
    const controller = new AbortController();
    const result = await run(made, { left: 20, right: 22 }, controller.signal);
    expect(result).toMatchObject({
      toolCallId: "call-add-1",
      isError: false,
      content: '{"sum":42}',
    });
    expect(seen).toEqual([
      { input: { left: 20, right: 22 }, toolCallId: "call-add-1", abortSignal: controller.signal },
    ]);
  });

  test.each([
    ["a string where zod wants a number", { left: "20", right: 22 }],
    ["an extra key the strict object refuses", { left: 1, right: 2, sneaky: true }],
    ["a missing key", { left: 1 }],
  ])("refuses %s as TOOL_ARGUMENTS_INVALID, before any effect", async (_label, args) => {
    const { made, seen } = zodAdd();
    const result = await run(made, args);
    expect(result.isError).toBe(true);
    expect(contentOf(result)).toMatchObject({ error: { code: "TOOL_ARGUMENTS_INVALID" } });
    expect(seen).toHaveLength(0);
  });

  test("an async refinement cannot decide in time: TOOL_VALIDATION_FAILED, and execute never runs", async () => {
    const execute = vi.fn(async () => "ran");
    const made = tool({
      description: "Checks asynchronously.",
      inputSchema: z.object({ left: z.number() }).refine(async () => true),
      execute,
    });
    const result = await run(made, { left: 1 });
    expect(contentOf(result)).toMatchObject({ error: { code: "TOOL_VALIDATION_FAILED" } });
    expect(execute).not.toHaveBeenCalled();
  });

  test("bounds an eight-million-character output to the serializer's cap", async () => {
    const { made } = zodAdd(async () => ({ sum: "9".repeat(8_000_000) }) as never);
    const result = await run(made, { left: 1, right: 2 });
    expect(result.isError).toBe(false);
    expect([...result.content]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(result.content.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
  });

  test("carries zod's JSON Schema over as our parameters", () => {
    const ours = fromAiSdkTool("add", zodAdd().made);
    expect(ours.parameters).toMatchObject({
      type: "object",
      properties: { left: { type: "number" }, right: { type: "number" } },
      required: ["left", "right"],
      additionalProperties: false,
    });
  });
});

describe("fromAiSdkTool with jsonSchema() and other tool shapes", () => {
  const schema = {
    type: "object",
    properties: { left: { type: "number" } },
    required: ["left"],
  } as const;

  test("a jsonSchema() with a synchronous validate: its verdict decides, its JSON Schema is carried over", async () => {
    const execute = vi.fn(async ({ left }: { left: number }) => left * 2);
    const made = tool({
      description: "Double a number.",
      inputSchema: jsonSchema<{ left: number }>(schema, {
        validate: (value) =>
          typeof (value as { left?: unknown }).left === "number"
            ? { success: true, value: value as { left: number } }
            : { success: false, error: new Error("left must be a number") },
      }),
      execute,
    });
    expect(fromAiSdkTool("add", made).parameters).toEqual(schema);
    expect((await run(made, { left: 21 })).content).toBe("42");
    expect(contentOf(await run(made, { left: "21" }))).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "left must be a number" },
    });
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("a jsonSchema() with an async validate: TOOL_VALIDATION_FAILED, and execute never runs", async () => {
    const execute = vi.fn(async () => "ran");
    const made = tool({
      description: "Validates asynchronously.",
      inputSchema: jsonSchema<{ left: number }>(schema, {
        validate: async (value) => ({ success: true, value: value as { left: number } }),
      }),
      execute,
    });
    expect(contentOf(await run(made, { left: 1 }))).toMatchObject({
      error: { code: "TOOL_VALIDATION_FAILED" },
    });
    expect(execute).not.toHaveBeenCalled();
  });

  test.each([
    [
      "a client-side tool (no execute)",
      tool({ description: "Ask the user.", inputSchema: z.object({ question: z.string() }) }),
      "has no execute",
    ],
    [
      "a jsonSchema() without validate",
      tool({ description: "Unchecked.", inputSchema: jsonSchema(schema), execute: async () => 1 }),
      "without a validate function",
    ],
  ])("refuses %s when it is converted, saying why", (_label, made, why) => {
    expect(() => fromAiSdkTool("add", made)).toThrow(
      expect.objectContaining({ code: "INVALID_TOOL_DEFINITION" }),
    );
    expect(() => fromAiSdkTool("add", made)).toThrow(why);
  });

  test("a streaming tool's last yielded value is the output", async () => {
    const made = tool({
      description: "Counts up.",
      inputSchema: z.object({ left: z.number() }),
      async *execute({ left }) {
        yield { status: "working", left };
        yield { status: "done", left: left + 1 };
      },
    });
    expect((await run(made, { left: 1 })).content).toBe('{"left":2,"status":"done"}');
  });

  test("a dynamicTool() runs like any other", async () => {
    const made = dynamicTool({
      description: "Echo anything.",
      inputSchema: z.object({ left: z.number() }),
      execute: async (input) => input,
    });
    expect((await run(made, { left: 5 })).content).toBe('{"left":5}');
  });
});

describe.each(["generateText", "streamText"] as const satisfies readonly Loop[])(
  "both directions in one run of %s",
  (loop) => {
    test("an AI SDK tool behind our boundary, handed back to the SDK's loop: the model reads our bounded, checked text", async () => {
      const { made, seen } = zodAdd();
      const tools = await toAiSdkTools(new ToolRegistry([fromAiSdkTool("add", made)]));
      const result = await runLoop(loop, tools, [
        call("call-1", { left: 20, right: 22 }, "add"),
        call("call-2", { left: "20", right: 22 }, "add"),
      ]);
      const seenByModel = toolOutputs(result.calls[1]);
      expect(seenByModel[0]).toEqual({ toolCallId: "call-1", type: "text", value: '{"sum":42}' });
      expect(seenByModel[1]).toMatchObject({ toolCallId: "call-2", type: "error-text" });
      expect(JSON.parse(String(seenByModel[1]?.value))).toMatchObject({
        error: { code: "TOOL_ARGUMENTS_INVALID" },
      });
      expect(seen.map((one) => one.toolCallId)).toEqual(["call-1"]);
    });

    test("an AI SDK tool's image output crosses our boundary, checked, and reaches the model as an image again", async () => {
      const screenshot = tool({
        description: "Take a screenshot.",
        inputSchema: z.object({}),
        execute: async () => ({ png: PNG_1X1_BASE64 }),
        toModelOutput: ({ output }) => ({
          type: "content",
          value: [
            { type: "text", text: "The screen:" },
            { type: "file", data: { type: "data", data: output.png }, mediaType: "image/png" },
          ],
        }),
      });
      const direct = await executeToolCall(
        new ToolRegistry([fromAiSdkTool("screenshot", screenshot)]),
        addCall({}, "screenshot"),
        new AbortController().signal,
      );
      expect(direct.parts).toEqual([
        { type: "text", text: "The screen:" },
        { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
      ]);
      const tools = await toAiSdkTools(new ToolRegistry([fromAiSdkTool("screenshot", screenshot)]));
      const result = await runLoop(loop, tools, [call("call-1", {}, "screenshot")]);
      expect(toolOutputs(result.calls[1])).toEqual([
        {
          toolCallId: "call-1",
          type: "content",
          value: [
            { type: "text", text: "The screen:" },
            { type: "file", data: { type: "data", data: PNG_1X1_BASE64 }, mediaType: "image/png" },
          ],
        },
      ]);
    });
  },
);
