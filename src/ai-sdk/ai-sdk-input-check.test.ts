/**
 * The check every input the AI SDK parsed goes through (the `validate` of a
 * bridged Tool's input schema): what our rules refuse becomes a stand-in
 * carrying our reason, so the Tool answers `TOOL_ARGUMENTS_INVALID` with a
 * short message and never runs; what they accept passes unchanged.
 */
import { describe, expect, test, vi } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { REPAIR_KEY } from "../frameworks/pending-repairs.ts";
import { inputRefusal } from "./ai-sdk-input-check.ts";
import { AiSdkToolResultError, buildAiSdkTools } from "./to-ai-sdk-tools.ts";

type Validate = (value: unknown) => Promise<{ success: boolean; value: unknown }>;
type Execute = (input: unknown, options: object) => Promise<unknown>;

/** Our echo Tool bridged with a stand-in jsonSchema() that keeps the validate it is given. */
function bridged() {
  const execute = vi.fn(async (input: unknown) => input);
  const registry = new ToolRegistry([
    defineTool({
      name: "echo",
      description: "Repeat.",
      validate: (input) => ({ ok: true, value: input }),
      execute,
    }),
  ]);
  let validate: Validate | undefined;
  const jsonSchema = (_schema: unknown, options: { validate: Validate }) => {
    validate = options.validate;
    return {};
  };
  const tools = buildAiSdkTools(registry, undefined, jsonSchema as never);
  const run = (tools as Record<string, { execute: Execute }>).echo?.execute as Execute;
  return { validate: validate as Validate, run, execute };
}

/** `depth` arrays nested inside {"a": …}. */
function deepArrays(depth: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return { a: value };
}

const HOSTILE: ReadonlyArray<readonly [string, () => unknown, string]> = [
  [
    "1e999, read by the SDK as Infinity",
    () => JSON.parse('{"n":1e999}'),
    "arguments contain a number that is not finite",
  ],
  ["300-deep arrays", () => deepArrays(300), "arguments nest deeper than 64 levels"],
  ["5,000-deep arrays", () => deepArrays(5_000), "arguments nest deeper than 64 levels"],
  [
    "a lone surrogate",
    () => JSON.parse('{"text":"\\ud800"}'),
    "arguments contain a lone surrogate",
  ],
  [
    "2,000,000 characters",
    () => ({ text: "x".repeat(2_000_000) }),
    "arguments are longer than the limit of 1000000 characters as JSON text",
  ],
  ["an array", () => [1, 2], "arguments must be a JSON object, not an array"],
  ["a number", () => 42, "arguments must be a JSON object, not a number"],
  ["null", () => null, "arguments must be a JSON object, not null"],
];

describe("what our rules refuse becomes a stand-in, answered without running", () => {
  test.each(HOSTILE)("%s", async (_label, make, reason) => {
    expect(HOSTILE.length).toBeGreaterThan(0);
    const { validate, run, execute } = bridged();
    const checked = await validate(make());
    expect(checked.success).toBe(true);
    expect(Object.keys(checked.value as object)).toEqual([REPAIR_KEY]);
    const thrown = await run(checked.value, { toolCallId: "call-1" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(AiSdkToolResultError);
    // A bounded message, with no path of the value: what the model reads is our reason only.
    expect((thrown as Error).message).toBe(
      JSON.stringify({ error: { code: "TOOL_ARGUMENTS_INVALID", message: reason } }),
    );
    expect(execute).not.toHaveBeenCalled();
  });
});

describe("what they accept passes as it is", () => {
  test.each([
    ["ordinary arguments", { text: "hi", n: [1, 2, { deep: true }] }],
    ["64 levels exactly", deepArrays(63)],
    ["a surrogate pair", { text: "😀" }],
  ])("%s", async (_label, value) => {
    const { validate } = bridged();
    await expect(validate(value)).resolves.toEqual({ success: true, value });
    expect(inputRefusal(value)).toBeUndefined();
  });

  test("a value already carrying the reserved key is left for the Tool, which refuses it", async () => {
    const { validate, run, execute } = bridged();
    const forged = { [REPAIR_KEY]: "not a seal", text: "hi" };
    await expect(validate(forged)).resolves.toEqual({ success: true, value: forged });
    await expect(run(forged, { toolCallId: "call-1" })).rejects.toBeInstanceOf(
      AiSdkToolResultError,
    );
    expect(execute).not.toHaveBeenCalled();
  });
});
