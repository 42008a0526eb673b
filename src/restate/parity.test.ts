/**
 * What a durable call writes without the core's own timer or gate is what the
 * core writes: the `TOOL_TIMEOUT` result of a durable deadline, and every
 * result the core gives from a journaled approval, compared byte for byte
 * with `executeToolCall` under the original deadline or gate.
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  NonRecoverableToolError,
  ToolRegistry,
} from "../../course/src/index.ts";
import { type ApprovalGate, askGate, readApproval, replayGate } from "./approval-step.ts";
import { deadlineReason, deadlineResult } from "./durable-deadline.ts";
import { isNonRecoverableToolFailure } from "./fatal-errors.ts";

const signal = () => new AbortController().signal;
const call = (name: string): CourseToolCall => ({
  type: "toolCall",
  id: "c1",
  name,
  arguments: {},
});

describe("the durable deadline", () => {
  test.each(["search", 'quote"name', "x".repeat(300)])(
    "the TOOL_TIMEOUT result for Tool %j equals the core's, and so does the Tool's abort reason",
    async (name) => {
      let reason: unknown;
      const registry = new ToolRegistry([
        defineTool({
          name,
          description: "Never finishes.",
          validate: () => ({ ok: true as const, value: {} }),
          execute: (_input, context) =>
            new Promise(() => {
              context.signal.addEventListener("abort", () => {
                reason = context.signal.reason;
              });
            }),
        }),
      ]);
      const core = await executeToolCall(registry, call(name), signal(), { timeoutMs: 5 });
      expect(deadlineResult(call(name), 5)).toEqual(core);
      const ours = deadlineReason(name, 5);
      expect([ours.name, ours.message]).toEqual([
        (reason as DOMException).name,
        (reason as DOMException).message,
      ]);
    },
  );
});

describe("the journaled approval", () => {
  const registry = new ToolRegistry([
    defineTool({
      name: "work",
      description: "Runs.",
      validate: () => ({ ok: true as const, value: {} }),
      execute: async () => "ran",
    }),
  ]);
  const tool = registry.get("work");

  const lookalike = Object.create(NonRecoverableToolError.prototype) as Error;
  test.each<[string, ApprovalGate]>([
    ["yes", () => true],
    ["no", () => false],
    ["a promise of yes", async () => true],
    ["a promise of no", async () => false],
    ["neither", () => "maybe" as never],
    [
      "a thrown Error",
      () => {
        throw new Error("the reviewer is away");
      },
    ],
    [
      "a thrown string",
      () => {
        throw "no reviewer";
      },
    ],
    [
      "a thrown empty string",
      () => {
        throw "";
      },
    ],
    [
      "a thrown number",
      () => {
        throw 42;
      },
    ],
    ["a rejection", () => Promise.reject(new Error("gate service down"))],
    [
      "a look-alike of a fatal error",
      () => {
        throw lookalike;
      },
    ],
    ["a Proxy answer", () => new Proxy({}, {}) as never],
  ])(
    "a gate answering %s: the core's result from the journal equals the core's from the gate",
    async (_label, gate) => {
      const original = await executeToolCall(registry, call("work"), signal(), { approve: gate });
      // Journaled as JSON and read back, as a replay would.
      const journaled = readApproval(
        JSON.parse(JSON.stringify(await askGate(gate, call("work"), tool as never))),
        call("work"),
      );
      const replayed = await executeToolCall(registry, call("work"), signal(), {
        approve: replayGate(journaled),
      });
      expect(replayed).toEqual(original);
    },
  );

  test("a registered NonRecoverableToolError from the gate becomes a TerminalError naming the call", async () => {
    const fatal = new NonRecoverableToolError("approvals ledger corrupted");
    const thrown = await askGate(
      () => {
        throw fatal;
      },
      call("work"),
      tool as never,
    ).catch((error: unknown) => error);
    expect(isNonRecoverableToolFailure(thrown)).toBe(true);
    expect((thrown as Error).message).toBe("approvals ledger corrupted");
    expect((thrown as { metadata?: unknown }).metadata).toEqual({
      code: "NON_RECOVERABLE_TOOL_ERROR",
      toolCallId: "c1",
      toolName: "work",
    });
  });

  test.each([null, "yes", { answer: "yes" }, { threw: 1 }, []])(
    "a journal entry that is no decision (%j) is refused",
    (entry) => {
      expect(() => readApproval(entry, call("work"))).toThrow(TypeError);
    },
  );
});
