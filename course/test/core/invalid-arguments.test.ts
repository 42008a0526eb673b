/**
 * Calls whose argument text a provider sent unreadable: `toolCallWithInvalidArguments`
 * marks them, and the boundary answers them with a linked TOOL_ARGUMENTS_INVALID
 * result without validating or running anything.
 */
import { describe, expect, test } from "vitest";
import { executeToolCalls } from "../../../src/rounds/index.ts";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  invalidArgumentsReason,
  prepareToolCall,
  snapshotToolCall,
  ToolContractError,
  ToolRegistry,
  toolCallWithInvalidArguments,
} from "../../src/index.ts";

const REASON = "arguments are not valid JSON at position 9: unexpected end of input";

/** A "work" Tool that counts validations and executions. */
function countingRegistry() {
  const counts = { validated: 0, executed: 0 };
  const registry = new ToolRegistry([
    defineTool({
      name: "work",
      description: "Counts.",
      validate: (input) => {
        counts.validated += 1;
        return { ok: true, value: input };
      },
      execute: async () => {
        counts.executed += 1;
        return "ran";
      },
    }),
  ]);
  return { registry, counts };
}

const errorContent = (code: string, message: string) =>
  JSON.stringify({ error: { code, message } });
const signal = () => new AbortController().signal;

describe("toolCallWithInvalidArguments", () => {
  test("builds a frozen call with empty frozen arguments that the snapshot keeps as it is", () => {
    const call = toolCallWithInvalidArguments({ id: "call-1", name: "work" }, REASON);
    expect(call).toEqual({ type: "toolCall", id: "call-1", name: "work", arguments: {} });
    expect(Object.isFrozen(call)).toBe(true);
    expect(Object.isFrozen(call.arguments)).toBe(true);
    expect(snapshotToolCall(call)).toBe(call);
    expect(invalidArgumentsReason(call)).toBe(REASON);
  });

  test("executeToolCall answers with a linked TOOL_ARGUMENTS_INVALID result; nothing validates or runs", async () => {
    const { registry, counts } = countingRegistry();
    const call = toolCallWithInvalidArguments({ id: "call-7", name: "work" }, REASON);
    const result = await executeToolCall(registry, call, signal());
    expect(result).toEqual({
      id: "tool-result-call-7",
      role: "toolResult",
      toolCallId: "call-7",
      toolName: "work",
      content: errorContent("TOOL_ARGUMENTS_INVALID", REASON),
      isError: true,
    });
    expect(Object.isFrozen(result)).toBe(true);
    expect(counts).toEqual({ validated: 0, executed: 0 });
  });

  test("prepareToolCall decides it in the no-effect phase", () => {
    const { registry, counts } = countingRegistry();
    const call = toolCallWithInvalidArguments({ id: "call-1", name: "work" }, REASON);
    const prepared = prepareToolCall(registry, call, signal());
    expect(prepared.result?.content).toBe(errorContent("TOOL_ARGUMENTS_INVALID", REASON));
    expect(counts.validated).toBe(0);
  });

  test("an unknown Tool is still TOOL_NOT_FOUND: the name is checked first", async () => {
    const { registry } = countingRegistry();
    const call = toolCallWithInvalidArguments({ id: "call-1", name: "rm" }, REASON);
    const result = await executeToolCall(registry, call, signal());
    expect(result.content).toBe(errorContent("TOOL_NOT_FOUND", 'Unknown Tool "rm"'));
  });

  test("a cancelled run still rejects with its reason instead of answering", async () => {
    const { registry } = countingRegistry();
    const controller = new AbortController();
    const reason = new Error("stop");
    controller.abort(reason);
    const call = toolCallWithInvalidArguments({ id: "call-1", name: "work" }, REASON);
    await expect(executeToolCall(registry, call, controller.signal)).rejects.toBe(reason);
  });

  test("executeToolCalls keeps the mark: the refused call is answered in order beside a valid one", async () => {
    const { registry, counts } = countingRegistry();
    const refused = toolCallWithInvalidArguments({ id: "call-1", name: "work" }, REASON);
    const valid: CourseToolCall = { type: "toolCall", id: "call-2", name: "work", arguments: {} };
    const results = await executeToolCalls(registry, [refused, valid], signal());
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ["call-1", true],
      ["call-2", false],
    ]);
    expect(results[0]?.content).toBe(errorContent("TOOL_ARGUMENTS_INVALID", REASON));
    expect(counts).toEqual({ validated: 1, executed: 1 });
  });

  test("a copy is an ordinary call: the mark belongs to the object it was given to", async () => {
    const { registry, counts } = countingRegistry();
    const call = toolCallWithInvalidArguments({ id: "call-1", name: "work" }, REASON);
    const copy = { ...call };
    expect(invalidArgumentsReason(copy)).toBeUndefined();
    expect((await executeToolCall(registry, copy, signal())).isError).toBe(false);
    expect(counts.validated).toBe(1);
  });

  test.each([
    ["a blank id", { id: " ", name: "work" }, REASON, "Tool call id must be a non-blank string"],
    ["a missing name", { id: "call-1" }, REASON, 'Tool call must have an own "name" field'],
    [
      "a throwing id getter",
      Object.defineProperty({ name: "work" }, "id", {
        get() {
          throw new Error("hostile id");
        },
      }),
      REASON,
      'Tool call field "id" threw when read',
    ],
    ["a blank reason", { id: "call-1", name: "work" }, "", "must be a non-blank string"],
    ["a non-string reason", { id: "call-1", name: "work" }, 42, "must be a non-blank string"],
    ["null", null, REASON, "Tool call must be a non-Proxy object"],
    ["a Proxy", new Proxy({ id: "call-1", name: "work" }, {}), REASON, "non-Proxy object"],
  ])("refuses %s as INVALID_TOOL_CALL", (_label, call, reason, message) => {
    let thrown: unknown;
    try {
      toolCallWithInvalidArguments(call as never, reason as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolContractError);
    expect((thrown as ToolContractError).code).toBe("INVALID_TOOL_CALL");
    expect((thrown as ToolContractError).message).toContain(message);
  });

  test("reads the id and name getters once each", () => {
    let reads = 0;
    const call = {
      get id() {
        reads += 1;
        return "call-1";
      },
      get name() {
        reads += 1;
        return "work";
      },
    };
    expect(toolCallWithInvalidArguments(call, REASON).id).toBe("call-1");
    expect(reads).toBe(2);
  });

  test.each([
    ["an ordinary call", { type: "toolCall", id: "c", name: "work", arguments: {} }],
    ["a snapshot", snapshotToolCall({ type: "toolCall", id: "c", name: "work", arguments: {} })],
    ["a string", "call-1"],
    ["null", null],
    ["undefined", undefined],
  ])("invalidArgumentsReason is undefined for %s", (_label, value) => {
    expect(invalidArgumentsReason(value)).toBeUndefined();
  });
});
