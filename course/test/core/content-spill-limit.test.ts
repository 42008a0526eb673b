/**
 * Text parts whose sum is longer than one string can hold (the engine's limit,
 * about 2^29 UTF-16 units), under a spill hook: the full text cannot be
 * built for the hook, which is reported like any other spill failure, and
 * the call still succeeds with its text cut, exactly as without a hook.
 */
import { describe, expect, test, vi } from "vitest";
import {
  executeToolCall,
  type OutputSpillInfo,
  type ToolCallOptions,
  toolContent,
} from "../../src/index.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

// One 27,000,000-character string shared by 20 parts: 540,000,019 units joined, past the
// engine's limit (536,870,888 in V8), while the process holds the 27 MB string only once.
const SHARED = "z".repeat(27_000_000);
const PARTS = 20;

async function run(options: ToolCallOptions) {
  const registry = workRegistry(() =>
    toolContent(Array.from({ length: PARTS }, () => ({ type: "text" as const, text: SHARED }))),
  );
  return executeToolCall(registry, workCall(), new AbortController().signal, {
    outputBudget: { maxCharacters: 2_000 },
    ...options,
  });
}

describe("text parts longer together than one string", () => {
  test("the premise: this engine cannot hold the parts' text as one string", () => {
    // String.prototype.repeat refuses a result past the limit before it allocates anything.
    expect(() => SHARED.repeat(PARTS)).toThrow(RangeError);
  });

  test("without a spill hook: the text is cut, the call succeeds", async () => {
    const result = await run({});
    expect(result.isError).toBe(false);
    expect([...result.content].length).toBeLessThanOrEqual(2_000);
  });

  test("with a spill hook: the hook is not called, the failure is reported once, the call succeeds as without one", async () => {
    const spill = vi.fn(() => "spill://never");
    const failures: Array<[unknown, OutputSpillInfo]> = [];
    const result = await run({
      spill,
      onSpillError: (error, info) => {
        failures.push([error, info]);
      },
    });
    const plain = await run({});
    expect(spill).not.toHaveBeenCalled();
    expect(failures).toHaveLength(1);
    const [error, info] = failures[0] as [unknown, OutputSpillInfo];
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      "the full output could not be written: its text is longer than one string can hold",
    );
    // The engine's own error stays attached, for whoever reads the report.
    expect((error as Error).cause).toBeInstanceOf(RangeError);
    expect(info).toEqual({
      toolCallId: "call-1",
      toolName: "work",
      limit: "characters",
      truncated: false,
    });
    expect(result).toEqual(plain);
  });
});
