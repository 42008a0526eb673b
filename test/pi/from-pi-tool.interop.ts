/**
 * Pi Tools (Pi agent core 0.85.0, TypeBox schemas from Pi's own `Type`)
 * behind our boundary through `fromPiTool`, and back inside Pi's loop.
 */

import type { AgentTool, AgentToolResult } from "@earendil-works/pi-agent-core";
import { Type, validateToolArguments } from "@earendil-works/pi-ai";
import { describe, expect, test, vi } from "vitest";
import { type CourseToolCall, executeToolCall, ToolRegistry } from "../../course/src/index.ts";
import { fromPiTool, toPiTools } from "../../src/pi/index.ts";
import { PNG_1X1_BASE64 } from "../support/parts.ts";
import { assistant, runPi, textOf, toolCall, toolResults } from "./support/scripted-model.ts";

const addParameters = Type.Object({
  left: Type.Number({ description: "Left operand" }),
  right: Type.Number({ description: "Right operand" }),
});

type AddDetails = { sum: number };

/** A Pi Tool written the way Pi's documentation shows, its calls recorded. */
function piAdd(
  body?: (
    params: { left: number; right: number },
    signal?: AbortSignal,
  ) => Promise<AgentToolResult<AddDetails>>,
) {
  const calls: { toolCallId: string; params: unknown; signal: AbortSignal | undefined }[] = [];
  const tool: AgentTool<typeof addParameters, AddDetails> = {
    name: "add",
    label: "Add",
    description: "Add two numbers.",
    parameters: addParameters,
    execute: async (toolCallId, params, signal) => {
      calls.push({ toolCallId, params, signal });
      if (body) return body(params, signal);
      const sum = params.left + params.right;
      return { content: [{ type: "text", text: `${sum}` }], details: { sum } };
    },
  };
  return { tool, calls };
}

const addCall = (args: Record<string, unknown>, id = "call-add-1") =>
  ({ type: "toolCall", id, name: "add", arguments: args }) as CourseToolCall;

describe("executeToolCall runs a real Pi Tool through fromPiTool", () => {
  test("runs on the Node.js version Pi requires", () => {
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
    expect(major > 22 || (major === 22 && minor >= 19)).toBe(true);
  });

  test("a success: the call id and the boundary's signal reach Pi's execute, the text comes back", async () => {
    const { tool, calls } = piAdd();
    const registry = new ToolRegistry([fromPiTool(tool)]);
    const controller = new AbortController();
    const result = await executeToolCall(
      registry,
      addCall({ left: 20, right: 22 }),
      controller.signal,
    );
    expect(result).toEqual({
      id: "tool-result-call-add-1",
      role: "toolResult",
      toolCallId: "call-add-1",
      toolName: "add",
      content: '"42"',
      isError: false,
    });
    expect(calls).toEqual([
      { toolCallId: "call-add-1", params: { left: 20, right: 22 }, signal: controller.signal },
    ]);
  });

  test("carries Pi's TypeBox schema over as our parameters", () => {
    const tool = fromPiTool(piAdd().tool);
    expect(tool.parameters).toEqual(JSON.parse(JSON.stringify(addParameters)));
  });

  test("refuses arguments Pi would convert, where Pi's own check accepts them", async () => {
    const { tool, calls } = piAdd();
    const args = { left: "20", right: 22 };
    // Pi's validator turns the string into a number and lets the call through.
    expect(
      validateToolArguments(tool, {
        type: "toolCall",
        id: "call-pi",
        name: "add",
        arguments: args,
      }),
    ).toEqual({ left: 20, right: 22 });
    const result = await executeToolCall(
      new ToolRegistry([fromPiTool(tool)]),
      addCall(args),
      new AbortController().signal,
    );
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "/left must be number" },
    });
    expect(calls).toHaveLength(0);
  });

  test("a Pi Tool that throws becomes TOOL_EXECUTION_FAILED, as Pi makes it an error result", async () => {
    const { tool } = piAdd(async () => {
      throw new Error("calculator unplugged");
    });
    const result = await executeToolCall(
      new ToolRegistry([fromPiTool(tool)]),
      addCall({ left: 1, right: 2 }),
      new AbortController().signal,
    );
    expect(result).toMatchObject({ isError: true, toolCallId: "call-add-1" });
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_EXECUTION_FAILED", message: "calculator unplugged" },
    });
  });

  test("an abort while Pi's Tool runs rejects with the reason; the Pi Tool saw its signal abort", async () => {
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    const sawAbort = vi.fn();
    const { tool } = piAdd(
      (_params, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => {
            sawAbort(signal.reason);
            reject(new Error("Operation aborted"));
          });
          controller.abort(reason);
        }),
    );
    await expect(
      executeToolCall(
        new ToolRegistry([fromPiTool(tool)]),
        addCall({ left: 1, right: 2 }),
        controller.signal,
      ),
    ).rejects.toBe(reason);
    expect(sawAbort).toHaveBeenCalledWith(reason);
  });

  test("an image in Pi's result becomes an image part of our result, its line in content", async () => {
    const { tool } = piAdd(async () => ({
      content: [
        { type: "text", text: "the sum, drawn:" },
        { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
      ],
      details: { sum: 0 },
    }));
    const result = await executeToolCall(
      new ToolRegistry([fromPiTool(tool)]),
      addCall({ left: 1, right: 2 }),
      new AbortController().signal,
    );
    expect(result.content).toBe("the sum, drawn:\n[image: image/png, 70 bytes]");
    expect(result.parts).toEqual([
      { type: "text", text: "the sum, drawn:" },
      { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
    ]);
  });
});

describe("a Pi Tool behind our boundary, back inside Pi's loop", () => {
  test("round trip: Pi's loop calls fromPiTool(piTool) through toPiTools", async () => {
    const { tool, calls } = piAdd();
    const tools: AgentTool[] = toPiTools(new ToolRegistry([fromPiTool(tool)]));
    const run = await runPi({
      tools,
      turns: [assistant([toolCall("call-rt-1", "add", { left: 2, right: 3 })])],
    });
    const [result] = toolResults(run.messages);
    expect(result).toMatchObject({ toolCallId: "call-rt-1", isError: false });
    // toPiTools writes text by default: the Pi Tool's "5" comes back as 5.
    expect(result && textOf(result)).toBe("5");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.toolCallId).toBe("call-rt-1");
  });

  test("round trip with an image: Pi's image crosses our boundary, checked, and reaches Pi's loop as an image", async () => {
    const { tool } = piAdd(async () => ({
      content: [{ type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" }],
      details: { sum: 0 },
    }));
    const tools: AgentTool[] = toPiTools(new ToolRegistry([fromPiTool(tool)]));
    const run = await runPi({
      tools,
      turns: [assistant([toolCall("call-rt-2", "add", { left: 2, right: 3 })])],
    });
    const [result] = toolResults(run.messages);
    expect(result?.content).toEqual([
      { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
    ]);
    expect(run.requests[1]?.messages.at(-1)?.content).toEqual(result?.content);
  });
});
