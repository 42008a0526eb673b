/**
 * Output budgets through the Pi bridge, both ways: `toPiTools` hands Pi the
 * content bounded by the call options, the registry's options and a Tool's
 * own fields, as text (the bridge's default format); a Pi Tool wrapped by
 * `fromPiTool` is bounded like any Tool of ours, a raised budget letting its
 * whole text through.
 */
import { Type } from "typebox";
import { describe, expect, test } from "vitest";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  type ToolCallOptions,
  ToolContractError,
  ToolRegistry,
  type ToolRegistryOptions,
  type TruncateStrategy,
} from "../../course/src/index.ts";
import { fromPiTool, type PiBridgedTool, PiToolResultError, toPiTools } from "./index.ts";

const LINES = 5_000;
/** A long log whose lines all differ, so its head and its tail can be told apart. */
const LOG = Array.from({ length: LINES }, (_, index) => `line ${index + 1}`).join("\n");
const LAST_LINE = `line ${LINES}`;
const TWENTY_KB = "0123456789".repeat(2_000);

const accept = () => ({ ok: true as const, value: {} });

function ourTools(logTruncate?: TruncateStrategy) {
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

/** What Pi's agent loop reads from a bridged Tool: the text of its one block. */
async function piSees(
  name: string,
  options: {
    readonly registry?: ToolRegistryOptions;
    readonly call?: ToolCallOptions;
    readonly logTruncate?: TruncateStrategy;
  } = {},
): Promise<string> {
  const registry = new ToolRegistry(ourTools(options.logTruncate), options.registry);
  const tool = toPiTools(registry, options.call).find((bridged) => bridged.name === name);
  const result = await (tool as PiBridgedTool<CourseToolResultMessage>).execute("call-1", {});
  expect(result.content).toHaveLength(1);
  const [block] = result.content as [{ type: "text"; text: string }];
  // Pi's text and our result's content are the same string.
  expect(block.text).toBe(result.details.content);
  return block.text;
}

/** A cut text fills its cap, to within the one character a marker's longer count may need. */
function expectFilled(text: string, cap: number): void {
  expect([...text].length).toBeLessThanOrEqual(cap);
  expect([...text].length).toBeGreaterThan(cap - 2);
}

describe("toPiTools: what Pi sees", () => {
  test("without settings, a 20 KB output is cut at the course's cap, as text, saying what was kept", async () => {
    const text = await piSees("big");
    expect([...text]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text).toMatch(
      /^0123456789.*\n\[Tool output truncated: 4041 of 20000 characters kept\]$/s,
    );
  });

  test('callOptions format "json": the course\'s result, byte for byte', async () => {
    const text = await piSees("big", { call: { format: "json" } });
    expect(text.startsWith('"0123456789')).toBe(true);
    expect(text.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(true);
  });

  test("callOptions outputBudget 50,000: a 20 KB output reaches Pi whole, as its text", async () => {
    const text = await piSees("big", { call: { outputBudget: { maxCharacters: 50_000 } } });
    expect(text === TWENTY_KB).toBe(true);
  });

  test("callOptions truncate tail: Pi sees the log's tail, the marker first", async () => {
    const text = await piSees("log", { call: { truncate: "tail" } });
    expectFilled(text, COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect(text).toMatch(/^\[Tool output truncated: \d+ of 48892 characters kept\]\n/);
    expect(text.endsWith(LAST_LINE)).toBe(true);
  });

  test("the registry's own options survive toPiTools' snapshot and apply", async () => {
    const text = await piSees("log", {
      registry: { outputBudget: { maxCharacters: 20_000 }, truncate: "tail" },
    });
    expectFilled(text, 20_000);
    expect(text.startsWith("[Tool output truncated: ")).toBe(true);
    expect(text.endsWith(LAST_LINE)).toBe(true);
  });

  test("a Tool's own truncate field applies, and callOptions win over it", async () => {
    const own = await piSees("log", { logTruncate: "head-and-tail" });
    expect(own.startsWith("line 1\n")).toBe(true);
    expect(own.endsWith(LAST_LINE)).toBe(true);
    const overridden = await piSees("log", {
      logTruncate: "head-and-tail",
      call: { truncate: "head" },
    });
    expect(overridden.startsWith("line 1\n")).toBe(true);
    expect(overridden.endsWith(COURSE_TOOL_TRUNCATION_MARKER)).toBe(false);
    expect(overridden).toMatch(/\n\[Tool output truncated: \d+ of 48892 characters kept\]$/);
  });

  test("an error result is bounded by the same settings and thrown with that text", async () => {
    const failing = defineTool({
      name: "fail",
      description: "Fail with a long message.",
      validate: accept,
      execute: async () => {
        throw new Error(`boom ${"!".repeat(10_000)}`);
      },
    });
    const [bridged] = toPiTools(new ToolRegistry([failing]), {
      outputBudget: { maxCharacters: 50_000 },
    });
    const thrown = await (bridged as PiBridgedTool).execute("call-1", {}).catch((error) => error);
    expect(thrown).toBeInstanceOf(PiToolResultError);
    expect(JSON.parse((thrown as PiToolResultError).message).error.message).toHaveLength(10_005);
  });

  test.each([
    ["a budget below the floor", { outputBudget: { maxCharacters: 1_000 } }, "from 1024 to"],
    ["a misspelt budget field", { outputBudget: { maxChars: 50_000 } }, "unknown field"],
    ["an unknown strategy", { truncate: "end" }, 'truncate must be "head"'],
  ])("%s is refused by toPiTools itself, before Pi runs anything", (_label, call, rule) => {
    const bridge = () => toPiTools(new ToolRegistry(ourTools()), call as ToolCallOptions);
    expect(bridge).toThrow(ToolContractError);
    expect(bridge).toThrow(rule);
  });
});

describe("fromPiTool: a Pi Tool's text under our budgets", () => {
  /** A Pi Tool printing the long log as one text block. */
  const piLog = () =>
    fromPiTool({
      name: "pi_log",
      label: "Log",
      description: "Print a long log.",
      parameters: Type.Object({}),
      execute: async () => ({ content: [{ type: "text", text: LOG }], details: {} }),
    });
  const call: CourseToolCall = { type: "toolCall", id: "c1", name: "pi_log", arguments: {} };
  const run = (registry: ToolRegistry, options?: ToolCallOptions) =>
    executeToolCall(registry, call, new AbortController().signal, options);

  test("a raised budget lets the whole text through (nothing cuts it before the serializer)", async () => {
    const result = await run(new ToolRegistry([piLog()]), {
      outputBudget: { maxCharacters: 100_000 },
    });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toBe(LOG);
  });

  test("a tail strategy keeps the real end of the Pi Tool's text", async () => {
    const result = await run(new ToolRegistry([piLog()], { truncate: "tail" }));
    expect(result.content).toMatch(/^\[Tool output truncated: \d+ of 48892 characters kept\]\n/);
    expect(result.content.endsWith(`${LAST_LINE}"`)).toBe(true);
  });

  test("definition fields can be added to the wrapped Tool like to any other", async () => {
    const registry = new ToolRegistry([{ ...piLog(), truncate: "tail", format: "text" }]);
    const result = await run(registry);
    expect(result.content.endsWith(`\n${LAST_LINE}`)).toBe(true);
  });
});
