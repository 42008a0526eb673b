/**
 * Our Tools inside Pi's own agent loop (Pi agent core 0.85.0), through
 * `toPiTools`, with a scripted stream function in place of a model provider.
 */

import { Agent, type AgentTool } from "@earendil-works/pi-agent-core";
import { describe, expect, test, vi } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolExecutionContext,
  defineTool,
  ToolRegistry,
  toolContent,
} from "../../course/src/index.ts";
import { toPiTools } from "../../src/pi/index.ts";
import { PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../support/parts.ts";
import {
  assistant,
  convertToLlm,
  runPi,
  scriptedModel,
  scriptedStream,
  textOf,
  toolCall,
  toolResults,
} from "./support/scripted-model.ts";

const WAV = SIGNED_SAMPLES["audio/wav"] as Uint8Array;

type Echo = { text: string };
type EchoExecute = (input: Echo, context: CourseToolExecutionContext) => Promise<unknown>;

/** An echo Tool whose validator also refuses blank text, which its schema cannot say. */
function echoRegistry(execute: EchoExecute = async ({ text }) => ({ echoed: text })) {
  const spy = vi.fn(execute);
  const registry = new ToolRegistry([
    defineTool<Echo, unknown>({
      name: "echo",
      description: "Repeat the text.",
      validate: (input) => {
        const text = (input as { text?: unknown }).text;
        if (typeof text !== "string") return { ok: false, error: "text must be a string" };
        if (text.trim() === "") return { ok: false, error: "text must not be blank" };
        return { ok: true, value: { text } };
      },
      execute: spy,
      parameters: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
    }),
  ]);
  const tools: AgentTool[] = toPiTools(registry);
  return { registry, execute: spy, tools };
}

const echoCall = (args: Record<string, unknown>, id = "call-echo-1") =>
  assistant([toolCall(id, "echo", args)]);

describe.each(["parallel", "sequential"] as const)(
  "Pi's agent loop (%s) runs our Tools",
  (mode) => {
    test("a success reaches the model as our content, unchanged and linked", async () => {
      const { tools, execute } = echoRegistry();
      const run = await runPi({ tools, turns: [echoCall({ text: "hi" })], toolExecution: mode });
      const [result] = toolResults(run.messages);
      expect(result).toMatchObject({ toolCallId: "call-echo-1", toolName: "echo", isError: false });
      expect(result?.content).toEqual([{ type: "text", text: '{"echoed":"hi"}' }]);
      expect(result?.details).toMatchObject({ id: "tool-result-call-echo-1", isError: false });
      expect(execute).toHaveBeenCalledTimes(1);
      // The next request shows the model exactly that result.
      const seen = run.requests[1]?.messages.at(-1);
      expect(seen).toMatchObject({ role: "toolResult", toolCallId: "call-echo-1" });
      expect(seen?.content).toEqual([{ type: "text", text: '{"echoed":"hi"}' }]);
    });

    test("arguments our validator refuses become our TOOL_ARGUMENTS_INVALID error result, with no effect", async () => {
      const { tools, execute } = echoRegistry();
      const run = await runPi({ tools, turns: [echoCall({ text: "   " })], toolExecution: mode });
      const [result] = toolResults(run.messages);
      expect(result?.isError).toBe(true);
      expect(result && textOf(result)).toBe(
        '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"text must not be blank"}}',
      );
      const end = run.events.find((event) => event.type === "tool_execution_end");
      expect(end).toMatchObject({ toolCallId: "call-echo-1", isError: true });
      expect(execute).not.toHaveBeenCalled();
    });

    test("arguments Pi's schema check refuses never reach our boundary", async () => {
      const { tools, execute } = echoRegistry();
      const run = await runPi({ tools, turns: [echoCall({ words: "hi" })], toolExecution: mode });
      const [result] = toolResults(run.messages);
      expect(result?.isError).toBe(true);
      expect(result && textOf(result)).toContain('Validation failed for tool "echo"');
      expect(execute).not.toHaveBeenCalled();
    });

    test("an oversized output reaches the model bounded, marked, and not as an error", async () => {
      const { tools } = echoRegistry(async () => "z".repeat(100_000));
      const run = await runPi({ tools, turns: [echoCall({ text: "big" })], toolExecution: mode });
      const [result] = toolResults(run.messages);
      expect(result?.isError).toBe(false);
      const text = result ? textOf(result) : "";
      expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
      // Text is the bridge's default: the string itself, with a marker saying what was kept.
      expect(text).toMatch(/^z+\n\[Tool output truncated: \d+ of 100000 characters kept\]$/);
    });

    test('callOptions format "json" gives the course\'s text and marker', async () => {
      const registry = new ToolRegistry([
        defineTool({
          name: "echo",
          description: "Return a long text.",
          validate: (input) => ({ ok: true, value: input }),
          execute: async () => "z".repeat(100_000),
          parameters: { type: "object", properties: {} },
        }),
      ]);
      const tools: AgentTool[] = toPiTools(registry, { format: "json" });
      const run = await runPi({ tools, turns: [echoCall({ text: "big" })], toolExecution: mode });
      const [result] = toolResults(run.messages);
      const text = result ? textOf(result) : "";
      expect(text.startsWith('"zzz')).toBe(true);
      expect(text.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
    });

    test("a Tool's toolContent image reaches the model as Pi's own image block", async () => {
      const { tools } = echoRegistry(async () =>
        toolContent([
          { type: "text", text: "One pixel:" },
          { type: "image", data: PNG_1X1, mimeType: "image/png" },
          { type: "audio", data: WAV, mimeType: "audio/wav" },
        ]),
      );
      const run = await runPi({ tools, turns: [echoCall({ text: "chart" })], toolExecution: mode });
      const [result] = toolResults(run.messages);
      const blocks = [
        { type: "text", text: "One pixel:" },
        { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
        { type: "text", text: `[audio: audio/wav, ${WAV.length} bytes]` },
      ];
      expect(result).toMatchObject({ toolCallId: "call-echo-1", isError: false });
      expect(result?.content).toEqual(blocks);
      // The next request shows the model that image.
      expect(run.requests[1]?.messages.at(-1)?.content).toEqual(blocks);
    });

    test("a throwing Tool becomes a failed call whose text is our TOOL_EXECUTION_FAILED content", async () => {
      const { tools } = echoRegistry(async () => {
        throw new Error("printer on fire");
      });
      const run = await runPi({ tools, turns: [echoCall({ text: "x" })], toolExecution: mode });
      const [result] = toolResults(run.messages);
      expect(result).toMatchObject({ toolCallId: "call-echo-1", isError: true });
      expect(result && textOf(result)).toBe(
        '{"error":{"code":"TOOL_EXECUTION_FAILED","message":"printer on fire"}}',
      );
      // The run goes on: the model gets a next turn to recover.
      expect(run.requests).toHaveLength(2);
    });

    test("a run aborted mid-Tool: the Tool sees the abort, Pi records the reason, and the run stops", async () => {
      const controller = new AbortController();
      const reason = new Error("user pressed stop");
      let toolSignal: AbortSignal | undefined;
      const { tools } = echoRegistry(
        (_input, { signal }) =>
          new Promise((_resolve, reject) => {
            toolSignal = signal;
            signal.addEventListener("abort", () => reject(new Error("cleanup done")), {
              once: true,
            });
            // The user stops the run while the Tool is working.
            controller.abort(reason);
          }),
      );
      const run = await runPi({
        tools,
        turns: [echoCall({ text: "slow" })],
        toolExecution: mode,
        signal: controller.signal,
      });
      expect(toolSignal?.aborted).toBe(true);
      const [result] = toolResults(run.messages);
      expect(result).toMatchObject({ toolCallId: "call-echo-1", isError: true });
      // Our boundary rejects with the run's reason, not with the Tool's own late error.
      expect(result && textOf(result)).toBe("user pressed stop");
      const last = run.messages.at(-1);
      expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
      expect(run.events.at(-1)?.type).toBe("agent_end");
    });
  },
);

describe("Pi's behaviour around our Tools", () => {
  test("Pi converts a number to the string our schema asks for before our validator sees it", async () => {
    const { tools, execute } = echoRegistry();
    const run = await runPi({ tools, turns: [echoCall({ text: 7 })] });
    const [result] = toolResults(run.messages);
    expect(result?.isError).toBe(false);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]?.[0]).toEqual({ text: "7" });
  });

  test("Agent.abort() mid-Tool ends the prompt with our rejection recorded as Pi's abort text", async () => {
    const { streamFn } = scriptedStream([echoCall({ text: "slow" })]);
    const { tools } = echoRegistry(
      (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(new Error("late")), { once: true });
          agent.abort();
        }),
    );
    const agent = new Agent({
      streamFn,
      convertToLlm,
      initialState: { model: scriptedModel, tools },
    });
    await agent.prompt("go");
    const result = agent.state.messages.find((message) => message.role === "toolResult");
    expect(result).toMatchObject({ isError: true });
    // Agent.abort() gives no reason, so the signal's is the platform's AbortError.
    expect(result?.role === "toolResult" && textOf(result)).toBe("This operation was aborted");
    expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "aborted" });
  });
});
