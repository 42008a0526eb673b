/**
 * The documentation's `fromAiSdkTool` example, compiled by `tsc` against `ai`
 * 7.0.173 and run as written: an AI SDK tool behind our boundary answers the
 * model's call; the block that mirrors this file must show exactly the
 * marked lines, and what it prints must be what the block shows.
 */

// The example's imports first, as the documentation shows them (import sorting is off for this file).
// doc:begin
import { tool } from "ai";
import { z } from "zod";
import { executeToolCall, ToolRegistry } from "toolbound";
import { fromAiSdkTool } from "toolbound/ai-sdk";
// doc:end
import { afterEach, describe, expect, test, vi } from "vitest";
import type { CourseToolCall } from "../../course/src/index.ts";
import { mirroredExample } from "../setup/doc-example.ts";

async function example(call: CourseToolCall, signal: AbortSignal) {
  // doc:begin
  const add = fromAiSdkTool(
    "add",
    tool({
      description: "Add two numbers.",
      inputSchema: z.object({ left: z.number(), right: z.number() }),
      execute: async ({ left, right }) => ({ sum: left + right }),
    }),
  );
  const result = await executeToolCall(new ToolRegistry([add]), call, signal);
  console.log(result.content);
  // → {"sum":42}
  // doc:end
  return result;
}

describe("the documentation's fromAiSdkTool example", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test("is the documentation's text, line for line", () => {
    const { shown, marked } = mirroredExample(new URL(import.meta.url));
    expect(shown).toBe(marked);
  });

  test("runs, and prints the sum the block shows", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const call: CourseToolCall = {
      type: "toolCall",
      id: "call-1",
      name: "add",
      arguments: { left: 20, right: 22 },
    };
    const result = await example(call, new AbortController().signal);
    expect(result.isError).toBe(false);
    expect(log.mock.calls).toEqual([['{"sum":42}']]);
  });

  test("refuses arguments its schema refuses, before execute", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const call: CourseToolCall = {
      type: "toolCall",
      id: "call-2",
      name: "add",
      arguments: { left: "20" },
    };
    const result = await example(call, new AbortController().signal);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content).error.code).toBe("TOOL_ARGUMENTS_INVALID");
  });
});
