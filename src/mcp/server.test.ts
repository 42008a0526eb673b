/**
 * The MCP bridge in one process: the official SDK Client talks to the bridge
 * over the SDK's in-memory transport.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  type CourseToolValidation,
  defineTool,
  NonRecoverableToolError,
  ToolRegistry,
} from "../../course/src/index.ts";
import examples from "../../examples/tools.ts";
import { type McpBridgeOptions, serveToolRegistry } from "./index.ts";

/** Counts what a Tool was asked to do, so a test can prove an effect did or did not happen. */
function countingTools() {
  const counts = { executions: 0, started: 0, aborts: 0 };
  let onStarted = (): void => {};
  const started = (): Promise<void> =>
    new Promise((resolve) => {
      onStarted = resolve;
    });
  const accept = (input: unknown): CourseToolValidation<{ n: number }> =>
    typeof input === "object" && input !== null && typeof (input as { n?: unknown }).n === "number"
      ? { ok: true, value: { n: (input as { n: number }).n } }
      : { ok: false, error: "n must be a number" };
  const double = defineTool({
    name: "double",
    description: "Double a number (counts its executions).",
    parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    validate: accept,
    execute: async ({ n }) => {
      counts.executions += 1;
      return { doubled: n * 2 };
    },
  });
  const hang = defineTool({
    name: "hang",
    description: "Wait until cancelled (counts the aborts it sees).",
    validate: () => ({ ok: true, value: {} }),
    execute: (_input, { signal }) =>
      new Promise<never>((_resolve, reject) => {
        counts.started += 1;
        signal.addEventListener("abort", () => {
          counts.aborts += 1;
          reject(signal.reason);
        });
        onStarted();
      }),
  });
  const fatal = defineTool({
    name: "fatal",
    description: "Break an invariant.",
    validate: () => ({ ok: true, value: {} }),
    execute: async () => {
      throw new NonRecoverableToolError("ledger is inconsistent");
    },
  });
  return { counts, started, tools: [...examples, double, hang, fatal] };
}

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

async function connect(registry: ToolRegistry, options: McpBridgeOptions = {}) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const logged: string[] = [];
  await serveToolRegistry(registry, serverSide, { log: (line) => logged.push(line), ...options });
  const client = new Client({ name: "bridge-test", version: "1.0.0" });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(clientSide);
  open.push(client);
  return { client, logged, clientErrors };
}

/** The text of a result's only content block (the bridge always writes exactly one). */
function text(result: Record<string, unknown>): string {
  const content = result.content as [{ type: string; text: string }];
  expect(content).toHaveLength(1);
  return content[0].text;
}

describe("tools/list", () => {
  test("lists every Tool in order with its parameters, or the empty-object schema", async () => {
    const { tools } = countingTools();
    const { client } = await connect(new ToolRegistry(tools));
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    expect(listed[0]).toEqual({
      name: "add",
      description: "Add two numbers and return their sum.",
      inputSchema: examples[0]?.parameters,
    });
    expect(listed.find((tool) => tool.name === "hang")?.inputSchema).toEqual({
      type: "object",
      properties: {},
    });
  });

  test("serves a snapshot: a Tool registered after serving is not listed", async () => {
    const registry = new ToolRegistry(examples);
    const { client } = await connect(registry);
    registry.register(countingTools().tools[5] as (typeof examples)[number]);
    expect((await client.listTools()).tools).toHaveLength(examples.length);
    const late = await client.callTool({ name: "double", arguments: { n: 1 } });
    expect(late.isError).toBe(true);
  });
});

describe("tools/call", () => {
  test("a valid call returns the Tool's content as one text block", async () => {
    const { client } = await connect(new ToolRegistry(examples));
    const result = await client.callTool({ name: "add", arguments: { left: 20, right: 22 } });
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":42}' }], isError: false });
  });

  test("rejected arguments are an isError result and the Tool never runs", async () => {
    const { counts, tools } = countingTools();
    const { client } = await connect(new ToolRegistry(tools));
    const result = await client.callTool({ name: "double", arguments: { n: "twenty" } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "n must be a number" },
    });
    expect(counts.executions).toBe(0);
  });

  test("arguments nested 300 deep are an isError result, not a crash, and run nothing", async () => {
    const { counts, tools } = countingTools();
    const { client } = await connect(new ToolRegistry(tools));
    let deep: Record<string, unknown> = { n: 1 };
    for (let level = 0; level < 300; level += 1) deep = { inner: deep };
    const result = await client.callTool({ name: "double", arguments: { n: 1, deep } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result)).error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(counts.executions).toBe(0);
  });

  test("an unknown Tool is an isError result naming it", async () => {
    const { client } = await connect(new ToolRegistry(examples));
    const result = await client.callTool({ name: "delete_everything", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toEqual({
      error: { code: "TOOL_NOT_FOUND", message: 'Unknown Tool "delete_everything"' },
    });
  });

  test("a huge output is truncated to the cap with one marker", async () => {
    const { client } = await connect(new ToolRegistry(examples));
    const result = await client.callTool({
      name: "repeat",
      arguments: { text: "all work ", times: 1_000_000 },
    });
    expect(result.isError).toBe(false);
    const content = text(result);
    expect([...content]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    // The bridge's default format is text: the string itself, and a marker saying what was kept.
    expect(content.startsWith("all work all work")).toBe(true);
    expect(content).toMatch(/\n\[Tool output truncated: \d+ of 9000000 characters kept\]$/);
    expect(content.split("[Tool output truncated")).toHaveLength(2);
  });

  test("per-call options apply: a denying approval gate keeps the Tool from running", async () => {
    const { counts, tools } = countingTools();
    const approve = vi.fn(() => false);
    const { client } = await connect(new ToolRegistry(tools), { callOptions: { approve } });
    const result = await client.callTool({ name: "double", arguments: { n: 2 } });
    expect(JSON.parse(text(result)).error.code).toBe("TOOL_APPROVAL_DENIED");
    expect(approve).toHaveBeenCalledTimes(1);
    expect(counts.executions).toBe(0);
  });
});

describe("cancellation", () => {
  test("a cancelled request aborts the Tool's signal once and is never answered", async () => {
    const { counts, started, tools } = countingTools();
    const { client, logged, clientErrors } = await connect(new ToolRegistry(tools));
    const controller = new AbortController();
    const running = started();
    const pending = client.callTool({ name: "hang", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await running;
    controller.abort(new Error("the user pressed stop"));
    await expect(pending).rejects.toThrow("the user pressed stop");
    // A later call's answer arrives after anything the server sent for the cancelled one.
    await client.callTool({ name: "add", arguments: { left: 1, right: 1 } });
    expect(counts).toMatchObject({ started: 1, aborts: 1 });
    expect(clientErrors).toEqual([]);
    expect(logged).toEqual([]);
  });
});

describe("NonRecoverableToolError", () => {
  test("becomes a JSON-RPC internal error and one log line", async () => {
    const { tools } = countingTools();
    const { client, logged } = await connect(new ToolRegistry(tools));
    const failure = client.callTool({ name: "fatal", arguments: {} });
    await expect(failure).rejects.toBeInstanceOf(McpError);
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.InternalError });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/Tool "fatal" .*NonRecoverableToolError: ledger is inconsistent/);
  });

  test("is logged to standard error by default, never to standard output", async () => {
    const { tools } = countingTools();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, "write");
    try {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await serveToolRegistry(new ToolRegistry(tools), serverSide);
      const client = new Client({ name: "bridge-test", version: "1.0.0" });
      await client.connect(clientSide);
      open.push(client);
      await expect(client.callTool({ name: "fatal", arguments: {} })).rejects.toThrow(
        "ledger is inconsistent",
      );
      const lines = stderr.mock.calls.map(([chunk]) => String(chunk));
      expect(lines.filter((line) => line.includes("ledger is inconsistent"))).toHaveLength(1);
      expect(stdout).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
    }
  });
});
