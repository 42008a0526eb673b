/**
 * Output budgets through the MCP bridge: call options, registry options and
 * a Tool's own fields reach every `tools/call`, and the text a client
 * receives is exactly the bounded result content (as text, the bridge's
 * default format). The official SDK Client talks to the bridge over the
 * SDK's in-memory transport.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, test } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  defineTool,
  type OutputSpillInfo,
  type ToolCallOptions,
  ToolContractError,
  ToolRegistry,
  type ToolRegistryOptions,
  type TruncateStrategy,
} from "../../course/src/index.ts";
import { createMcpToolServer, serveToolRegistry } from "./index.ts";

const LINES = 8_000;
/** A long log whose every line is different, so head and tail can be told apart. */
const LOG = Array.from({ length: LINES }, (_, index) => `line ${index + 1}`).join("\n");
/** 20,000 characters of plain text. */
const TWENTY_KB = "0123456789".repeat(2_000);

const accept = () => ({ ok: true as const, value: {} });

function tools(logTruncate?: TruncateStrategy) {
  return [
    defineTool({
      name: "log",
      description: "Print a long log.",
      validate: accept,
      execute: async () => LOG,
      ...(logTruncate === undefined ? {} : { truncate: logTruncate }),
    }),
    defineTool({
      name: "big",
      description: "Return 20 KB of text.",
      validate: accept,
      execute: async () => TWENTY_KB,
    }),
  ];
}

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

async function callText(
  registry: ToolRegistry,
  name: string,
  callOptions?: ToolCallOptions,
): Promise<string> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serveToolRegistry(registry, serverSide, callOptions === undefined ? {} : { callOptions });
  const client = new Client({ name: "budget-test", version: "1.0.0" });
  await client.connect(clientSide);
  open.push(client);
  const result = await client.callTool({ name, arguments: {} });
  expect(result.isError).toBe(false);
  const content = result.content as [{ type: "text"; text: string }];
  expect(content).toHaveLength(1);
  return content[0].text;
}

/** A cut log fills its cap, to within the one character a marker's longer count may need. */
function expectFilled(text: string, cap: number): void {
  const length = [...text].length;
  expect(length).toBeLessThanOrEqual(cap);
  expect(length).toBeGreaterThan(cap - 2);
}

const registry = (options?: ToolRegistryOptions, logTruncate?: TruncateStrategy) =>
  new ToolRegistry(tools(logTruncate), options);

describe("output settings reach every tools/call", () => {
  test("without any, a 20 KB output is cut to the course's cap, as text, with a marker saying what was kept", async () => {
    const text = await callText(registry(), "big");
    expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text.startsWith("0123456789")).toBe(true);
    expect(text.endsWith("\n[Tool output truncated: 4041 of 20000 characters kept]")).toBe(true);
  });

  test('callOptions format "json": the course\'s result, byte for byte', async () => {
    const text = await callText(registry(), "big", { format: "json" });
    expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text.startsWith('"0123456789')).toBe(true);
    expect(text.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
  });

  test("a registry's own format \"json\" wins over the bridge's default", async () => {
    const text = await callText(registry({ format: "json" }), "log", {
      outputBudget: { maxCharacters: 50_000 },
    });
    expect(text.startsWith('"line 1\\u000aline 2')).toBe(true);
  });

  test("callOptions outputBudget 50,000: a 20 KB output arrives whole, exactly its text", async () => {
    const text = await callText(registry(), "big", { outputBudget: { maxCharacters: 50_000 } });
    expect(text).toBe(TWENTY_KB);
  });

  test("callOptions truncate tail: a long log arrives as its tail, the marker first", async () => {
    const text = await callText(registry(), "log", { truncate: "tail" });
    expectFilled(text, COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text).toMatch(/^\[Tool output truncated: \d+ of \d+ characters kept\]\n/);
    expect(text.endsWith(`line ${LINES}`)).toBe(true);
    expect(text).not.toContain("line 1\n");
  });

  test("registry options, a spill hook included, apply when the server is given no callOptions", async () => {
    const spilled: string[] = [];
    const text = await callText(
      registry({
        outputBudget: { maxCharacters: 50_000 },
        truncate: "tail",
        spill: (full) => {
          spilled.push(full);
          return "artifact-7";
        },
      }),
      "log",
    );
    expectFilled(text, 50_000);
    expect(text).toMatch(/^\[Tool output truncated: [^\]]*; full output: artifact-7\]\n/);
    expect(text.endsWith(`line ${LINES}`)).toBe(true);
    expect(spilled).toEqual([LOG]);
  });

  test("a Tool's own truncate field applies: head and tail, the marker between them", async () => {
    const text = await callText(registry(undefined, "head-and-tail"), "log");
    expect(text.startsWith("line 1\nline 2")).toBe(true);
    expect(text.endsWith(`line ${LINES}`)).toBe(true);
    expect(text).toMatch(/\n\[Tool output truncated: \d+ of \d+ characters kept\]\n/);
  });

  test("callOptions win field by field: the budget is the call's, the strategy the registry's", async () => {
    const text = await callText(
      registry({ outputBudget: { maxCharacters: 2_000 }, truncate: "tail" }),
      "log",
      { outputBudget: { maxCharacters: 10_000 } },
    );
    expectFilled(text, 10_000);
    expect(text.startsWith("[Tool output truncated: ")).toBe(true);
  });

  test("a spill hook in callOptions gets the full output once and the marker names it", async () => {
    const spilled: [string, OutputSpillInfo][] = [];
    const text = await callText(registry(), "log", {
      truncate: "tail",
      spill: (full, info) => {
        spilled.push([full, info]);
        return "/tmp/spill/log.txt";
      },
    });
    expect(spilled).toHaveLength(1);
    const [full, info] = spilled[0] as [string, OutputSpillInfo];
    expect(full).toBe(LOG);
    expect(info).toEqual({
      toolCallId: expect.stringMatching(/^mcp-\d+$/),
      toolName: "log",
      limit: "characters",
      truncated: false,
    });
    expect(text).toMatch(
      /^\[Tool output truncated: [^\]]*; full output: \/tmp\/spill\/log\.txt\]\n/,
    );
  });
});

describe("invalid callOptions", () => {
  test.each([
    [
      "a budget below the floor",
      { outputBudget: { maxCharacters: 1_023 } },
      "outputBudget.maxCharacters must be an integer from 1024 to 10000000",
    ],
    [
      "a budget above the ceiling",
      { outputBudget: { maxCharacters: 10_000_001 } },
      "outputBudget.maxCharacters must be an integer from 1024 to 10000000",
    ],
    [
      "a misspelt budget field",
      { outputBudget: { maxChars: 50_000 } },
      'outputBudget has an unknown field "maxChars"',
    ],
    ["an unknown strategy", { truncate: "middle" }, 'truncate must be "head", "tail" or'],
    ["a spill hook that is not a function", { spill: "/tmp" }, "spill must be a function"],
  ])("%s is refused when the server is created, naming the field", (_label, callOptions, rule) => {
    const create = () =>
      createMcpToolServer(registry(), { callOptions: callOptions as unknown as ToolCallOptions });
    expect(create).toThrow(ToolContractError);
    expect(create).toThrow(rule);
  });

  test("the boundary values themselves are accepted", () => {
    for (const maxCharacters of [1_024, 10_000_000]) {
      expect(() =>
        createMcpToolServer(registry(), { callOptions: { outputBudget: { maxCharacters } } }),
      ).not.toThrow();
    }
  });
});
