import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { AI_SDK_MAX_PENDING_REPAIRS, repairAiSdkToolCall } from "./repair-ai-sdk-tool-call.ts";
import { AiSdkToolResultError, buildAiSdkTools } from "./to-ai-sdk-tools.ts";

type Execute = (input: unknown, options: object) => Promise<unknown>;

/** Our echo Tool bridged with a stand-in jsonSchema(), and a spy on its own execute. */
function bridgedTools() {
  const execute = vi.fn(async ({ text }: { text: string }) => `echo: ${text}`);
  const registry = new ToolRegistry([
    defineTool({
      name: "echo",
      description: "Repeat the text.",
      validate: (input) => {
        const text = (input as { text?: unknown }).text;
        return typeof text === "string"
          ? { ok: true, value: { text } }
          : { ok: false, error: "text must be a string" };
      },
      execute,
    }),
  ]);
  const tools = buildAiSdkTools(registry, undefined, ((schema: unknown) => schema) as never);
  const run = (tools as Record<string, { execute: Execute }>).echo?.execute as Execute;
  return { tools, execute, run };
}

/** The SDK's invalid-input error as the hook recognises it: by its public name. */
const invalidInput = () =>
  Object.assign(new Error("Invalid input for tool echo"), { name: "AI_InvalidToolInputError" });

const modelCall = (input: string, toolCallId = "call-1", toolName = "echo") => ({
  type: "tool-call" as const,
  toolCallId,
  toolName,
  input,
  providerMetadata: { vendor: { signature: "abc" } },
});

/** What a rejected run of a bridged Tool tells the model. */
async function errorText(pending: Promise<unknown>): Promise<string> {
  const thrown = await pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(AiSdkToolResultError);
  return (thrown as AiSdkToolResultError).message;
}

describe("repairAiSdkToolCall", () => {
  test("hands the SDK the same call with {} as its input, leaving the model's call as it was", async () => {
    const { tools } = bridgedTools();
    const original = modelCall('{"text":');
    const repaired = await repairAiSdkToolCall({
      toolCall: original,
      tools,
      error: invalidInput(),
    });
    expect(repaired).toEqual({ ...original, input: "{}" });
    expect(original.input).toBe('{"text":');
  });

  test("the repaired call answers with our parser's reason, and the Tool never runs", async () => {
    const { tools, execute, run } = bridgedTools();
    await repairAiSdkToolCall({ toolCall: modelCall('{"text":'), tools, error: invalidInput() });
    const text = await errorText(run({}, { toolCallId: "call-1" }));
    expect(JSON.parse(text)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "arguments are not valid JSON at position 8: unexpected end of input",
      },
    });
    expect(execute).not.toHaveBeenCalled();
  });

  test("text our parser accepts runs with what it parsed, not with the {} the SDK passes", async () => {
    const { tools, execute, run } = bridgedTools();
    const text = '{"__proto__":{"x":1},"text":"hi"}';
    await repairAiSdkToolCall({ toolCall: modelCall(text), tools, error: invalidInput() });
    await expect(run({}, { toolCallId: "call-1" })).resolves.toBe(JSON.stringify("echo: hi"));
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("a record answers one call only: the same id again is an ordinary call", async () => {
    const { tools, run } = bridgedTools();
    await repairAiSdkToolCall({ toolCall: modelCall("nope"), tools, error: invalidInput() });
    expect(await errorText(run({}, { toolCallId: "call-1" }))).toContain("not valid JSON");
    expect(await errorText(run({}, { toolCallId: "call-1" }))).toContain("text must be a string");
  });

  test("a record belongs to its call id: another call of the Tool is not touched", async () => {
    const { tools, run } = bridgedTools();
    await repairAiSdkToolCall({
      toolCall: modelCall("nope", "call-bad"),
      tools,
      error: invalidInput(),
    });
    await expect(run({ text: "ok" }, { toolCallId: "call-good" })).resolves.toBe(
      JSON.stringify("echo: ok"),
    );
    expect(await errorText(run({}, { toolCallId: "call-bad" }))).toContain("not valid JSON");
  });

  const foreign = { execute: async () => "theirs", inputSchema: {} };
  test.each([
    [
      "an error other than the SDK's invalid-input error",
      modelCall("nope"),
      "AI_NoSuchToolError",
      {},
    ],
    [
      "a tool name the ToolSet does not hold",
      modelCall("nope", "call-1", "missing"),
      undefined,
      {},
    ],
    [
      "a tool toAiSdkTools did not make",
      modelCall("nope", "call-1", "foreign"),
      undefined,
      { foreign },
    ],
    ["a blank call id", modelCall("nope", "  "), undefined, {}],
    ["an input that is not a string", { ...modelCall(""), input: 7 }, undefined, {}],
  ])("declines (null) for %s", async (_label, toolCall, errorName, extra) => {
    const { tools } = bridgedTools();
    const error =
      errorName === undefined ? invalidInput() : Object.assign(new Error("x"), { name: errorName });
    const repaired = await repairAiSdkToolCall({ toolCall, tools: { ...tools, ...extra }, error });
    expect(repaired).toBeNull();
  });

  test("never runs a getter on the call or the ToolSet: a getter-defined field declines", async () => {
    const { tools } = bridgedTools();
    let reads = 0;
    const toolCall = { ...modelCall("nope") };
    Object.defineProperty(toolCall, "toolName", {
      get: () => {
        reads += 1;
        return "echo";
      },
    });
    expect(await repairAiSdkToolCall({ toolCall, tools, error: invalidInput() })).toBeNull();
    const toolsWithGetter = {};
    Object.defineProperty(toolsWithGetter, "echo", {
      get: () => {
        reads += 1;
        return (tools as Record<string, unknown>).echo;
      },
    });
    const repaired = await repairAiSdkToolCall({
      toolCall: modelCall("nope"),
      tools: toolsWithGetter,
      error: invalidInput(),
    });
    expect(repaired).toBeNull();
    expect(reads).toBe(0);
  });

  test(`holds at most ${AI_SDK_MAX_PENDING_REPAIRS} calls that have not run, then declines new ones`, async () => {
    const { tools, run } = bridgedTools();
    const error = invalidInput();
    for (let index = 0; index < AI_SDK_MAX_PENDING_REPAIRS; index += 1) {
      const repaired = await repairAiSdkToolCall({
        toolCall: modelCall("x", `call-${index}`),
        tools,
        error,
      });
      expect(repaired).not.toBeNull();
    }
    const past = modelCall("x", "call-past");
    expect(await repairAiSdkToolCall({ toolCall: past, tools, error })).toBeNull();
    // An id already held may be repaired again; one run frees a place.
    expect(
      await repairAiSdkToolCall({ toolCall: modelCall("x", "call-0"), tools, error }),
    ).not.toBeNull();
    await errorText(run({}, { toolCallId: "call-0" }));
    expect(await repairAiSdkToolCall({ toolCall: past, tools, error })).not.toBeNull();
  });
});
