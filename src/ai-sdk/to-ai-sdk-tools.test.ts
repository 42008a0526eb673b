import { describe, expect, test, vi } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  NonRecoverableToolError,
  ToolRegistry,
} from "../../course/src/index.ts";
import { importAiSdk } from "./ai-sdk-module.ts";
import {
  AI_SDK_EMPTY_OBJECT_SCHEMA,
  AiSdkRunStop,
  AiSdkToolResultError,
  buildAiSdkTools,
} from "./to-ai-sdk-tools.ts";

const echoParameters = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
} as const;

type Execute = (input: unknown, options: object) => Promise<unknown>;
type ModelOutput = (options: { output: unknown }) => { type: string; value: string };

interface Bridged {
  readonly description: string;
  readonly inputSchema: { readonly wrapped: unknown };
  readonly execute: Execute;
  readonly toModelOutput: ModelOutput;
}

/** A stand-in for the SDK's jsonSchema(): records what it was given, wraps it. */
function fakeJsonSchema() {
  const given: unknown[] = [];
  const jsonSchema = (schema: unknown) => {
    given.push(schema);
    return { wrapped: schema };
  };
  return { jsonSchema: jsonSchema as never, given };
}

function echoRegistry(execute = vi.fn(async ({ text }: { text: string }) => ({ text }))) {
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
      parameters: echoParameters,
    }),
  ]);
  return { registry, execute };
}

function bridgedEcho(execute?: Parameters<typeof echoRegistry>[0], callOptions?: object): Bridged {
  const { registry } = echoRegistry(execute);
  const tools = buildAiSdkTools(registry.snapshot(), callOptions, fakeJsonSchema().jsonSchema);
  return (tools as Record<string, Bridged>).echo as Bridged;
}

describe("buildAiSdkTools", () => {
  test("one frozen entry per Tool, keyed by name in registration order, with the SDK's schema of a mutable copy", () => {
    const bare = defineTool({
      name: "now",
      description: "The time.",
      validate: () => ({ ok: true, value: {} }),
      execute: async () => "noon",
    });
    const { registry } = echoRegistry();
    registry.register(bare);
    const { jsonSchema, given } = fakeJsonSchema();
    const tools = buildAiSdkTools(registry.snapshot(), undefined, jsonSchema) as Record<
      string,
      Bridged
    >;
    expect(Object.keys(tools)).toEqual(["echo", "now"]);
    expect(given).toEqual([echoParameters, AI_SDK_EMPTY_OBJECT_SCHEMA]);
    expect(given.some((schema) => Object.isFrozen(schema))).toBe(false);
    expect(tools.echo?.inputSchema).toEqual({ wrapped: given[0] });
    expect(tools.echo?.description).toBe("Repeat the text.");
    expect(Object.isFrozen(tools)).toBe(true);
    expect(Object.isFrozen(tools.echo)).toBe(true);
  });

  test("a success resolves with our content, run with the SDK's call id and signal", async () => {
    let seen: { signal: AbortSignal; toolCallId: string } | undefined;
    const tool = bridgedEcho(
      vi.fn(
        async (
          { text }: { text: string },
          context: { signal: AbortSignal; toolCallId: string },
        ) => {
          seen = context;
          return { text };
        },
      ) as never,
    );
    const controller = new AbortController();
    const output = await tool.execute(
      { text: 'a "quote"' },
      { toolCallId: "call-1", abortSignal: controller.signal },
    );
    expect(output).toBe('{"text":"a \\"quote\\""}');
    expect(seen?.toolCallId).toBe("call-1");
    expect(seen?.signal).toBe(controller.signal);
    expect(tool.toModelOutput({ output })).toEqual({ type: "text", value: output });
  });

  test("runs with a fresh signal when the SDK passes none", async () => {
    let signal: AbortSignal | undefined;
    const tool = bridgedEcho(
      vi.fn(async (input: { text: string }, context: { signal: AbortSignal }) => {
        signal = context.signal;
        return input;
      }) as never,
    );
    await tool.execute({ text: "x" }, { toolCallId: "call-1" });
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal?.aborted).toBe(false);
  });

  test("an error result is thrown as AiSdkToolResultError whose message and toString are our content", async () => {
    const execute = vi.fn(async () => ({ text: "never" }));
    const tool = bridgedEcho(execute);
    const thrown = await tool
      .execute({ text: 7 }, { toolCallId: "call-2" })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(AiSdkToolResultError);
    const error = thrown as AiSdkToolResultError;
    const content = '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"text must be a string"}}';
    expect(error.message).toBe(content);
    // The SDK sends String(error) to the model.
    expect(String(error)).toBe(content);
    expect(error.name).toBe("AiSdkToolResultError");
    expect(error.result).toMatchObject({ toolCallId: "call-2", isError: true, content });
    expect(Object.isFrozen(error.result)).toBe(true);
    expect(execute).not.toHaveBeenCalled();
  });

  test("a cancelled call rejects with the signal's reason, even when that reason is a NonRecoverableToolError", async () => {
    for (const reason of [
      new Error("user pressed stop"),
      new NonRecoverableToolError("stop all"),
    ]) {
      const controller = new AbortController();
      const tool = bridgedEcho(
        vi.fn(() => {
          controller.abort(reason);
          return new Promise<never>(() => {});
        }) as never,
      );
      await expect(
        tool.execute({ text: "x" }, { toolCallId: "call-3", abortSignal: controller.signal }),
      ).rejects.toBe(reason);
    }
  });

  test("a registered NonRecoverableToolError resolves with a stop marker that toModelOutput throws", async () => {
    const fatal = new NonRecoverableToolError("ledger is corrupt");
    const tool = bridgedEcho(vi.fn(() => Promise.reject(fatal)));
    const output = await tool.execute({ text: "x" }, { toolCallId: "call-4" });
    expect(output).toBeInstanceOf(AiSdkRunStop);
    expect((output as AiSdkRunStop).error).toBe(fatal);
    expect(Object.isFrozen(output)).toBe(true);
    expect(() => tool.toModelOutput({ output })).toThrow(fatal);
  });

  test.each([
    ["a plain object shaped like a marker", () => ({ error: new NonRecoverableToolError("x") })],
    ["a marker made outside a call", () => new AiSdkRunStop(new NonRecoverableToolError("x"))],
    ["a number", () => 42],
  ])("toModelOutput does not stop the run for %s: it writes a fixed note", (_label, make) => {
    const tool = bridgedEcho();
    expect(tool.toModelOutput({ output: make() })).toEqual({
      type: "text",
      value: "[no result: the run was stopped by a non-recoverable error]",
    });
  });

  test("reads the SDK's execution options once each", async () => {
    const reads: string[] = [];
    const options = {
      get toolCallId() {
        reads.push("toolCallId");
        return "call-5";
      },
      get abortSignal() {
        reads.push("abortSignal");
        return undefined;
      },
    };
    await bridgedEcho().execute({ text: "x" }, options);
    expect(reads.sort()).toEqual(["abortSignal", "toolCallId"]);
  });

  test("applies the per-call options to every call", async () => {
    const execute = vi.fn(async ({ text }: { text: string }) => ({ text }));
    const approve = vi.fn((call: CourseToolCall) => call.id !== "call-denied");
    const tool = bridgedEcho(execute, { approve });
    await expect(tool.execute({ text: "x" }, { toolCallId: "call-denied" })).rejects.toThrow(
      "TOOL_APPROVAL_DENIED",
    );
    await tool.execute({ text: "x" }, { toolCallId: "call-ok" });
    expect(approve).toHaveBeenCalledTimes(2);
    expect(execute).toHaveBeenCalledTimes(1);
  });
});

describe("importAiSdk", () => {
  test("names the missing peer when `ai` cannot be loaded", async () => {
    const missing = new Error("Cannot find package 'ai'");
    const failure = await importAiSdk(() => Promise.reject(missing)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe(
      "toolbound/ai-sdk needs the AI SDK: install the optional peer `ai` (7.x) beside toolbound",
    );
    expect((failure as Error).cause).toBe(missing);
  });

  test("refuses an `ai` without jsonSchema(), and takes the function of one that has it", async () => {
    await expect(importAiSdk(async () => ({}))).rejects.toThrow("needs ai 7.x");
    const jsonSchema = () => ({});
    await expect(importAiSdk(async () => ({ jsonSchema }))).resolves.toEqual({ jsonSchema });
  });
});
