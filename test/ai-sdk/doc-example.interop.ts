/**
 * The documentation's AI SDK example, compiled by `tsc` against `ai` 7.0.173
 * and run in `generateText` with the SDK's mock model; the block that mirrors
 * this file must show exactly the marked lines.
 */

// The example's imports first, as the documentation shows them (import sorting is off for this file).
// doc:begin
import { generateText, isStepCount } from "ai";
import { ToolRegistry } from "toolbound";
import { repairAiSdkModel, repairAiSdkToolCall, toAiSdkTools } from "toolbound/ai-sdk";
// doc:end
import type { LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, test } from "vitest";
import type { ToolDefinition } from "../../course/src/index.ts";
import { mirroredExample, readmeTools } from "../setup/doc-example.ts";
import { call, generateTurn, toolOutputs } from "./support/scripted-model.ts";

async function example(
  model: Exclude<LanguageModel, string>,
  echo: ToolDefinition,
  add: ToolDefinition,
) {
  // doc:begin
  const registry = new ToolRegistry([echo, add]);
  const tools = await toAiSdkTools(registry, { timeoutMs: 5_000 });
  const result = await generateText({
    model: repairAiSdkModel(model, tools),
    tools,
    repairToolCall: repairAiSdkToolCall,
    stopWhen: isStepCount(5),
    prompt: "Add 20 and 22.",
  });
  // doc:end
  return result;
}

describe("the documentation's AI SDK example", () => {
  test("is the documentation's text, line for line", () => {
    const { shown, marked } = mirroredExample(new URL(import.meta.url));
    expect(shown).toBe(marked);
  });

  test("runs: the model asks for add, reads 42, and a broken call is answered by our parser", async () => {
    const { echo, add, sum } = readmeTools();
    const model = new MockLanguageModelV4({
      doGenerate: [
        generateTurn([call("call-1", { left: 20, right: 22 }, "add"), call("call-2", "{", "add")]),
        generateTurn([]),
      ],
    });
    const result = await example(model, echo, add);
    expect(sum).toHaveBeenCalledTimes(1);
    expect(toolOutputs(model.doGenerateCalls[1])).toEqual([
      { toolCallId: "call-1", type: "text", value: '{"sum":42}' },
      {
        toolCallId: "call-2",
        type: "error-text",
        value: JSON.stringify({
          error: {
            code: "TOOL_ARGUMENTS_INVALID",
            message: "arguments are not valid JSON at position 1: unexpected end of input",
          },
        }),
      },
    ]);
    expect(result.text).toBe("done");
  });
});
