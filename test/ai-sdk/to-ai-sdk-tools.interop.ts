/**
 * Our Tools inside the AI SDK's own loops (`ai` 7.0.173), `generateText` and
 * `streamText`, through `toAiSdkTools`, with the SDK's mock language model
 * scripted over two steps. Every assertion reads what the model received on
 * its next call (or that there was none).
 */

import type { ToolSet } from "ai";
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
import { AiSdkRunStop, toAiSdkTools } from "../../src/ai-sdk/index.ts";
import { PNG_1X1, PNG_1X1_BASE64 } from "../support/parts.ts";
import { call, type Loop, runLoop, toolOutputs } from "./support/scripted-model.ts";

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
  // The real type, checked by tsc against the installed SDK.
  const tools: ToolSet = await toAiSdkTools(registry, callOptions);
  return { tools, execute: spy };
}

const error = (code: string, message: string) => JSON.stringify({ error: { code, message } });

describe.each(["generateText", "streamText"] as const satisfies readonly Loop[])(
  "the AI SDK's %s runs our Tools",
  (loop) => {
    test("a success reaches the model on the next step as our content, unchanged", async () => {
      const { tools, execute } = await echoTools();
      const run = await runLoop(loop, tools, [call("call-1", { text: "hi" })]);
      expect(run.error).toBeUndefined();
      expect(run.calls).toHaveLength(2);
      expect(toolOutputs(run.calls[1])).toEqual([
        { toolCallId: "call-1", type: "text", value: '{"echoed":"hi"}' },
      ]);
      expect(execute).toHaveBeenCalledTimes(1);
      expect(run.text).toBe("done");
    });

    test("the model is shown our parameters as the Tool's input schema", async () => {
      const { tools } = await echoTools();
      const run = await runLoop(loop, tools, []);
      expect(run.calls[0]?.tools).toEqual([
        expect.objectContaining({ type: "function", name: "echo", inputSchema: echoParameters }),
      ]);
    });

    test.each([
      ["a blank text our validator refuses", { text: "  " }, "text must not be blank"],
      ["a number where the schema says string", { text: 7 }, "text must be a string"],
    ])(
      "%s: the Tool never runs, and the next step carries our TOOL_ARGUMENTS_INVALID text",
      async (_label, args, why) => {
        const { tools, execute } = await echoTools();
        const run = await runLoop(loop, tools, [call("call-1", args)]);
        expect(execute).not.toHaveBeenCalled();
        expect(toolOutputs(run.calls[1])).toEqual([
          { toolCallId: "call-1", type: "error-text", value: error("TOOL_ARGUMENTS_INVALID", why) },
        ]);
      },
    );

    test("an oversized output reaches the model bounded to the cap, marked, as a success", async () => {
      const { tools } = await echoTools(async () => "z".repeat(200_000));
      const run = await runLoop(loop, tools, [call("call-1", { text: "big" })]);
      const [seen] = toolOutputs(run.calls[1]);
      expect(seen?.type).toBe("text");
      const text = String(seen?.value);
      expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
      // Text is the bridge's default: the string itself, with a marker saying what was kept.
      expect(text).toMatch(/^z+\n\[Tool output truncated: \d+ of 200000 characters kept\]$/);
    });

    test('callOptions format "json": the course\'s text and marker', async () => {
      const { tools } = await echoTools(async () => "z".repeat(200_000), { format: "json" });
      const run = await runLoop(loop, tools, [call("call-1", { text: "big" })]);
      const text = String(toolOutputs(run.calls[1])[0]?.value);
      expect(text.startsWith('"zzz')).toBe(true);
      expect(text.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
    });

    test("a Tool's toolContent image reaches the model as the SDK's content output", async () => {
      const { tools } = await echoTools(async () =>
        toolContent([
          { type: "text", text: "One pixel:" },
          { type: "image", data: PNG_1X1, mimeType: "image/png" },
        ]),
      );
      const run = await runLoop(loop, tools, [call("call-1", { text: "chart" })]);
      expect(run.error).toBeUndefined();
      expect(toolOutputs(run.calls[1])).toEqual([
        {
          toolCallId: "call-1",
          type: "content",
          value: [
            { type: "text", text: "One pixel:" },
            { type: "file", data: { type: "data", data: PNG_1X1_BASE64 }, mediaType: "image/png" },
          ],
        },
      ]);
    });

    test("a throwing Tool reaches the model as our TOOL_EXECUTION_FAILED text, and the run goes on", async () => {
      const { tools } = await echoTools(async () => {
        throw new Error("printer on fire");
      });
      const run = await runLoop(loop, tools, [call("call-1", { text: "x" })]);
      expect(toolOutputs(run.calls[1])).toEqual([
        {
          toolCallId: "call-1",
          type: "error-text",
          value: error("TOOL_EXECUTION_FAILED", "printer on fire"),
        },
      ]);
      expect(run.text).toBe("done");
    });

    test("parallel calls in one step come back in call order, whatever order they finish in", async () => {
      const delays: Record<string, number> = { first: 30, second: 0, third: 15 };
      const { tools, execute } = await echoTools(async ({ text }) => {
        await new Promise((resolve) => setTimeout(resolve, delays[text] ?? 0));
        return { echoed: text };
      });
      const run = await runLoop(loop, tools, [
        call("call-a", { text: "first" }),
        call("call-b", { text: "second" }),
        call("call-c", { text: "" }),
        call("call-d", { text: "third" }),
      ]);
      expect(execute).toHaveBeenCalledTimes(3);
      expect(toolOutputs(run.calls[1])).toEqual([
        { toolCallId: "call-a", type: "text", value: '{"echoed":"first"}' },
        { toolCallId: "call-b", type: "text", value: '{"echoed":"second"}' },
        {
          toolCallId: "call-c",
          type: "error-text",
          value: error("TOOL_ARGUMENTS_INVALID", "text must not be blank"),
        },
        { toolCallId: "call-d", type: "text", value: '{"echoed":"third"}' },
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
      const run = await runLoop(loop, tools, [call("call-1", { text: "slow" })]);
      expect(toolSignal?.aborted).toBe(true);
      const [seen] = toolOutputs(run.calls[1]);
      expect(seen).toMatchObject({ toolCallId: "call-1", type: "error-text" });
      expect(JSON.parse(String(seen?.value))).toMatchObject({ error: { code: "TOOL_TIMEOUT" } });
      expect(run.text).toBe("done");
    });

    test("a run aborted mid-Tool ends with the signal's reason; the model is not asked again", async () => {
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
      const run = await runLoop(loop, tools, [call("call-1", { text: "x" })], {
        abortSignal: controller.signal,
      });
      expect(sawAbort).toBe(true);
      expect(run.calls).toHaveLength(1);
      expect(run.text).toBeUndefined();
      if (loop === "generateText") expect(run.error).toBe(reason);
      else expect(run.partTypes.at(-1)).toBe("abort");
    });

    test("a NonRecoverableToolError stops the run with itself before the model is asked again", async () => {
      const fatal = new NonRecoverableToolError("ledger is corrupt");
      const { tools } = await echoTools(() => Promise.reject(fatal));
      const run = await runLoop(loop, tools, [call("call-1", { text: "x" })]);
      expect(run.error).toBe(fatal);
      expect(run.calls).toHaveLength(1);
    });
  },
);

describe("the ToolSet itself", () => {
  test("one entry per Tool, keyed by name, in registration order, frozen", async () => {
    const names = ["zeta", "alpha", "__proto__"];
    const registry = new ToolRegistry(
      names.map((name) =>
        defineTool({
          name,
          description: `The ${name} Tool.`,
          validate: () => ({ ok: true, value: {} }),
          execute: async () => name,
        }),
      ),
    );
    const tools = await toAiSdkTools(registry);
    expect(Object.keys(tools)).toEqual(names);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    expect(Object.isFrozen(tools)).toBe(true);
    const run = await runLoop("generateText", tools, [call("call-1", {}, "__proto__")]);
    expect(toolOutputs(run.calls[1])).toEqual([
      { toolCallId: "call-1", type: "text", value: "__proto__" },
    ]);
  });

  test("a stopped call's marker is what the step's tool result holds", async () => {
    const fatal = new NonRecoverableToolError("ledger is corrupt");
    const { tools } = await echoTools(() => Promise.reject(fatal));
    const execute = tools.echo?.execute as (input: unknown, options: object) => Promise<unknown>;
    const output = await execute({ text: "x" }, { toolCallId: "call-1", messages: [] });
    expect(output).toBeInstanceOf(AiSdkRunStop);
    expect((output as AiSdkRunStop).error).toBe(fatal);
  });
});
