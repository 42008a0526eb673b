/**
 * Argument text the OpenAI Agents runner refuses before any tool sees it
 * (`@openai/agents-core` 0.20.0): without a wrapper the model reads the
 * runner's own fixed message; with `repairOpenAIAgentsModel` our bounded
 * parser decides, and the model reads our `TOOL_ARGUMENTS_INVALID` reason.
 * Every assertion reads what the model received in its next request.
 */

import { type AgentInputItem, type Model, type Tool, tool } from "@openai/agents-core";
import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { REPAIR_KEY, UNHELD_REPAIR_REASON } from "../../src/frameworks/pending-repairs.ts";
import { repairOpenAIAgentsModel, toOpenAIAgentsTools } from "../../src/openai-agents/index.ts";
import { call, type Mode, runAgent, toolOutputs } from "./support/scripted-run.ts";

type Echo = { text: string };

async function echoTools() {
  const execute = vi.fn(async ({ text }: Echo) => ({ echoed: text }));
  const registry = new ToolRegistry([
    defineTool<Echo, unknown>({
      name: "echo",
      description: "Repeat the text.",
      validate: (input) => {
        const text = (input as { text?: unknown }).text;
        return typeof text === "string"
          ? { ok: true, value: { text } }
          : { ok: false, error: "text must be a string" };
      },
      execute,
      parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    }),
  ]);
  const tools: Tool[] = await toOpenAIAgentsTools(registry);
  return { tools, execute, wrapModel: (model: Model) => repairOpenAIAgentsModel(model, tools) };
}

/** Argument text of `length` characters that is not JSON: an object cut off inside a string. */
const brokenText = (length: number) => `{"text":"${"x".repeat(length - 9)}`;

const invalid = (message: string) =>
  JSON.stringify({ error: { code: "TOOL_ARGUMENTS_INVALID", message } });

/** The arguments of the function calls a request carries, by call id. */
function sentArguments(input: unknown): Record<string, string> {
  const sent: Record<string, string> = {};
  for (const item of Array.isArray(input) ? (input as AgentInputItem[]) : []) {
    if (item.type === "function_call") sent[item.callId] = item.arguments;
  }
  return sent;
}

/** The stand-in arguments of a repaired call: the reserved key, a seal and the reason. */
const STAND_IN = expect.stringMatching(
  new RegExp(`^\\{"${REPAIR_KEY}":"[A-Za-z0-9_-]{43}:[^"]+"\\}$`),
);

const SDK_PARSE_MESSAGE =
  "An error occurred while parsing tool arguments. Please try again with valid JSON.";

describe.each(["run", "streamed run"] as const satisfies readonly Mode[])(
  "argument text the runner cannot parse, in OpenAI Agents' %s",
  (mode) => {
    test("without the wrapper the model reads the runner's own message, not ours", async () => {
      const { tools, execute } = await echoTools();
      const run = await runAgent(mode, tools, [call("call-1", '{"text":')]);
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-1", text: SDK_PARSE_MESSAGE },
      ]);
    });

    test("with repairOpenAIAgentsModel the Tool never runs and the model reads our reason", async () => {
      const { tools, execute, wrapModel } = await echoTools();
      const run = await runAgent(mode, tools, [call("call-1", brokenText(100_000))], {
        wrapModel,
      });
      expect(execute).not.toHaveBeenCalled();
      const request = run.calls[1]?.request;
      expect(toolOutputs(request)).toEqual([
        {
          callId: "call-1",
          text: invalid("arguments are not valid JSON at position 100000: unexpected end of input"),
        },
      ]);
      // The history holds the repaired call's stand-in, not the 100,000 characters.
      expect(sentArguments(request?.input)).toEqual({ "call-1": STAND_IN });
      expect(JSON.stringify(request?.input).length).toBeLessThan(1_000);
      expect(run.finalOutput).toBe("done");
    });

    test("duplicate keys JSON.parse would take (the last one winning) are refused by our parser", async () => {
      const { tools, execute, wrapModel } = await echoTools();
      const run = await runAgent(mode, tools, [call("call-1", '{"text":"a","text":"b"}')], {
        wrapModel,
      });
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-1", text: invalid("arguments repeat an object key at position 12") },
      ]);
    });

    test("a broken call beside good ones: only the good ones run, results in call order", async () => {
      const { tools, execute, wrapModel } = await echoTools();
      const run = await runAgent(
        mode,
        tools,
        [
          call("call-a", { text: "first" }),
          call("call-b", '{"text":'),
          call("call-c", { text: "third" }),
        ],
        { wrapModel },
      );
      expect(execute).toHaveBeenCalledTimes(2);
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-a", text: '{"echoed":"first"}' },
        {
          callId: "call-b",
          text: invalid("arguments are not valid JSON at position 8: unexpected end of input"),
        },
        { callId: "call-c", text: '{"echoed":"third"}' },
      ]);
      expect(sentArguments(run.calls[1]?.request.input)).toEqual({
        "call-a": '{"text":"first"}',
        "call-b": STAND_IN,
        "call-c": '{"text":"third"}',
      });
    });

    test("a tool of the SDK's own beside ours keeps the runner's handling", async () => {
      const { tools } = await echoTools();
      const native = vi.fn(async () => "native ran");
      const nativeTool = tool({
        name: "native",
        description: "The SDK's own.",
        parameters: { type: "object", properties: {}, required: [], additionalProperties: false },
        strict: true,
        execute: native,
      });
      const all: Tool[] = [...tools, nativeTool];
      const run = await runAgent(mode, all, [call("call-1", "not json", "native")], {
        wrapModel: (model) => repairOpenAIAgentsModel(model, all),
      });
      expect(native).not.toHaveBeenCalled();
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-1", text: SDK_PARSE_MESSAGE },
      ]);
      expect(sentArguments(run.calls[1]?.request.input)).toEqual({ "call-1": "not json" });
    });

    test("a valid and a broken call sharing one id: the runner refuses the turn, and no Tool runs", async () => {
      const { tools, execute, wrapModel } = await echoTools();
      const run = await runAgent(
        mode,
        tools,
        [call("dup", { text: "valid" }), call("dup", "{not json")],
        { wrapModel },
      );
      // The runner checks ids itself; our stand-in arguments make the two calls differ either way.
      expect(String(run.error)).toContain("Tool call ID dup was reused");
      expect(execute).not.toHaveBeenCalled();
      expect(run.calls).toHaveLength(1);
    });

    test("a call carrying the reserved key without a held record is refused, and the Tool never runs", async () => {
      const { tools, execute, wrapModel } = await echoTools();
      const forged = { [REPAIR_KEY]: "00000000-0000-4000-8000-000000000000", text: "hi" };
      const run = await runAgent(mode, tools, [call("call-1", forged)], { wrapModel });
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call-1", text: invalid(UNHELD_REPAIR_REASON) },
      ]);
    });

    test("a repair held by a run that failed is not taken by a later run's valid call with the same id", async () => {
      const { tools, execute, wrapModel } = await echoTools();
      // A call of a tool the agent lacks fails the run before our repaired call runs.
      const failed = await runAgent(
        mode,
        tools,
        [call("call_1", "{broken"), call("call_2", {}, "missing")],
        { wrapModel },
      );
      expect(failed.error).toBeDefined();
      expect(execute).not.toHaveBeenCalled();
      const run = await runAgent(mode, tools, [call("call_1", { text: "hi" })], { wrapModel });
      expect(execute).toHaveBeenCalledTimes(1);
      expect(toolOutputs(run.calls[1]?.request)).toEqual([
        { callId: "call_1", text: '{"echoed":"hi"}' },
      ]);
    });
  },
);
