/**
 * `repairAiSdkModel`: our parser reads each tool call's text in the model's
 * answer before the SDK does, in `doGenerate`'s content and in `doStream`'s
 * parts; what it refuses reaches the SDK as a sealed stand-in, so duplicate
 * keys and numbers a double cannot hold are refused on the AI SDK's paths as
 * they are by `toolbound/providers`.
 */
import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { REPAIR_KEY } from "../frameworks/pending-repairs.ts";
import { repairAiSdkModel } from "./repair-ai-sdk-model.ts";
import { AI_SDK_REFUSED_TEXT_REASON } from "./repair-ai-sdk-tool-call.ts";
import { AiSdkToolResultError, buildAiSdkTools } from "./to-ai-sdk-tools.ts";

type Execute = (input: unknown, options: object) => Promise<unknown>;

function bridgedTools() {
  const execute = vi.fn(async (input: unknown) => input);
  const registry = new ToolRegistry([
    defineTool({
      name: "echo",
      description: "Repeat.",
      validate: (input) => ({ ok: true, value: input }),
      execute,
    }),
  ]);
  const tools = buildAiSdkTools(registry, undefined, ((schema: unknown) => schema) as never);
  const run = (tools as Record<string, { execute: Execute }>).echo?.execute as Execute;
  return { tools, run, execute };
}

const toolCall = (input: string, toolName = "echo", extra: object = {}) => ({
  type: "tool-call",
  toolCallId: "call-1",
  toolName,
  input,
  ...extra,
});

/** A model whose answer holds `parts`, through doGenerate and through doStream. */
function scripted(parts: readonly object[]) {
  return {
    specificationVersion: "v4",
    provider: "test",
    modelId: "scripted",
    supportedUrls: {},
    doGenerate: vi.fn(async () => ({ content: parts, finishReason: "tool-calls" })),
    doStream: vi.fn(async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    })),
  };
}

async function answerOf(model: ReturnType<typeof repairAiSdkModel>, streamed: boolean) {
  const wrapped = model as unknown as {
    doGenerate(options: object): Promise<{ content: { input?: string }[] }>;
    doStream(options: object): Promise<{ stream: ReadableStream<{ input?: string }> }>;
  };
  if (!streamed) return (await wrapped.doGenerate({})).content;
  const parts: { input?: string }[] = [];
  const reader = (await wrapped.doStream({})).stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return parts;
    parts.push(next.value);
  }
}

const refusal = (message: string) =>
  JSON.stringify({ error: { code: "TOOL_ARGUMENTS_INVALID", message } });

describe.each([false, true])("repairAiSdkModel (streamed: %s)", (streamed) => {
  test.each([
    [
      "duplicate keys, which the SDK would run with the last",
      '{"text":"safe","text":"rm -rf /"}',
      "arguments repeat an object key at position 15",
    ],
    ["a lone surrogate", '{"text":"\\ud800"}', "arguments contain a lone surrogate at position 9"],
    ["1e999", '{"n":1e999}', "arguments contain a number too large for a double at position 5"],
    [
      "a number a double cannot hold",
      '{"n":9007199254740993}',
      "arguments contain a number a double cannot hold exactly at position 5",
    ],
    [
      "5,000-deep text",
      `{"a":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
      "arguments nest deeper than 64 levels at position 68",
    ],
    [
      "text that is not JSON",
      '{"text":',
      "arguments are not valid JSON at position 8: unexpected end of input",
    ],
    [
      "a __proto__ key, which the SDK's parser refuses",
      '{"__proto__":{},"text":"x"}',
      AI_SDK_REFUSED_TEXT_REASON,
    ],
  ])(
    "%s: the SDK gets a stand-in, the Tool answers our reason, nothing runs",
    async (_label, text, reason) => {
      const { tools, run, execute } = bridgedTools();
      const model = scripted([{ type: "text", text: "calling" }, toolCall(text)]);
      const [first, second] = await answerOf(repairAiSdkModel(model as never, tools), streamed);
      expect(first).toEqual({ type: "text", text: "calling" });
      const stand = JSON.parse(second?.input as string) as Record<string, unknown>;
      expect(Object.keys(stand)).toEqual([REPAIR_KEY]);
      await expect(run(stand, { toolCallId: "call-1" })).rejects.toThrow(
        new AiSdkToolResultError({ content: refusal(reason) } as never).message,
      );
      expect(execute).not.toHaveBeenCalled();
    },
  );

  test("text our parser accepts, empty text, other tools and provider-run calls pass unchanged", async () => {
    const { tools } = bridgedTools();
    const parts = [
      toolCall('{"text":"hi"}'),
      toolCall("  "),
      toolCall("{nope", "someone_else"),
      toolCall("{nope", "echo", { providerExecuted: true }),
    ];
    const model = scripted(parts);
    expect(await answerOf(repairAiSdkModel(model as never, tools), streamed)).toEqual(parts);
  });
});

describe("repairAiSdkModel", () => {
  test("keeps the model's identity fields and reads none of a part's getters", async () => {
    const { tools } = bridgedTools();
    let reads = 0;
    const part = Object.defineProperty(toolCall("{nope"), "input", {
      enumerable: true,
      get: () => {
        reads += 1;
        return "{nope";
      },
    });
    const model = scripted([part]);
    const wrapped = repairAiSdkModel(model as never, tools) as unknown as Record<string, unknown>;
    expect([wrapped.specificationVersion, wrapped.provider, wrapped.modelId]).toEqual([
      "v4",
      "test",
      "scripted",
    ]);
    expect(await answerOf(wrapped as never, false)).toEqual([part]);
    expect(reads).toBe(0);
  });

  test.each([
    ["a model named by a string", "openai/gpt-5"],
    ["an object without doStream", { doGenerate: async () => ({}) }],
    ["null", null],
  ])("refuses %s with a TypeError", (_label, model) => {
    expect(() => repairAiSdkModel(model as never, {} as never)).toThrow(TypeError);
  });
});
