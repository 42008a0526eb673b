/**
 * A server's `outputSchema` behind the boundary: fromMcpClient lists and
 * calls through the client's `request`, so the SDK's own validator (which
 * compiles every output schema when the Tools are listed, and checks each
 * result, with no budget) never runs; the output schemas are compiled and
 * checked by fromMcpClient, within the same budgets as input schemas.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  type AnyCourseTool,
  executeToolCall,
  ToolContractError,
  ToolRegistry,
} from "../../course/src/index.ts";
import { doubling } from "../../test/support/hostile-schemas.ts";
import { type ListedTool, useScriptedServers } from "../../test/support/mcp-client.ts";
import { countSteps } from "../../test/support/step-counter.ts";
import { fromMcpClient, MAX_CHECK_STEPS, MAX_SCHEMA_COMPILE_COST } from "./index.ts";
import { loadAjv } from "./json-schema-check.ts";

const scripted = useScriptedServers();
const signal = new AbortController().signal;
const ajv = await loadAjv();

afterEach(() => {
  vi.restoreAllMocks();
});

const withOutput = (outputSchema: object): ListedTool => ({
  name: "lookup",
  inputSchema: { type: "object" },
  outputSchema: outputSchema as ListedTool["outputSchema"],
});

async function call(tools: readonly AnyCourseTool[]) {
  const result = await executeToolCall(
    new ToolRegistry(tools),
    { type: "toolCall", id: "c1", name: "lookup", arguments: {} },
    signal,
  );
  return { isError: result.isError, body: JSON.parse(result.content) as unknown };
}

describe("attacks through an output schema", () => {
  test("a $ref chain doubling 60 times against {x: 1} fails the call at the step bound", async () => {
    // The SDK's own validator would apply the last definition 2^60 times: the process hangs.
    const sdkValidators = vi.spyOn(AjvJsonSchemaValidator.prototype, "getValidator");
    const steps = countSteps([ajv.draft2020]);
    const { client } = await scripted([withOutput(doubling(60))], async () => ({
      content: [],
      structuredContent: { x: 1 },
    }));
    const { tools } = await fromMcpClient(client);
    // At definition each schema's code runs once on null, a step or two in all.
    const atDefinition = steps();
    expect(atDefinition).toBeLessThanOrEqual(2);
    expect(await call(tools)).toEqual({
      isError: true,
      body: {
        error: {
          code: "TOOL_EXECUTION_FAILED",
          message: `the server's structured content takes too long to check against the Tool's output schema (the check applies the schema's objects over ${MAX_CHECK_STEPS} times)`,
        },
      },
    });
    // One step for the arguments' check ({ type: "object" }), then the output's to the bound.
    expect(steps() - atDefinition).toBe(1 + MAX_CHECK_STEPS + 1);
    expect(sdkValidators).not.toHaveBeenCalled();
  });

  test(`an output schema over ${MAX_SCHEMA_COMPILE_COST / 10} objects refuses the listing before Ajv reads it`, async () => {
    const compiles = vi.spyOn(ajv.draft2020.prototype, "compile");
    const properties = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, index) => [`p${index}`, { type: "string" }]),
    );
    const { client } = await scripted([withOutput({ type: "object", properties })]);
    const refused = fromMcpClient(client);
    await expect(refused).rejects.toThrow(ToolContractError);
    await expect(refused).rejects.toThrow(
      `fromMcpClient: Tool "lookup": its outputSchema cannot be checked: the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile`,
    );
    // The input schema was compiled; the output schema never reached Ajv.
    expect(compiles).toHaveBeenCalledTimes(1);
  });

  test("an output schema over maxSchemaCharacters refuses the listing", async () => {
    const { client } = await scripted([
      withOutput({ type: "object", description: "x".repeat(2_000) }),
    ]);
    await expect(fromMcpClient(client, { maxSchemaCharacters: 1_000 })).rejects.toThrow(
      /^fromMcpClient: Tool "lookup": its outputSchema has 20\d\d characters, over maxSchemaCharacters \(1000\)$/,
    );
  });
});

describe("what a declared output schema asks of a result", () => {
  test("structured content that fits is the output", async () => {
    const { client } = await scripted(
      [withOutput({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] })],
      async () => ({ content: [], structuredContent: { sum: 42 } }),
    );
    const { tools } = await fromMcpClient(client);
    expect(await call(tools)).toEqual({ isError: false, body: { sum: 42 } });
  });

  test.each([
    [
      "content that does not fit",
      { content: [], structuredContent: { sum: "42" } },
      "the server's structured content does not match the Tool's output schema: structuredContent/sum must be number",
    ],
    [
      "no structured content",
      { content: [{ type: "text" as const, text: "42" }] },
      "the server returned no structured content, though the Tool declares an output schema",
    ],
  ])("%s fails the call", async (_what, result, message) => {
    const { client } = await scripted(
      [withOutput({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] })],
      async () => result,
    );
    const { tools } = await fromMcpClient(client);
    expect(await call(tools)).toEqual({
      isError: true,
      body: { error: { code: "TOOL_EXECUTION_FAILED", message } },
    });
  });

  test("an error result is the server's error, whatever its structured content", async () => {
    const { client } = await scripted(
      [withOutput({ type: "object", required: ["sum"] })],
      async () => ({ isError: true, content: [{ type: "text", text: "no such name" }] }),
    );
    const { tools } = await fromMcpClient(client);
    const answer = await call(tools);
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.body)).toContain("no such name");
  });
});
