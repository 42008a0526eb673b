/**
 * The `./restate` entry as a whole: its pinned export names, and what a Tool
 * reads with `toolIdempotencyKey` outside a durable call.
 */
import { describe, expect, test } from "vitest";
import { defineTool, executeToolCall, ToolRegistry } from "../../course/src/index.ts";
import { durableIdempotencyKey, toolIdempotencyKey } from "./index.ts";

const ENTRY_EXPORTS = [
  "DURABLE_MAX_JOURNAL_BYTES",
  "NON_RECOVERABLE_TOOL_ERROR",
  "durableIdempotencyKey",
  "durableToolCall",
  "durableToolCalls",
  "isNonRecoverableToolFailure",
  "toolIdempotencyKey",
];

describe("toolbound/restate", () => {
  test("exports exactly the pinned runtime names", async () => {
    expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
    const entry = await import("./index.ts");
    expect(Object.keys(entry).sort()).toEqual(ENTRY_EXPORTS);
  });

  test("the key joins the invocation id and the call id at the first slash", () => {
    expect(durableIdempotencyKey("inv_1abc", "call/1")).toBe("inv_1abc/call/1");
  });
});

describe("toolIdempotencyKey outside a durable call", () => {
  test("a Tool run by executeToolCall reads undefined, so one Tool serves both", async () => {
    const seen: unknown[] = [];
    const registry = new ToolRegistry([
      defineTool({
        name: "pay",
        description: "Reads its key.",
        validate: () => ({ ok: true as const, value: {} }),
        execute: async (_input, context) => {
          seen.push(toolIdempotencyKey(context));
          return "ok";
        },
      }),
    ]);
    const call = { type: "toolCall" as const, id: "c1", name: "pay", arguments: {} };
    await executeToolCall(registry, call, new AbortController().signal);
    expect(seen).toEqual([undefined]);
  });

  test.each([
    ["undefined", undefined],
    ["null", null],
    ["a string", "signal"],
    ["an object without a signal", {}],
    ["a Proxy", new Proxy({ signal: new AbortController().signal }, {})],
  ])("%s reads undefined", (_label, context) => {
    expect(toolIdempotencyKey(context as never)).toBeUndefined();
  });

  test("a context whose signal is a getter is not read: the getter never runs", () => {
    let reads = 0;
    const context = {
      get signal() {
        reads += 1;
        return new AbortController().signal;
      },
      toolCallId: "c1",
    };
    expect(toolIdempotencyKey(context)).toBeUndefined();
    expect(reads).toBe(0);
  });
});
