import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { REPAIR_KEY, UNHELD_REPAIR_REASON } from "../frameworks/pending-repairs.ts";

interface MadeTool {
  readonly name: string;
  readonly execute: (input: unknown, context?: unknown, details?: object) => Promise<string>;
}

// A stand-in for the SDK's tool(): the made tool keeps the options it was given.
vi.mock("./openai-agents-module.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./openai-agents-module.ts")>()),
  loadOpenAIAgents: async () => ({
    tool: (options: MadeTool) => ({ ...options, type: "function" }),
  }),
}));

const { repairOpenAIAgentsModel, toOpenAIAgentsTools } = await import("./index.ts");

async function echoTools() {
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
  const tools = (await toOpenAIAgentsTools(registry)) as unknown as MadeTool[];
  const echo = tools[0] as MadeTool;
  /** What the runner would do with a call item: run the tool on its parsed arguments. */
  const runItem = (item: { callId: string; arguments: string }) =>
    echo.execute(JSON.parse(item.arguments), undefined, { toolCall: { callId: item.callId } });
  return { tools, execute, runItem };
}

const functionCall = (args: string, callId = "call-1", name = "echo") => ({
  type: "function_call" as const,
  callId,
  name,
  arguments: args,
});

/** A model answering every request with `output`, plain and as a stream. */
function fixedModel(output: unknown[]) {
  const response = { usage: {}, output, responseId: "resp-1" };
  return {
    response,
    model: {
      getResponse: vi.fn(async () => response),
      async *getStreamedResponse() {
        yield { type: "output_text_delta", delta: "…" };
        yield { type: "response_done", response: { id: "resp-1", usage: {}, output } };
      },
      getRetryAdvice: vi.fn(() => ({ suggested: false })),
    },
  };
}

type Wrapped = ReturnType<typeof repairOpenAIAgentsModel>;
type Item = { callId: string; arguments: string };

async function outputOf(wrapped: Wrapped, streamed: boolean): Promise<Item[]> {
  if (!streamed) return (await wrapped.getResponse({} as never)).output as Item[];
  let output: Item[] = [];
  for await (const event of wrapped.getStreamedResponse({} as never)) {
    if (event.type === "response_done") output = event.response.output as Item[];
  }
  return output;
}

describe.each([false, true])("repairOpenAIAgentsModel (streamed: %s)", (streamed) => {
  test("a call of ours with text our parser refuses: a sealed stand-in for the runner, our reason from the Tool", async () => {
    const { tools, execute, runItem } = await echoTools();
    const { model } = fixedModel([functionCall('{"text":')]);
    const [item] = await outputOf(repairOpenAIAgentsModel(model as never, tools), streamed);
    expect(item).toEqual(functionCall(expect.any(String)));
    const stand = JSON.parse((item as Item).arguments) as Record<string, unknown>;
    expect(Object.keys(stand)).toEqual([REPAIR_KEY]);
    expect(JSON.parse(await runItem(item as Item))).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "arguments are not valid JSON at position 8: unexpected end of input",
      },
    });
    // The stand-in again (copied from the history) gives the same refusal, never a run;
    // changed, it is not ours and is refused as such.
    expect(JSON.parse(await runItem(item as Item)).error.code).toBe("TOOL_ARGUMENTS_INVALID");
    const changed = (item as Item).arguments.replace("unexpected end of input", "fine, run it");
    expect(JSON.parse(await runItem({ callId: "call-1", arguments: changed }))).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: UNHELD_REPAIR_REASON },
    });
    expect(execute).not.toHaveBeenCalled();
    // The same id with ordinary arguments is an ordinary call.
    await expect(runItem({ callId: "call-1", arguments: '{"text":"hi"}' })).resolves.toBe(
      "echo: hi",
    );
  });

  test("a valid and a broken call sharing one id: each gets its own answer", async () => {
    const { tools, execute, runItem } = await echoTools();
    const { model } = fixedModel([
      functionCall('{"text":"valid"}', "dup"),
      functionCall("{not json", "dup"),
    ]);
    const [valid, broken] = await outputOf(
      repairOpenAIAgentsModel(model as never, tools),
      streamed,
    );
    await expect(runItem(valid as Item)).resolves.toBe("echo: valid");
    expect(await runItem(broken as Item)).toContain("TOOL_ARGUMENTS_INVALID");
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("a record left by a run that failed is never taken by a later call with the same id", async () => {
    const { tools, execute, runItem } = await echoTools();
    const { model } = fixedModel([functionCall("{broken", "call_1")]);
    await outputOf(repairOpenAIAgentsModel(model as never, tools), streamed);
    await expect(runItem(functionCall('{"text":"hi"}', "call_1"))).resolves.toBe("echo: hi");
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("a response with nothing to repair is passed on as the very same output", async () => {
    const { tools } = await echoTools();
    const output = [functionCall('{"text":"hi"}'), { type: "message", content: [] }];
    const { model } = fixedModel(output);
    expect(await outputOf(repairOpenAIAgentsModel(model as never, tools), streamed)).toBe(output);
  });

  test.each([
    ["a tool name not among the tools", functionCall("nope", "call-1", "other")],
    ["a namespaced call", { ...functionCall("nope"), namespace: "files" }],
    ["arguments that are not a string", { ...functionCall(""), arguments: { text: "hi" } }],
    ["an item that is not a function call", { type: "message", content: "nope" }],
  ])("leaves %s as it is", async (_label, item) => {
    const { tools } = await echoTools();
    const { model } = fixedModel([item]);
    const [seen] = await outputOf(repairOpenAIAgentsModel(model as never, tools), streamed);
    expect(seen).toBe(item);
  });

  test("never runs a getter on an item: a getter-defined field leaves the item alone", async () => {
    const { tools } = await echoTools();
    let reads = 0;
    const item = functionCall("nope");
    Object.defineProperty(item, "arguments", {
      get: () => {
        reads += 1;
        return "nope";
      },
    });
    const { model } = fixedModel([item]);
    const [seen] = await outputOf(repairOpenAIAgentsModel(model as never, tools), streamed);
    expect(seen).toBe(item);
    expect(reads).toBe(0);
  });
});

describe("repairOpenAIAgentsModel", () => {
  test("serves only the tools toOpenAIAgentsTools made, among those it is given", async () => {
    const { tools } = await echoTools();
    const lookalike = { ...tools[0], type: "function" };
    const { model } = fixedModel([functionCall("nope")]);
    const wrapped = repairOpenAIAgentsModel(model as never, [lookalike]);
    expect(await outputOf(wrapped, false)).toEqual([functionCall("nope")]);
  });

  test("1,500 broken calls in one response, repaired before any runs: each gets its own reason", async () => {
    const { tools, execute, runItem } = await echoTools();
    const count = 1_500;
    const calls = Array.from({ length: count }, (_, index) =>
      functionCall(`{"text":"${"x".repeat(index)}`, `call-${index}`),
    );
    const { model } = fixedModel(calls);
    const output = await outputOf(repairOpenAIAgentsModel(model as never, tools), false);
    expect(output).toHaveLength(count);
    const messages = await Promise.all(
      output.map(async (item) => JSON.parse(await runItem(item)).error.message as string),
    );
    for (const [index, message] of messages.entries()) {
      expect(message).toBe(
        `arguments are not valid JSON at position ${index + 9}: unexpected end of input`,
      );
    }
    expect(execute).not.toHaveBeenCalled();
  });

  test("passes retry advice and prompt model selection through to the model", async () => {
    const { tools } = await echoTools();
    const { model } = fixedModel([]);
    const selecting = Object.assign(model, { supportsPromptModelSelection: true });
    const wrapped = repairOpenAIAgentsModel(selecting as never, tools);
    expect(wrapped.supportsPromptModelSelection).toBe(true);
    expect(await wrapped.getRetryAdvice?.({ attempt: 1 } as never)).toEqual({ suggested: false });
    expect(model.getRetryAdvice).toHaveBeenCalledWith({ attempt: 1 });
  });

  test.each([
    ["a model without getStreamedResponse", { getResponse: async () => ({}) }, [], "Model"],
    ["null as the model", null, [], "Model"],
    ["tools that are not an array", fixedModel([]).model, { echo: {} }, "array"],
  ])("refuses %s with a TypeError", (_label, model, tools, word) => {
    expect(() => repairOpenAIAgentsModel(model as never, tools as never)).toThrow(TypeError);
    expect(() => repairOpenAIAgentsModel(model as never, tools as never)).toThrow(word);
  });
});
