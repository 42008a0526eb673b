/**
 * Argument text the AI SDK cannot parse, inside its own loops (`ai` 7.0.173):
 * without a repair hook the SDK answers the call with a parse error that
 * quotes the whole text into the next prompt; with `repairAiSdkToolCall` the
 * text reaches our bounded parser and the model reads our short
 * `TOOL_ARGUMENTS_INVALID` reason. Every assertion reads what the model
 * received on its next call.
 */

import { InvalidToolInputError, jsonSchema, type ToolSet, tool } from "ai";
import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import {
  AI_SDK_REFUSED_TEXT_REASON,
  repairAiSdkToolCall,
  toAiSdkTools,
} from "../../src/ai-sdk/index.ts";
import { REPAIR_KEY, UNHELD_REPAIR_REASON } from "../../src/frameworks/pending-repairs.ts";
import {
  call,
  type Loop,
  type ModelCallOptions,
  runLoop,
  toolOutputs,
} from "./support/scripted-model.ts";

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
  const tools: ToolSet = await toAiSdkTools(registry);
  return { tools, execute };
}

/** Argument text of `length` characters that is not JSON: an object cut off inside a string. */
const brokenText = (length: number) => `{"text":"${"x".repeat(length - 9)}`;

/** How many characters the SDK sent the model in one call, prompt and all. */
const promptLength = (options: ModelCallOptions | undefined) =>
  JSON.stringify(options?.prompt).length;

const invalid = (message: string) =>
  JSON.stringify({ error: { code: "TOOL_ARGUMENTS_INVALID", message } });

describe.each(["generateText", "streamText"] as const satisfies readonly Loop[])(
  "argument text that is not JSON, in the AI SDK's %s",
  (loop) => {
    test("without the repair hook the SDK quotes all 100,000 characters back to the model", async () => {
      const { tools, execute } = await echoTools();
      const run = await runLoop(loop, tools, [call("call-1", brokenText(100_000))]);
      expect(execute).not.toHaveBeenCalled();
      const [seen] = toolOutputs(run.calls[1]);
      expect(seen).toMatchObject({ toolCallId: "call-1", type: "error-text" });
      // What the repair hook exists to prevent: the SDK's error text holds the whole input.
      expect(String(seen?.value).length).toBeGreaterThan(100_000);
    });

    test("with repairAiSdkToolCall the Tool never runs and the model reads our bounded reason", async () => {
      const { tools, execute } = await echoTools();
      const run = await runLoop(loop, tools, [call("call-1", brokenText(100_000))], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(run.calls[1])).toEqual([
        {
          toolCallId: "call-1",
          type: "error-text",
          value: invalid(
            "arguments are not valid JSON at position 100000: unexpected end of input",
          ),
        },
      ]);
      // The whole second prompt, the repaired call's stand-in input included, stays small.
      expect(promptLength(run.calls[1])).toBeLessThan(1_000);
      expect(run.text).toBe("done");
    });

    test("text past the parser's length limit is refused before it is read", async () => {
      const { tools, execute } = await echoTools();
      const run = await runLoop(loop, tools, [call("call-1", brokenText(1_000_001))], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).not.toHaveBeenCalled();
      const [seen] = toolOutputs(run.calls[1]);
      expect(JSON.parse(String(seen?.value))).toMatchObject({
        error: { code: "TOOL_ARGUMENTS_INVALID" },
      });
      expect(String(seen?.value)).toContain("1000000");
      expect(promptLength(run.calls[1])).toBeLessThan(1_000);
    });

    test("a __proto__ key the SDK's parser refuses is refused by us too: nothing runs on what the SDK never showed", async () => {
      const { tools, execute } = await echoTools();
      const text = '{"__proto__":{"polluted":true},"text":"hi"}';
      const run = await runLoop(loop, tools, [call("call-1", text)], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(run.calls[1])).toEqual([
        { toolCallId: "call-1", type: "error-text", value: invalid(AI_SDK_REFUSED_TEXT_REASON) },
      ]);
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    });

    test("an approval policy that denies a path cannot be passed by hiding the path behind a __proto__ key", async () => {
      const { tools, execute } = await echoTools();
      const seenByPolicy: unknown[] = [];
      const toolApproval = {
        echo: (input: { text?: unknown }) => {
          seenByPolicy.push(input);
          return typeof input.text === "string" && input.text.startsWith("/etc")
            ? "denied"
            : "approved";
        },
      };
      const hidden = '{"text":"/etc/shadow","__proto__":1}';
      const first = await runLoop(loop, tools, [call("call-1", hidden)], {
        repairToolCall: repairAiSdkToolCall,
        more: { toolApproval },
      });
      // The policy saw only the stand-in and approved it; the Tool still never ran.
      expect(seenByPolicy).toEqual([{ [REPAIR_KEY]: expect.any(String) }]);
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(first.calls[1])).toEqual([
        { toolCallId: "call-1", type: "error-text", value: invalid(AI_SDK_REFUSED_TEXT_REASON) },
      ]);
    });

    test("a stand-in replayed from the history answers with its refusal at most, never with arguments", async () => {
      const { tools, execute } = await echoTools();
      const first = await runLoop(loop, tools, [call("call-1", '{"text":"hi","__proto__":1}')], {
        repairToolCall: repairAiSdkToolCall,
      });
      // The stand-in as the next prompt shows it, in the assistant's call.
      const assistant = first.calls[1]?.prompt.find((message) => message.role === "assistant");
      const parts = (assistant?.content ?? []) as readonly { type: string; input?: unknown }[];
      const part = parts.find((entry) => entry.type === "tool-call");
      const token = ((part?.input ?? {}) as Record<string, unknown>)[REPAIR_KEY];
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}:/);
      const replay = await runLoop(loop, tools, [call("call-2", { [REPAIR_KEY]: token })], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).not.toHaveBeenCalled();
      // The stand-in is sealed for this Tool: replayed, it gives its own refusal again.
      expect(toolOutputs(replay.calls[1])).toEqual([
        { toolCallId: "call-2", type: "error-text", value: invalid(AI_SDK_REFUSED_TEXT_REASON) },
      ]);
      // Changed by one character, it is not ours: refused as such, never run.
      const changed = `${(token as string).slice(0, 44)}arguments are fine`;
      const forged = await runLoop(loop, tools, [call("call-3", { [REPAIR_KEY]: changed })], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(forged.calls[1])).toEqual([
        { toolCallId: "call-3", type: "error-text", value: invalid(UNHELD_REPAIR_REASON) },
      ]);
    });

    test("a refinement's own invalid-input verdict on valid JSON stays the SDK's: the hook does not turn it into a run", async () => {
      const { tools, execute } = await echoTools();
      const repair = vi.fn(repairAiSdkToolCall);
      const refine = {
        echo: (input: { text?: unknown }) => {
          if (input.text === "/etc/passwd") {
            throw new InvalidToolInputError({
              toolName: "echo",
              toolInput: "{}",
              cause: new Error("paths under /etc are not allowed"),
            });
          }
          return input;
        },
      };
      const run = await runLoop(loop, tools, [call("call-1", { text: "/etc/passwd" })], {
        repairToolCall: repair,
        more: { experimental_refineToolInput: refine },
      });
      expect(repair).toHaveBeenCalledTimes(1);
      await expect(repair.mock.results[0]?.value).resolves.toBeNull();
      expect(execute).not.toHaveBeenCalled();
      expect(toolOutputs(run.calls[1])).toMatchObject([
        { toolCallId: "call-1", type: "error-text" },
      ]);
    });

    test("a broken call beside good ones: only the good ones run, results in call order", async () => {
      const { tools, execute } = await echoTools();
      const run = await runLoop(
        loop,
        tools,
        [
          call("call-a", { text: "first" }),
          call("call-b", '{"text":'),
          call("call-c", { text: "third" }),
        ],
        { repairToolCall: repairAiSdkToolCall },
      );
      expect(execute).toHaveBeenCalledTimes(2);
      expect(toolOutputs(run.calls[1])).toEqual([
        { toolCallId: "call-a", type: "text", value: '{"echoed":"first"}' },
        {
          toolCallId: "call-b",
          type: "error-text",
          value: invalid("arguments are not valid JSON at position 8: unexpected end of input"),
        },
        { toolCallId: "call-c", type: "text", value: '{"echoed":"third"}' },
      ]);
    });

    test("a tool of the SDK's own in the same ToolSet keeps the SDK's handling", async () => {
      const { tools } = await echoTools();
      const native = vi.fn(async () => "native ran");
      const mixed: ToolSet = {
        ...tools,
        native: tool({ inputSchema: jsonSchema({ type: "object" }), execute: native }),
      };
      const repair = vi.fn(repairAiSdkToolCall);
      const run = await runLoop(loop, mixed, [call("call-1", "not json", "native")], {
        repairToolCall: repair,
      });
      expect(repair).toHaveBeenCalledTimes(1);
      await expect(repair.mock.results[0]?.value).resolves.toBeNull();
      expect(native).not.toHaveBeenCalled();
      const [seen] = toolOutputs(run.calls[1]);
      expect(seen).toMatchObject({ toolCallId: "call-1", type: "error-text" });
      expect(String(seen?.value)).not.toContain("TOOL_ARGUMENTS_INVALID");
    });

    test("a valid and a broken call sharing one id: the valid one runs on its own arguments, the broken one never runs", async () => {
      const { tools, execute } = await echoTools();
      const run = await runLoop(
        loop,
        tools,
        [call("dup", { text: "valid" }), call("dup", "{not json")],
        { repairToolCall: repairAiSdkToolCall },
      );
      expect(execute).toHaveBeenCalledTimes(1);
      expect(execute.mock.calls[0]?.[0]).toEqual({ text: "valid" });
      // Which result the SDK lists first for two calls of one id is its own affair; both are there.
      const outputs = toolOutputs(run.calls[1]);
      expect(outputs).toHaveLength(2);
      expect(outputs).toEqual(
        expect.arrayContaining([
          { toolCallId: "dup", type: "text", value: '{"echoed":"valid"}' },
          {
            toolCallId: "dup",
            type: "error-text",
            value: invalid(
              "arguments are not valid JSON at position 1: expected a property name in double quotes",
            ),
          },
        ]),
      );
    });

    test("a repair whose call never ran is not taken by a later run's valid call with the same id", async () => {
      const { tools, execute } = await echoTools();
      // A denied approval never runs the repaired call, and leaves its record behind.
      const denied = await runLoop(loop, tools, [call("call_1", "{broken")], {
        repairToolCall: repairAiSdkToolCall,
        more: { toolApproval: { echo: () => "denied" } },
      });
      expect(denied.calls).toHaveLength(2);
      expect(execute).not.toHaveBeenCalled();
      const run = await runLoop(loop, tools, [call("call_1", { text: "hi" })], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).toHaveBeenCalledTimes(1);
      expect(toolOutputs(run.calls[1])).toEqual([
        { toolCallId: "call_1", type: "text", value: '{"echoed":"hi"}' },
      ]);
    });

    test("an unknown tool name of 200,000 characters reaches the model as at most 64 code points", async () => {
      const { tools, execute } = await echoTools();
      const name = "n".repeat(200_000);
      const run = await runLoop(loop, tools, [call("call-1", { text: "hi" }, name)], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).not.toHaveBeenCalled();
      const [seen] = toolOutputs(run.calls[1]);
      expect(seen).toEqual({
        toolCallId: "call-1",
        type: "error-text",
        value: `AI_ToolCallRepairError: Error repairing tool call: Unknown Tool "${"n".repeat(64)}…" (200,000 code points); available tools: echo`,
      });
    });

    test("a broken call with a blank id never runs, and the model reads a short error", async () => {
      const { tools, execute } = await echoTools();
      const run = await runLoop(loop, tools, [call(" ", brokenText(100_000))], {
        repairToolCall: repairAiSdkToolCall,
      });
      expect(execute).not.toHaveBeenCalled();
      const [seen] = toolOutputs(run.calls[1]);
      expect(seen).toMatchObject({ type: "error-text" });
      expect(String(seen?.value).length).toBeLessThan(200);
      expect(promptLength(run.calls[1])).toBeLessThan(1_000);
    });
  },
);
