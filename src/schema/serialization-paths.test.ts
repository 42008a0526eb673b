import { describe, expect, test } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  serializeToolOutput,
  ToolRegistry,
} from "../../course/src/index.ts";

/** Runs a Tool that returns `output` and gives back the result's error, if any. */
async function failureFor(output: unknown): Promise<{ code: string; message: string }> {
  const registry = new ToolRegistry([
    defineTool({
      name: "out",
      description: "Return a value.",
      validate: () => ({ ok: true, value: {} }),
      execute: async () => output,
    }),
  ]);
  const call: CourseToolCall = { type: "toolCall", id: "call-out", name: "out", arguments: {} };
  const result = await executeToolCall(registry, call, new AbortController().signal);
  expect(result.isError).toBe(true);
  return (JSON.parse(result.content) as { error: { code: string; message: string } }).error;
}

class Point {
  constructor(readonly x: number) {}
}

describe("a serialization failure names where it happened", () => {
  test("the issue's example: $.items[3]: Date objects are not supported", async () => {
    expect(await failureFor({ items: [0, 1, 2, new Date(0)] })).toEqual({
      code: "TOOL_OUTPUT_SERIALIZATION_FAILED",
      message: "$.items[3]: Date objects are not supported",
    });
  });

  test.each<[string, unknown, string]>([
    ["the root itself", new Map(), "$: Map objects are not supported"],
    ["a nested array slot", { a: [{ b: new Set() }] }, "$.a[0].b: Set objects are not supported"],
    [
      "a class instance",
      { point: new Point(1) },
      "$.point: objects with a custom prototype (class instances) are not supported",
    ],
    [
      "a key that is not an identifier",
      { "odd key": /x/ },
      '$["odd key"]: RegExp objects are not supported',
    ],
    [
      "an array at the root",
      [1, new Uint8Array(1)],
      "$[1]: typed arrays and DataViews are not supported",
    ],
    [
      "a hostile long key, shortened",
      { ["k".repeat(100)]: new Date(0) },
      `$["${"k".repeat(40)}…"]: Date objects are not supported`,
    ],
  ])("names %s", async (_label, output, message) => {
    expect((await failureFor(output)).message).toBe(message);
  });

  test("the path follows the failing branch only, not its earlier siblings", () => {
    const serialized = serializeToolOutput({ a: { deep: [1, 2] }, b: [{ c: new Date(0) }] });
    expect(serialized).toEqual({ ok: false, message: "$.b[0].c: Date objects are not supported" });
  });

  test("a Proxy is named as a Proxy and none of its traps runs", async () => {
    let traps = 0;
    const counting = new Proxy(
      {},
      {
        get: () => ++traps,
        getPrototypeOf: () => {
          traps += 1;
          return null;
        },
        ownKeys: () => {
          traps += 1;
          return [];
        },
        getOwnPropertyDescriptor: () => {
          traps += 1;
          return undefined;
        },
        has: () => {
          traps += 1;
          return false;
        },
      },
    );
    expect(await failureFor({ list: [0, counting] })).toEqual({
      code: "TOOL_OUTPUT_SERIALIZATION_FAILED",
      message: "$.list[1]: Proxy objects are not supported",
    });
    expect(traps).toBe(0);
  });

  test("a revoked Proxy is named as a Proxy too", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect((await failureFor({ gone: proxy })).message).toBe(
      "$.gone: Proxy objects are not supported",
    );
  });
});
