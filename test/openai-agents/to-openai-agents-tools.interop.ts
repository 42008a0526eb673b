/**
 * Our Tools inside OpenAI Agents JS's own loop (`@openai/agents-core` 0.20.0),
 * `Runner.run` plain and streamed, through `toOpenAIAgentsTools`, with the
 * SDK's scripted model. Every assertion reads what the model received in its
 * next request (or that there was none).
 */

import type { FunctionTool, Tool } from "@openai/agents-core";
import { describe, expect, test, vi } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolExecutionContext,
  defineTool,
  NonRecoverableToolError,
  type ToolCallOptions,
  ToolRegistry,
  toolContent,
} from "../../course/src/index.ts";
import { toOpenAIAgentsTools } from "../../src/openai-agents/index.ts";
import { PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../support/parts.ts";
import { call, type Mode, runAgent, toolOutputs } from "./support/scripted-run.ts";

const PDF = SIGNED_SAMPLES["application/pdf"] as Uint8Array;

type Echo = { text: string };
type EchoExecute = (input: Echo, context: CourseToolExecutionContext) => Promise<unknown>;

const echoParameters = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
} as const;

/** An echo Tool whose validator also refuses blank text, which its schema cannot say. */
async function echoTools(
  execute: EchoExecute = async ({ text }) => ({ echoed: text }),
  callOptions?: ToolCallOptions,
) {
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
      parameters: echoParameters,
    }),
  ]);
  // The real types, checked by tsc against the installed SDK.
  const tools: FunctionTool[] = await toOpenAIAgentsTools(registry, callOptions);
  const forAgent: Tool[] = tools;
  return { tools: forAgent, execute: spy };
}

const error = (code: string, message: string) => JSON.stringify({ error: { code, message } });

describe.each(["run", "streamed run"] as const satisfies readonly Mode[])(
  "OpenAI Agents' %s runs our Tools",
  (mode) => {
    test("a success reaches the model on the next turn as our content, unchanged", async () => {
      const { tools, execute } = await echoTools();
      const run = await runAgent(mode, tools, [call("call-1", { text: "hi" })]);
      expect(run.error).toBeUndefined();
      expect(run.calls).toHaveLength(2);
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-1", text: '{"echoed":"hi"}' },
      ]);
      expect(execute).toHaveBeenCalledTimes(1);
      expect(run.finalOutput).toBe("done");
    });

    test("the model is shown our parameters, non-strict", async () => {
      const { tools } = await echoTools();
      const run = await runAgent(mode, tools, []);
      expect(run.calls[0]?.request.tools).toEqual([
        expect.objectContaining({ name: "echo", parameters: echoParameters, strict: false }),
      ]);
    });

    test.each([
      ["a blank text our validator refuses", { text: "  " }, "text must not be blank"],
      ["a number where the schema says string", { text: 7 }, "text must be a string"],
    ])(
      "%s: the Tool never runs, and the next turn carries our TOOL_ARGUMENTS_INVALID text",
      async (_label, args, why) => {
        const { tools, execute } = await echoTools();
        const run = await runAgent(mode, tools, [call("call-1", args)]);
        expect(execute).not.toHaveBeenCalled();
        expect(toolOutputs(run.calls[1]?.request)).toEqual([
          { callId: "call-1", text: error("TOOL_ARGUMENTS_INVALID", why) },
        ]);
        expect(run.finalOutput).toBe("done");
      },
    );

    test("an oversized output reaches the model bounded to the cap and marked", async () => {
      const { tools } = await echoTools(async () => "z".repeat(200_000));
      const run = await runAgent(mode, tools, [call("call-1", { text: "big" })]);
      const [seen] = toolOutputs(run.calls[1]?.request);
      const text = String(seen?.text);
      expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
      // Text is the bridge's default: the string itself, with a marker saying what was kept.
      expect(text).toMatch(/^z+\n\[Tool output truncated: \d+ of 200000 characters kept\]$/);
    });

    test('callOptions format "json": the course\'s text and marker', async () => {
      const { tools } = await echoTools(async () => "z".repeat(200_000), { format: "json" });
      const run = await runAgent(mode, tools, [call("call-1", { text: "big" })]);
      const text = String(toolOutputs(run.calls[1]?.request)[0]?.text);
      expect(text.startsWith('"zzz')).toBe(true);
      expect(text.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
    });

    test("a Tool's toolContent image and file reach the model as the SDK's image and file outputs", async () => {
      const { tools } = await echoTools(async () =>
        toolContent([
          { type: "text", text: "One pixel:" },
          { type: "image", data: PNG_1X1, mimeType: "image/png" },
          { type: "file", data: PDF, mimeType: "application/pdf", name: "chart.pdf" },
        ]),
      );
      const run = await runAgent(mode, tools, [call("call-1", { text: "chart" })]);
      expect(run.error).toBeUndefined();
      const input = (run.calls[1]?.request.input ?? []) as { type: string; output?: unknown }[];
      const item = input.find((entry) => entry.type === "function_call_result");
      expect(item?.output).toEqual([
        { type: "input_text", text: "One pixel:" },
        { type: "input_image", image: `data:image/png;base64,${PNG_1X1_BASE64}` },
        {
          type: "input_file",
          file: `data:application/pdf;base64,${Buffer.from(PDF).toString("base64")}`,
          filename: "chart.pdf",
        },
      ]);
    });

    test("a throwing Tool reaches the model as our TOOL_EXECUTION_FAILED text, not the SDK's", async () => {
      const { tools } = await echoTools(async () => {
        throw new Error("printer on fire");
      });
      const run = await runAgent(mode, tools, [call("call-1", { text: "x" })]);
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-1", text: error("TOOL_EXECUTION_FAILED", "printer on fire") },
      ]);
      expect(run.finalOutput).toBe("done");
    });

    test("parallel calls in one turn come back in call order, whatever order they finish in", async () => {
      const delays: Record<string, number> = { first: 30, second: 0, third: 15 };
      const { tools, execute } = await echoTools(async ({ text }) => {
        await new Promise((resolve) => setTimeout(resolve, delays[text] ?? 0));
        return { echoed: text };
      });
      const run = await runAgent(mode, tools, [
        call("call-a", { text: "first" }),
        call("call-b", { text: "second" }),
        call("call-c", { text: "" }),
        call("call-d", { text: "third" }),
      ]);
      expect(execute).toHaveBeenCalledTimes(3);
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-a", text: '{"echoed":"first"}' },
        { callId: "call-b", text: '{"echoed":"second"}' },
        { callId: "call-c", text: error("TOOL_ARGUMENTS_INVALID", "text must not be blank") },
        { callId: "call-d", text: '{"echoed":"third"}' },
      ]);
    });

    test("a Tool that ignores its signal past its deadline: TOOL_TIMEOUT reaches the model", async () => {
      let toolSignal: AbortSignal | undefined;
      const { tools } = await echoTools(
        (_input, { signal }) => {
          toolSignal = signal;
          return new Promise<never>(() => {});
        },
        { timeoutMs: 40 },
      );
      const run = await runAgent(mode, tools, [call("call-1", { text: "slow" })]);
      expect(toolSignal?.aborted).toBe(true);
      const [seen] = toolOutputs(run.calls[1]?.request);
      expect(seen?.callId).toBe("call-1");
      expect(JSON.parse(String(seen?.text))).toMatchObject({ error: { code: "TOOL_TIMEOUT" } });
      expect(run.finalOutput).toBe("done");
    });

    test("a run aborted mid-Tool stops with no invented result; the model is not asked again", async () => {
      const controller = new AbortController();
      const reason = new Error("user pressed stop");
      let sawAbort = false;
      const { tools } = await echoTools(
        (_input, { signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => {
              sawAbort = true;
              reject(new Error("cleanup done"));
            });
            controller.abort(reason);
          }),
      );
      const run = await runAgent(mode, tools, [call("call-1", { text: "x" })], {
        signal: controller.signal,
      });
      expect(sawAbort).toBe(true);
      expect(run.calls).toHaveLength(1);
      expect(run.finalOutput).toBeUndefined();
      if (mode === "run") {
        // The run rejects with the signal's reason: nothing is recorded for the call.
        expect(run.error).toBe(reason);
        expect(run.recorded).toEqual([]);
      } else {
        // A streamed run ends cancelled; the SDK closes the call with its own
        // incomplete "aborted" item for its history, not with a result of ours.
        expect(run.cancelled).toBe(true);
        expect(run.recorded).toEqual([{ callId: "call-1", status: "incomplete", text: "aborted" }]);
      }
    });

    test("a NonRecoverableToolError fails the run before the model is asked again", async () => {
      const fatal = new NonRecoverableToolError("ledger is corrupt");
      const { tools } = await echoTools(() => Promise.reject(fatal));
      const run = await runAgent(mode, tools, [call("call-1", { text: "x" })]);
      expect(run.calls).toHaveLength(1);
      // The SDK wraps a failing Tool in its ToolCallError, which carries ours.
      expect(run.error).toMatchObject({ name: "ToolCallError", error: fatal });
    });
  },
);
