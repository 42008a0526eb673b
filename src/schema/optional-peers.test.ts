import { expect, test, vi } from "vitest";

// Every schema library behaves as if it were not installed: importing it throws.
const { attempts, missing } = vi.hoisted(() => {
  const attempts: string[] = [];
  const missing = (name: string) => () => {
    attempts.push(name);
    throw new Error(`Cannot find package '${name}'`);
  };
  return { attempts, missing };
});
vi.mock("zod", missing("zod"));
vi.mock("valibot", missing("valibot"));
vi.mock("@valibot/to-json-schema", missing("@valibot/to-json-schema"));
vi.mock("arktype", missing("arktype"));
vi.mock("typebox", missing("typebox"));
vi.mock("typebox/compile", missing("typebox/compile"));

test("the schema entry point loads with no schema library installed", async () => {
  const schema = await import("./index.ts");
  expect(typeof schema.schemaTool).toBe("function");
  expect(typeof schema.toProviderTools).toBe("function");
  expect(attempts).toEqual([]);
  // It still works with a hand-written Standard Schema.
  const tool = schema.schemaTool({
    name: "echo",
    description: "Echo.",
    schema: {
      "~standard": { version: 1, vendor: "hand", validate: (value: unknown) => ({ value }) },
    },
    parameters: { type: "object", properties: { text: { type: "string" } } },
    execute: async (input) => input,
  });
  expect(tool.validate({ text: "hi" })).toEqual({ ok: true, value: { text: "hi" } });
});

test("the TypeBox entry point is the one that needs typebox", async () => {
  await expect(import("./typebox.ts")).rejects.toThrow();
  expect(attempts).toContain("typebox/compile");
});
