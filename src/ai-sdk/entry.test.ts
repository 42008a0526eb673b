/**
 * The `./ai-sdk` entry as a whole: its pinned export names, that importing it
 * loads nothing of the SDK, and `toAiSdkTools`' own checks and snapshot.
 */
import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";

// Counts loads of the SDK; the stand-in jsonSchema() wraps the schema it gets.
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("./ai-sdk-module.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./ai-sdk-module.ts")>()),
  loadAiSdk: async () => {
    loads.count += 1;
    return { jsonSchema: (schema: unknown) => ({ wrapped: schema }) };
  },
}));

const ENTRY_EXPORTS = [
  "AI_SDK_EMPTY_OBJECT_SCHEMA",
  "AI_SDK_REFUSED_TEXT_REASON",
  "AiSdkRunStop",
  "AiSdkToolResultError",
  "AiSdkUnknownToolError",
  "fromAiSdkTool",
  "readAiSdkInputSchema",
  "repairAiSdkModel",
  "repairAiSdkToolCall",
  "toAiSdkTools",
];

const now = (name: string) =>
  defineTool({
    name,
    description: "The time.",
    validate: () => ({ ok: true, value: {} }),
    execute: async () => "noon",
  });

describe("toolbound/ai-sdk", () => {
  test("exports exactly the pinned runtime names, and importing it loads nothing of the SDK", async () => {
    expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
    const entry = await import("./index.ts");
    expect(Object.keys(entry).sort()).toEqual(ENTRY_EXPORTS);
    expect(loads.count).toBe(0);
  });

  test("toAiSdkTools refuses something that is not a ToolRegistry, before loading the SDK", async () => {
    const { toAiSdkTools } = await import("./index.ts");
    const before = loads.count;
    const lookalike = { names: ["now"], get: () => now("now"), snapshot: () => lookalike };
    await expect(toAiSdkTools(lookalike as never)).rejects.toThrow(
      new TypeError("toAiSdkTools needs a ToolRegistry"),
    );
    expect(loads.count).toBe(before);
  });

  test("toAiSdkTools loads the SDK and keeps the Tool set of the moment it was called", async () => {
    const { toAiSdkTools } = await import("./index.ts");
    const registry = new ToolRegistry([now("first")]);
    const before = loads.count;
    const pending = toAiSdkTools(registry);
    // Registered while the SDK loads: not part of this ToolSet.
    registry.register(now("late"));
    expect(Object.keys(await pending)).toEqual(["first"]);
    expect(Object.keys(await toAiSdkTools(registry))).toEqual(["first", "late"]);
    expect(loads.count - before).toBe(2);
  });
});
