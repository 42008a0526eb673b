/**
 * What the SDK makes of our Tools' schemas and names: strict mode through our
 * rewriting when asked for and possible, non-strict otherwise, and the SDK's
 * renaming of Tool names, each checked in a real run.
 */

import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import {
  OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA,
  toOpenAIAgentsTools,
} from "../../src/openai-agents/index.ts";
import { call, runAgent, toolOutputs } from "./support/scripted-run.ts";

const noteParameters = {
  type: "object",
  properties: { path: { type: "string" }, note: { type: "string" } },
  required: ["path"],
} as const;

/** A Tool whose validator refuses a null note, as a careful validator would. */
function noteTool(name = "annotate", parameters: object = noteParameters) {
  const execute = vi.fn(async (input: { path: string; note?: string }) => input);
  const tool = defineTool<{ path: string; note?: string }, unknown>({
    name,
    description: "Annotate a file.",
    validate: (input) => {
      const { path, note } = input as { path?: unknown; note?: unknown };
      if (typeof path !== "string") return { ok: false, error: "path must be a string" };
      if (note !== undefined && typeof note !== "string")
        return { ok: false, error: "note must be a string" };
      return { ok: true, value: note === undefined ? { path } : { path, note } };
    },
    execute,
    parameters: parameters as never,
  });
  return { tool, execute };
}

describe("strict mode", () => {
  test("asked for and possible: the model sees our strict rewrite, and its nulls never reach our validator", async () => {
    const { tool, execute } = noteTool();
    const tools = await toOpenAIAgentsTools(new ToolRegistry([tool]), undefined, { strict: true });
    expect(tools.map((made) => made.strict)).toEqual([true]);
    const run = await runAgent("run", tools, [
      call("call-1", { path: "a.txt", note: null }, "annotate"),
    ]);
    expect(run.calls[0]?.request.tools).toEqual([
      expect.objectContaining({
        name: "annotate",
        strict: true,
        parameters: {
          type: "object",
          properties: { path: { type: "string" }, note: { type: ["string", "null"] } },
          required: ["path", "note"],
          additionalProperties: false,
        },
      }),
    ]);
    expect(execute.mock.calls[0]?.[0]).toEqual({ path: "a.txt" });
    expect(toolOutputs(run.calls[1]?.request)).toEqual([
      { callId: "call-1", text: '{"path":"a.txt"}' },
    ]);
  });

  test("not asked for: the same null is our validator's to refuse", async () => {
    const { tool, execute } = noteTool();
    const tools = await toOpenAIAgentsTools(new ToolRegistry([tool]));
    const run = await runAgent("run", tools, [
      call("call-1", { path: "a.txt", note: null }, "annotate"),
    ]);
    expect(execute).not.toHaveBeenCalled();
    expect(toolOutputs(run.calls[1]?.request)).toEqual([
      {
        callId: "call-1",
        text: '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"note must be a string"}}',
      },
    ]);
  });

  test.each([
    ["additionalProperties: true", { ...noteParameters, additionalProperties: true }],
    ["a oneOf", { type: "object", properties: { path: { oneOf: [{ type: "string" }] } } }],
  ])(
    "asked for but the schema has %s: that Tool stays non-strict, its schema as it is",
    async (_label, parameters) => {
      const { tool } = noteTool("annotate", parameters);
      const { tool: other } = noteTool("other");
      const tools = await toOpenAIAgentsTools(new ToolRegistry([tool, other]), undefined, {
        strict: true,
      });
      expect(tools.map((made) => [made.name, made.strict])).toEqual([
        ["annotate", false],
        ["other", true],
      ]);
      const run = await runAgent("run", tools, []);
      expect(run.calls[0]?.request.tools[0]).toMatchObject({ strict: false, parameters });
    },
  );
});

describe("names and schemas", () => {
  test("the SDK renames read-file to read_file; a call to it runs our read-file Tool", async () => {
    const { tool, execute } = noteTool("read-file");
    const tools = await toOpenAIAgentsTools(new ToolRegistry([tool]));
    expect(tools.map((made) => made.name)).toEqual(["read_file"]);
    const run = await runAgent("run", tools, [call("call-1", { path: "a.txt" }, "read_file")]);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(toolOutputs(run.calls[1]?.request)).toEqual([
      { callId: "call-1", text: '{"path":"a.txt"}' },
    ]);
  });

  test("two Tools the SDK would give one name are refused, naming both", async () => {
    const registry = new ToolRegistry([noteTool("a-b").tool, noteTool("a_b").tool]);
    await expect(toOpenAIAgentsTools(registry)).rejects.toThrow(
      'Tools "a-b" and "a_b" would both be named "a_b" in OpenAI Agents; rename one',
    );
  });

  test("a Tool without parameters is shown any object, and our validator decides", async () => {
    const tool = defineTool({
      name: "now",
      description: "The time.",
      validate: (input) =>
        Object.keys(input as object).length === 0
          ? { ok: true, value: {} }
          : { ok: false, error: "now takes no arguments" },
      execute: async () => "noon",
    });
    const tools = await toOpenAIAgentsTools(new ToolRegistry([tool]));
    const run = await runAgent("run", tools, [
      call("call-1", {}, "now"),
      call("call-2", { zone: "UTC" }, "now"),
    ]);
    expect(run.calls[0]?.request.tools[0]).toMatchObject({
      parameters: OPENAI_AGENTS_EMPTY_OBJECT_SCHEMA,
    });
    expect(toolOutputs(run.calls[1]?.request)).toEqual([
      { callId: "call-1", text: "noon" },
      {
        callId: "call-2",
        text: '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"now takes no arguments"}}',
      },
    ]);
  });
});
