import { describe, expect, test, vi } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  NonRecoverableToolError,
  ToolRegistry,
} from "../../course/src/index.ts";
import {
  PI_EMPTY_OBJECT_SCHEMA,
  type PiBridgedTool,
  PiToolResultError,
  toPiTools,
} from "./index.ts";

const echoParameters = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
} as const;

function echoTool(execute = vi.fn(async ({ text }: { text: string }) => ({ text }))) {
  const tool = defineTool({
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
  });
  return { tool, execute };
}

function only(tools: PiBridgedTool[]): PiBridgedTool {
  expect(tools).toHaveLength(1);
  return tools[0] as PiBridgedTool;
}

/** What Pi's agent loop records for a Tool that throws: `error.message` or `String(error)`. */
async function asPiRecords(run: Promise<unknown>): Promise<{ text: string; isError: boolean }> {
  try {
    const result = (await run) as { content: { text: string }[] };
    return { text: result.content.map((block) => block.text).join("\n"), isError: false };
  } catch (error) {
    return { text: error instanceof Error ? error.message : String(error), isError: true };
  }
}

describe("toPiTools", () => {
  test("describes each Tool as a Pi AgentTool, in registration order", () => {
    const bare = defineTool({
      name: "now",
      description: "The time.",
      validate: () => ({ ok: true, value: {} }),
      execute: async () => "noon",
    });
    const tools = toPiTools(new ToolRegistry([echoTool().tool, bare]));
    expect(
      tools.map(({ name, label, description, parameters }) => ({
        name,
        label,
        description,
        parameters,
      })),
    ).toEqual([
      { name: "echo", label: "echo", description: "Repeat the text.", parameters: echoParameters },
      { name: "now", label: "now", description: "The time.", parameters: PI_EMPTY_OBJECT_SCHEMA },
    ]);
    // Frozen, so no one can swap a bridged Tool's execute after the fact.
    expect(tools.every((tool) => Object.isFrozen(tool))).toBe(true);
  });

  test("gives Pi a mutable copy of the schema, so a change there leaves ours frozen and intact", () => {
    const { tool } = echoTool();
    const bridged = only(toPiTools(new ToolRegistry([tool])));
    expect(bridged.parameters).not.toBe(tool.parameters);
    (bridged.parameters as { additionalProperties?: boolean }).additionalProperties = false;
    expect(tool.parameters).toEqual(echoParameters);
  });

  test("resolves with our content unchanged as one text block, our result as details", async () => {
    const { tool } = echoTool();
    const registry = new ToolRegistry([tool]);
    const bridged = only(toPiTools(registry));
    const signal = new AbortController().signal;
    const result = await bridged.execute("call-1", { text: 'a "quoted" line' }, signal);
    const direct = await executeToolCall(
      registry,
      { type: "toolCall", id: "call-1", name: "echo", arguments: { text: 'a "quoted" line' } },
      signal,
    );
    expect(result.content).toEqual([{ type: "text", text: direct.content }]);
    expect(result.details).toEqual(direct);
  });

  test("throws invalid arguments as PiToolResultError whose message is our content, before any effect", async () => {
    const { tool, execute } = echoTool();
    const bridged = only(toPiTools(new ToolRegistry([tool])));
    const run = bridged.execute("call-2", { text: 7 });
    await expect(run).rejects.toBeInstanceOf(PiToolResultError);
    const recorded = await asPiRecords(bridged.execute("call-2", { text: 7 }));
    expect(recorded).toEqual({
      isError: true,
      text: '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"text must be a string"}}',
    });
    expect(execute).not.toHaveBeenCalled();
  });

  test("carries our frozen error result on the thrown PiToolResultError", async () => {
    const { tool } = echoTool(
      vi.fn(async () => {
        throw new Error("printer on fire");
      }),
    );
    const bridged = only(toPiTools(new ToolRegistry([tool])));
    const thrown = await bridged.execute("call-3", { text: "x" }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(PiToolResultError);
    const error = thrown as PiToolResultError;
    expect(error.name).toBe("PiToolResultError");
    expect(error.message).toBe(error.result.content);
    expect(error.result).toMatchObject({ toolCallId: "call-3", isError: true });
    expect(Object.isFrozen(error.result)).toBe(true);
    expect(JSON.parse(error.message)).toEqual({
      error: { code: "TOOL_EXECUTION_FAILED", message: "printer on fire" },
    });
  });

  test("passes Pi's signal through and rejects with its reason when aborted mid-Tool", async () => {
    const controller = new AbortController();
    const reason = new Error("run aborted");
    let toolSignal: AbortSignal | undefined;
    const { tool } = echoTool(
      vi.fn(async (_input: { text: string }, context: { signal: AbortSignal }) => {
        toolSignal = context.signal;
        controller.abort(reason);
        return new Promise<never>(() => {});
      }) as never,
    );
    const bridged = only(toPiTools(new ToolRegistry([tool])));
    await expect(bridged.execute("call-4", { text: "x" }, controller.signal)).rejects.toBe(reason);
    expect(toolSignal).toBe(controller.signal);
  });

  test("runs with a fresh signal when Pi passes none", async () => {
    let toolSignal: AbortSignal | undefined;
    const { tool } = echoTool(
      vi.fn(async ({ text }: { text: string }, context: { signal: AbortSignal }) => {
        toolSignal = context.signal;
        return { text };
      }) as never,
    );
    const bridged = only(toPiTools(new ToolRegistry([tool])));
    await bridged.execute("call-5", { text: "x" });
    expect(toolSignal).toBeInstanceOf(AbortSignal);
    expect(toolSignal?.aborted).toBe(false);
  });

  test("lets a registered NonRecoverableToolError escape as itself", async () => {
    const fatal = new NonRecoverableToolError("ledger is corrupt");
    const { tool } = echoTool(vi.fn(() => Promise.reject(fatal)));
    const bridged = only(toPiTools(new ToolRegistry([tool])));
    await expect(bridged.execute("call-6", { text: "x" })).rejects.toBe(fatal);
  });

  test("applies the per-call options to every bridged call", async () => {
    const { tool, execute } = echoTool();
    const approve = vi.fn((call: CourseToolCall) => call.id !== "call-denied");
    const bridged = only(toPiTools(new ToolRegistry([tool]), { approve }));
    const denied = await asPiRecords(bridged.execute("call-denied", { text: "x" }));
    expect(denied.isError).toBe(true);
    expect(JSON.parse(denied.text)).toMatchObject({ error: { code: "TOOL_APPROVAL_DENIED" } });
    await bridged.execute("call-ok", { text: "x" });
    expect(approve).toHaveBeenCalledTimes(2);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("keeps the Tool set of the moment: a later registration does not appear", () => {
    const registry = new ToolRegistry([echoTool().tool]);
    const tools = toPiTools(registry);
    registry.register(
      defineTool({
        name: "late",
        description: "Registered afterwards.",
        validate: () => ({ ok: true, value: {} }),
        execute: async () => "late",
      }),
    );
    expect(registry.names).toEqual(["echo", "late"]);
    expect(tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(toPiTools(registry).map((tool) => tool.name)).toEqual(["echo", "late"]);
  });

  test("refuses something that is not a ToolRegistry", () => {
    expect(() => toPiTools({ names: [], get: () => undefined } as never)).toThrow(TypeError);
  });
});
