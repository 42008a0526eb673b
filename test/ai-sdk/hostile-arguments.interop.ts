/**
 * Argument text the AI SDK's own JSON reading accepts but `toolbound/providers`
 * refuses, through the SDK's real loops (`ai` 7.0.173, `generateText` and
 * `streamText` with its mock model). Every attack reads what the model
 * received on its next call and counts the Tool's executions.
 *
 * - With `repairAiSdkModel`, our parser reads the text before the SDK: every
 *   rule of `toolbound/providers` holds (duplicate keys, lone surrogates,
 *   numbers beyond a double or not held exactly, depth, length).
 * - Without it, our check of the SDK's parsed input (the bridged schema's
 *   `validate`) still refuses what a value shows (depth, length, non-finite
 *   numbers, lone surrogates, non-objects) with `TOOL_ARGUMENTS_INVALID`;
 *   what only the text shows (a duplicate key, a number a double cannot hold)
 *   is decided by the SDK's `JSON.parse`, as docs/frameworks.md says.
 */

import type { ToolSet } from "ai";
import type { MockLanguageModelV4 } from "ai/test";
import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { repairAiSdkModel, repairAiSdkToolCall, toAiSdkTools } from "../../src/ai-sdk/index.ts";
import { call, type Loop, runLoop, toolOutputs } from "./support/scripted-model.ts";

async function tools() {
  const execute = vi.fn(async (input: unknown) => input);
  const registry = new ToolRegistry([
    defineTool({
      name: "work",
      description: "Does work.",
      validate: (input) => ({ ok: true, value: input }),
      execute,
    }),
  ]);
  const set: ToolSet = await toAiSdkTools(registry);
  return { tools: set, execute };
}

const invalid = (message: string) =>
  JSON.stringify({ error: { code: "TOOL_ARGUMENTS_INVALID", message } });

const deepText = (depth: number) => `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;

/** The attacks of the review, with what the model reads with and without the wrapper. */
const ATTACKS: ReadonlyArray<readonly [string, string, string, string]> = [
  [
    "1e999",
    '{"n":1e999}',
    "arguments contain a number too large for a double at position 5",
    "arguments contain a number that is not finite",
  ],
  [
    "300-deep arrays",
    deepText(300),
    "arguments nest deeper than 64 levels at position 68",
    "arguments nest deeper than 64 levels",
  ],
  [
    "5,000-deep arrays (10 KB), which overflowed the SDK's recursive copy",
    deepText(5_000),
    "arguments nest deeper than 64 levels at position 68",
    "arguments nest deeper than 64 levels",
  ],
  [
    "a lone surrogate",
    '{"text":"\\ud800"}',
    "arguments contain a lone surrogate at position 9",
    "arguments contain a lone surrogate",
  ],
  [
    "an array instead of an object",
    "[1,2]",
    "arguments must be a JSON object, not an array",
    "arguments must be a JSON object, not an array",
  ],
];

describe.each(["generateText", "streamText"] as const satisfies readonly Loop[])(
  "hostile argument text in the AI SDK's %s",
  (loop) => {
    describe("with repairAiSdkModel: our parser reads the text first", () => {
      const wrapped = async () => {
        const made = await tools();
        const wrapModel = (model: MockLanguageModelV4) => repairAiSdkModel(model, made.tools);
        return { ...made, wrapModel };
      };

      test.each(ATTACKS)(
        "%s: refused, never run, a bounded reason",
        async (_label, text, reason) => {
          const { tools: set, execute, wrapModel } = await wrapped();
          const run = await runLoop(loop, set, [call("call-1", text, "work")], {
            repairToolCall: repairAiSdkToolCall,
            wrapModel,
          });
          expect(run.error).toBeUndefined();
          expect(execute).not.toHaveBeenCalled();
          expect(toolOutputs(run.calls[1])).toEqual([
            { toolCallId: "call-1", type: "error-text", value: invalid(reason) },
          ]);
          // The history holds the stand-in, not the text: the next prompt stays small.
          expect(JSON.stringify(run.calls[1]?.prompt).length).toBeLessThan(1_500);
        },
      );

      test.each([
        [
          "duplicate keys, which the SDK would run with the second value",
          '{"text":"safe","text":"rm -rf /"}',
          "arguments repeat an object key at position 15",
        ],
        [
          "9007199254740993, which a double reads as 9007199254740992",
          '{"n":9007199254740993}',
          "arguments contain a number a double cannot hold exactly at position 5",
        ],
        [
          "1e-400, which a double reads as 0",
          '{"n":1e-400}',
          "arguments contain a number too small for a double at position 5",
        ],
      ])("%s: refused like toolbound/providers refuses it", async (_label, text, reason) => {
        const { tools: set, execute, wrapModel } = await wrapped();
        const run = await runLoop(loop, set, [call("call-1", text, "work")], { wrapModel });
        expect(execute).not.toHaveBeenCalled();
        expect(toolOutputs(run.calls[1])).toEqual([
          { toolCallId: "call-1", type: "error-text", value: invalid(reason) },
        ]);
      });

      test("1,500 broken calls in one step: each reads its own reason, none runs", async () => {
        const { tools: set, execute, wrapModel } = await wrapped();
        const count = 1_500;
        const calls = Array.from({ length: count }, (_, index) =>
          call(`call-${index}`, `{"text":"${"x".repeat(index)}`, "work"),
        );
        const run = await runLoop(loop, set, calls, { wrapModel });
        expect(execute).not.toHaveBeenCalled();
        const outputs = toolOutputs(run.calls[1]);
        expect(outputs).toHaveLength(count);
        for (const output of outputs) {
          const index = Number(output.toolCallId.slice("call-".length));
          expect(output.value).toBe(
            invalid(
              `arguments are not valid JSON at position ${index + 9}: unexpected end of input`,
            ),
          );
        }
      }, 60_000);

      test("ordinary arguments run as the SDK parsed them", async () => {
        const { tools: set, execute, wrapModel } = await wrapped();
        const run = await runLoop(loop, set, [call("call-1", { text: "hi", n: 0.1 }, "work")], {
          wrapModel,
        });
        expect(execute).toHaveBeenCalledTimes(1);
        expect(toolOutputs(run.calls[1])).toEqual([
          { toolCallId: "call-1", type: "text", value: '{"n":0.1,"text":"hi"}' },
        ]);
      });
    });

    describe("without the wrapper: the check of the SDK's parsed input", () => {
      test.each(ATTACKS)(
        "%s: TOOL_ARGUMENTS_INVALID, not a host error, never run, no RangeError",
        async (_label, text, _textReason, valueReason) => {
          const { tools: set, execute } = await tools();
          const run = await runLoop(loop, set, [call("call-1", text, "work")], {
            repairToolCall: repairAiSdkToolCall,
          });
          expect(run.error).toBeUndefined();
          expect(execute).not.toHaveBeenCalled();
          expect(toolOutputs(run.calls[1])).toEqual([
            { toolCallId: "call-1", type: "error-text", value: invalid(valueReason) },
          ]);
        },
      );

      test("a duplicate key is the SDK's to read: JSON.parse keeps the last (use repairAiSdkModel)", async () => {
        const { tools: set, execute } = await tools();
        await runLoop(loop, set, [call("call-1", '{"text":"safe","text":"other"}', "work")], {
          repairToolCall: repairAiSdkToolCall,
        });
        expect(execute).toHaveBeenCalledTimes(1);
        expect(execute.mock.calls[0]?.[0]).toEqual({ text: "other" });
      });
    });
  },
);
