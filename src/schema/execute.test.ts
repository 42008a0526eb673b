import { toJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Type } from "typebox";
import * as v from "valibot";
import { describe, expect, test, vi } from "vitest";
import * as z from "zod";
import {
  type AnyCourseTool,
  type CourseToolCall,
  executeToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { schemaTool } from "./index.ts";
import type { StandardSchemaV1 } from "./standard-schema.ts";
import { fromTypeBox } from "./typebox.ts";

const call = (name: string, args: Record<string, unknown>): CourseToolCall => ({
  type: "toolCall",
  id: `call-${name}`,
  name,
  arguments: args as CourseToolCall["arguments"],
});

const run = (tool: AnyCourseTool, args: Record<string, unknown>) =>
  executeToolCall(new ToolRegistry([tool]), call(tool.name, args), new AbortController().signal);

/** Runs an empty call through a Tool made from `schema`: the result's error code, and the Tool's `execute` spy. */
async function runWithSchema(schema: StandardSchemaV1) {
  const execute = vi.fn(async () => ({}));
  const tool = schemaTool({
    name: "t",
    description: "T.",
    schema,
    parameters: { type: "object" },
    execute,
  });
  const result = await run(tool, {});
  return { code: JSON.parse(result.content).error?.code as string | undefined, execute };
}

type Case = readonly [string, (execute: (input: unknown) => Promise<unknown>) => AnyCourseTool];

const valibotSchema = v.strictObject({ left: v.number(), right: v.number() });
const cases: readonly Case[] = [
  [
    "zod",
    (execute) =>
      schemaTool({
        name: "add",
        description: "Add.",
        schema: z.object({ left: z.number(), right: z.number() }).strict(),
        execute,
      }),
  ],
  [
    "valibot",
    (execute) =>
      schemaTool({
        name: "add",
        description: "Add.",
        schema: valibotSchema,
        parameters: toJsonSchema(valibotSchema),
        execute,
      }),
  ],
  [
    "arktype",
    (execute) =>
      schemaTool({
        name: "add",
        description: "Add.",
        schema: type({ left: "number", right: "number", "+": "reject" }),
        execute,
      }),
  ],
  [
    "typebox",
    (execute) =>
      schemaTool({
        name: "add",
        description: "Add.",
        schema: fromTypeBox(
          Type.Object(
            { left: Type.Number(), right: Type.Number() },
            { additionalProperties: false },
          ),
        ),
        execute,
      }),
  ],
];

describe("schema Tools through executeToolCall", () => {
  test("the case list is not empty", () => {
    expect(cases.length).toBe(4);
  });

  test.each(cases)("%s: valid arguments run the Tool once", async (_library, make) => {
    const execute = vi.fn(async (input: unknown) => {
      const { left, right } = input as { left: number; right: number };
      return { sum: left + right };
    });
    const result = await run(make(execute), { left: 20, right: 22 });
    expect(result).toMatchObject({ toolCallId: "call-add", isError: false, content: '{"sum":42}' });
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test.each(cases)(
    "%s: invalid arguments become TOOL_ARGUMENTS_INVALID and no effect",
    async (_library, make) => {
      const execute = vi.fn(async () => ({ unreachable: true }));
      const result = await run(make(execute), { left: "twenty", right: 22, extra: true });
      expect(result.isError).toBe(true);
      const content = JSON.parse(result.content) as { error: { code: string; message: string } };
      expect(content.error.code).toBe("TOOL_ARGUMENTS_INVALID");
      expect(content.error.message).toMatch(/(^|; )left: /);
      expect(content.error.message).toContain("extra: is not allowed (unknown key)");
      expect(execute).not.toHaveBeenCalled();
    },
  );

  test("an asynchronous zod schema yields TOOL_VALIDATION_FAILED", async () => {
    const execute = vi.fn(async () => ({ unreachable: true }));
    const tool = schemaTool({
      name: "add",
      description: "Add.",
      schema: z.object({ left: z.number() }).refine(async () => true),
      parameters: { type: "object" },
      execute,
    });
    const result = await run(tool, { left: 1 });
    const content = JSON.parse(result.content) as { error: { code: string; message: string } };
    expect(content.error.code).toBe("TOOL_VALIDATION_FAILED");
    expect(content.error.message).toContain("answered with a Promise");
    expect(execute).not.toHaveBeenCalled();
  });

  test("a Standard Schema whose validate rejects: the rejection is observed", async () => {
    let rejections = 0;
    const schema: StandardSchemaV1 = {
      "~standard": {
        version: 1,
        vendor: "async",
        validate: () => {
          rejections += 1;
          return Promise.reject(new Error("async validation exploded"));
        },
      },
    };
    const { code, execute } = await runWithSchema(schema);
    expect(code).toBe("TOOL_VALIDATION_FAILED");
    expect(rejections).toBe(1);
    expect(execute).not.toHaveBeenCalled();
    // The fail-on-unhandled setup fails this test if the rejection escaped.
  });

  test("a Standard Schema that returns a rejecting thenable: then called once, rejection observed", async () => {
    let thenCalls = 0;
    const schema: StandardSchemaV1 = {
      "~standard": {
        version: 1,
        vendor: "hostile",
        validate: () =>
          ({
            // biome-ignore lint/suspicious/noThenProperty: the attack is a thenable.
            then: (_resolve: unknown, reject: (reason: unknown) => void) => {
              thenCalls += 1;
              reject(new Error("late"));
            },
          }) as never,
      },
    };
    const { code, execute } = await runWithSchema(schema);
    expect(code).toBe("TOOL_VALIDATION_FAILED");
    expect(thenCalls).toBe(1);
    expect(execute).not.toHaveBeenCalled();
  });

  test("a schema that throws yields TOOL_VALIDATION_FAILED with its message", async () => {
    const schema: StandardSchemaV1 = {
      "~standard": {
        version: 1,
        vendor: "crashing",
        validate: () => {
          throw new Error("refinement crashed");
        },
      },
    };
    const tool = schemaTool({
      name: "t",
      description: "T.",
      schema,
      parameters: { type: "object" },
      execute: async () => ({}),
    });
    const result = await run(tool, { a: "x" });
    expect(result.content).toBe(
      '{"error":{"code":"TOOL_VALIDATION_FAILED","message":"refinement crashed"}}',
    );
  });

  test("a zod check that throws also yields TOOL_VALIDATION_FAILED (zod retries it asynchronously)", async () => {
    const check = vi.fn(() => {
      throw new Error("refinement crashed");
    });
    const tool = schemaTool({
      name: "t",
      description: "T.",
      schema: z.object({ a: z.string() }).superRefine(check),
      parameters: { type: "object" },
      execute: async () => ({}),
    });
    const result = await run(tool, { a: "x" });
    expect(JSON.parse(result.content).error.code).toBe("TOOL_VALIDATION_FAILED");
    // zod runs the check again in its asynchronous retry; that retry's rejection is observed.
    expect(check).toHaveBeenCalledTimes(2);
  });

  test("the schema sees the frozen snapshot, not the caller's object", async () => {
    const seen: unknown[] = [];
    const schema: StandardSchemaV1 = {
      "~standard": {
        version: 1,
        vendor: "spy",
        validate: (value) => {
          seen.push(value);
          return { value };
        },
      },
    };
    const args = { nested: { n: 1 } };
    const tool = schemaTool({
      name: "t",
      description: "T.",
      schema,
      parameters: { type: "object" },
      execute: async () => ({}),
    });
    await run(tool, args);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toBe(args);
    expect(Object.isFrozen((seen[0] as typeof args).nested)).toBe(true);
  });
});
