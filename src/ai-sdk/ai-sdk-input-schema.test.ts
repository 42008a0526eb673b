import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { type CourseToolCall, executeToolCall, ToolRegistry } from "../../course/src/index.ts";
import { readAiSdkInputSchema } from "./ai-sdk-input-schema.ts";
import { fromAiSdkTool } from "./from-ai-sdk-tool.ts";

const MARKER = Symbol.for("vercel.ai.schema");
const leftSchema = { type: "object", properties: { left: { type: "number" } }, required: ["left"] };

/** A schema shaped as the SDK's jsonSchema(schema, { validate }) makes one. */
function sdkSchema(validate?: (value: unknown) => unknown, jsonSchema: unknown = leftSchema) {
  return { [MARKER]: true, _type: undefined, jsonSchema, validate };
}

const syncValidate = (value: unknown) =>
  typeof (value as { left?: unknown }).left === "number"
    ? { success: true, value }
    : { success: false, error: new Error("left must be a number") };

async function decide(inputSchema: unknown, args: Record<string, unknown>) {
  const execute = vi.fn(async () => "ran");
  const tool = fromAiSdkTool("add", { description: "Add.", inputSchema, execute });
  const call = { type: "toolCall", id: "call-1", name: "add", arguments: args } as CourseToolCall;
  const result = await executeToolCall(
    new ToolRegistry([tool]),
    call,
    new AbortController().signal,
  );
  return { result: JSON.parse(result.content) as unknown, executions: execute.mock.calls.length };
}

describe("readAiSdkInputSchema", () => {
  test("hands a Standard Schema (zod) on as it is", () => {
    const schema = z.object({ left: z.number() });
    expect(readAiSdkInputSchema(schema, "add")).toEqual({ kind: "standard", schema });
  });

  test("reads a jsonSchema() schema: its JSON Schema deep-frozen without $schema, its validate as ours", () => {
    const read = readAiSdkInputSchema(
      sdkSchema(syncValidate, {
        $schema: "http://json-schema.org/draft-07/schema#",
        ...leftSchema,
      }),
      "add",
    );
    if (read.kind !== "json") throw new Error("expected a JSON schema");
    expect(read.parameters).toEqual(leftSchema);
    expect(Object.isFrozen(read.parameters)).toBe(true);
    expect(read.validate({ left: 1 })).toEqual({ ok: true, value: { left: 1 } });
    expect(read.validate({ left: "1" })).toEqual({ ok: false, error: "left must be a number" });
  });

  test("calls a lazy schema once, at conversion", () => {
    const lazy = vi.fn(() => sdkSchema(syncValidate));
    readAiSdkInputSchema(lazy, "add");
    expect(lazy).toHaveBeenCalledTimes(1);
  });

  test.each([
    ["an Error", new Error("left is wrong"), "left is wrong"],
    ["a string", "left is wrong", "left is wrong"],
    ["nothing readable", { code: 1 }, "arguments do not match the Tool's input schema"],
  ])(
    "a failed validate with %s as its error: TOOL_ARGUMENTS_INVALID, with no effect",
    async (_label, error, message) => {
      const decided = await decide(
        sdkSchema(() => ({ success: false, error })),
        { left: 1 },
      );
      expect(decided).toEqual({
        result: { error: { code: "TOOL_ARGUMENTS_INVALID", message } },
        executions: 0,
      });
    },
  );

  test.each([
    ["a Promise", () => Promise.resolve({ success: true, value: {} }), "answered with a Promise"],
    ["a rejected Promise", () => Promise.reject(new Error("late")), "answered with a Promise"],
    [
      "a bare thenable",
      // biome-ignore lint/suspicious/noThenProperty: the attack is a thenable.
      () => ({ then: () => {} }),
      "answered with a Promise",
    ],
    ["a malformed verdict", () => ({ ok: true }), "returned neither"],
    ["nothing", () => undefined, "returned neither"],
  ])(
    "a validate answering with %s: TOOL_VALIDATION_FAILED, with no effect",
    async (_label, validate, why) => {
      const decided = await decide(sdkSchema(validate), { left: 1 });
      expect(decided.executions).toBe(0);
      expect(decided.result).toMatchObject({ error: { code: "TOOL_VALIDATION_FAILED" } });
      expect(JSON.stringify(decided.result)).toContain(why);
    },
  );

  test.each([
    [
      "a plain object",
      { type: "object" },
      "inputSchema must be a zod or Standard Schema, or a jsonSchema() schema",
    ],
    [
      "nothing",
      undefined,
      "inputSchema must be a zod or Standard Schema, or a jsonSchema() schema",
    ],
    [
      "a jsonSchema() without validate",
      sdkSchema(undefined),
      "jsonSchema() without a validate function",
    ],
    [
      "a validate that is not a function",
      sdkSchema("yes" as never),
      "inputSchema.validate must be a function",
    ],
    [
      "a JSON Schema given as a Promise",
      sdkSchema(syncValidate, Promise.resolve(leftSchema)),
      "is a Promise",
    ],
    [
      "a JSON Schema that is not plain JSON",
      sdkSchema(syncValidate, { type: "object", default: () => 1 }),
      "inputSchema.jsonSchema",
    ],
    [
      "a lazy schema that throws",
      () => {
        throw new Error("boom");
      },
      "inputSchema (a lazy schema) threw when called",
    ],
    ["a lazy schema returning junk", () => ({}), "inputSchema must be a zod or Standard Schema"],
  ])("refuses %s as INVALID_TOOL_DEFINITION naming the tool", (_label, inputSchema, why) => {
    const attempt = () => readAiSdkInputSchema(inputSchema, "add");
    expect(attempt).toThrow(expect.objectContaining({ code: "INVALID_TOOL_DEFINITION" }));
    expect(attempt).toThrow(why);
    expect(attempt).toThrow('AI SDK tool "add"');
  });

  test("reads the schema's jsonSchema and validate once each", () => {
    const reads: string[] = [];
    const schema = { [MARKER]: true };
    for (const [key, value] of [
      ["jsonSchema", leftSchema],
      ["validate", syncValidate],
    ] as const) {
      Object.defineProperty(schema, key, {
        get: () => {
          reads.push(key);
          return value;
        },
      });
    }
    readAiSdkInputSchema(schema, "add");
    expect(reads.sort()).toEqual(["jsonSchema", "validate"]);
  });
});
