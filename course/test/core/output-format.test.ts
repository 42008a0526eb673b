/**
 * `format: "json" | "text"`: read once and checked at the three levels,
 * the narrowest wins, `"json"` is the course's text byte for byte, and under
 * `"text"` a string is the content itself while structured output is the
 * standard JSON that `JSON.parse` reads back.
 */
import { describe, expect, test } from "vitest";
import { executeToolCalls } from "../../../src/rounds/index.ts";
import {
  defineTool,
  executeToolCall,
  type OutputFormat,
  serializeToolOutput,
  ToolContractError,
  ToolRegistry,
} from "../../src/index.ts";
import { call, emitting, signal } from "./support/emitting-tool.ts";

const codePoints = (text: string) => [...text].length;

/** A source file with every character a JSON literal would escape. */
const SOURCE = `export const greeting = "hello";\n\tif (a \\ b) { return 'x'; }\r\n// ${"line\n".repeat(3)}`;

async function contentOf(output: unknown, format: OutputFormat | undefined, budget?: number) {
  const registry = new ToolRegistry([emitting(output)]);
  const result = await executeToolCall(registry, call, signal(), {
    ...(format === undefined ? {} : { format }),
    ...(budget === undefined ? {} : { outputBudget: { maxCharacters: budget } }),
  });
  return result.content;
}

describe('"json" is the course, byte for byte', () => {
  test.each([
    ["a source file", SOURCE],
    ["a long string", "a\n".repeat(5_000)],
    ["structured output", { b: "x\ny", a: [1, "\u0001"] }],
  ])("%s: format json alone is the three-argument result", async (_label, output) => {
    const course = await executeToolCall(new ToolRegistry([emitting(output)]), call, signal());
    expect(await contentOf(output, "json")).toBe(course.content);
    const registry = new ToolRegistry([emitting(output, { format: "json" })], { format: "json" });
    expect((await executeToolCall(registry, call, signal())).content).toBe(course.content);
  });

  test("a source file under json is one JSON literal with \\u000a for each line feed", async () => {
    const content = await contentOf(SOURCE, "json", 50_000);
    expect(content.startsWith('"export')).toBe(true);
    expect(content).toContain("\\u000a");
    expect(content).not.toContain("\n");
  });
  test.each([
    ["a budget", { maxCharacters: 50_000 }, undefined],
    ["a budget and format json", { maxCharacters: 50_000 }, "json"],
  ] as const)(
    "structured output under %s keeps the course's \\u escapes, not JSON's short ones",
    async (_label, outputBudget, format) => {
      const output = { text: "line\nnext\ttab\b\f\r", nested: ["\n"] };
      const expected =
        '{"nested":["\\u000a"],"text":"line\\u000anext\\u0009tab\\u0008\\u000c\\u000d"}';
      expect(serializeToolOutput(output)).toEqual({
        ok: true,
        content: expected,
        truncated: false,
      });
      const options = format === undefined ? { outputBudget } : { outputBudget, format };
      expect(serializeToolOutput(output, options)).toEqual({
        ok: true,
        content: expected,
        truncated: false,
      });
      expect(await contentOf(output, format, outputBudget.maxCharacters)).toBe(expected);
    },
  );
});

describe('"text": a top-level string is the content itself', () => {
  test("a 20 KB file under a 50,000-character budget reaches the model exactly as its text", async () => {
    const file = `${SOURCE}${"const value = 'ü😀';\n".repeat(1_000)}`;
    expect(file.length).toBeGreaterThan(20_000);
    expect(await contentOf(file, "text", 50_000)).toBe(file);
  });

  test("quotes, backslashes, tabs and line feeds are written as they are", async () => {
    expect(await contentOf(SOURCE, "text")).toBe(SOURCE);
  });

  test("a lone surrogate becomes U+FFFD, a pair stays", async () => {
    expect(await contentOf("a\ud800b\udc00c😀", "text")).toBe("a\ufffdb\ufffdc😀");
  });

  test.each([
    ["head", (content: string) => content.startsWith("ab")],
    ["tail", (content: string) => content.endsWith("😀")],
    ["head-and-tail", (content: string) => content.startsWith("ab") && content.endsWith("😀")],
  ] as const)(
    "a long string is cut at %s within maxCharacters, with the marker",
    async (truncate, placed) => {
      const text = `ab${"😀".repeat(3_000)}`;
      const registry = new ToolRegistry([emitting(text)], { format: "text", truncate });
      const { content } = await executeToolCall(registry, call, signal(), {
        outputBudget: { maxCharacters: 1_024 },
      });
      expect(codePoints(content)).toBeLessThanOrEqual(1_024);
      expect(codePoints(content)).toBeGreaterThan(1_000);
      expect(content).toMatch(/\[Tool output truncated: \d+ of 6002 characters kept\]/);
      expect(content.includes('"')).toBe(false);
      expect(placed(content)).toBe(true);
      // No half of a pair anywhere: every surrogate in the content is paired.
      expect(content.replace(/😀/g, "")).not.toMatch(/[\ud800-\udfff]/);
    },
  );

  test("with the course's cap (nothing else configured) the content's own cap is the one named", async () => {
    const content = await contentOf("x".repeat(5_000), "text");
    expect(content).toBe(
      `${"x".repeat(4_042)}\n[Tool output truncated: 4042 of 5000 characters kept]`,
    );
    expect(codePoints(content)).toBe(4_096);
  });

  test("a string budget below the cap is named when it cuts", async () => {
    const registry = new ToolRegistry([emitting("y".repeat(3_000))], { format: "text" });
    const { content } = await executeToolCall(registry, call, signal(), {
      outputBudget: { maxCharacters: 4_000, maxStringCharacters: 2_000 },
    });
    expect(content).toBe(
      `${"y".repeat(2_000)}\n[Tool output truncated: 2000 of 3000 characters kept, string characters limit 2000 reached]`,
    );
  });

  test("the spill hook receives the raw text too", async () => {
    const spilled: string[] = [];
    const registry = new ToolRegistry([emitting("line\n".repeat(2_000))], {
      format: "text",
      spill: (text) => {
        spilled.push(text);
        return "ref-1";
      },
    });
    const { content } = await executeToolCall(registry, call, signal());
    expect(spilled).toEqual(["line\n".repeat(2_000)]);
    expect(content.endsWith("characters kept; full output: ref-1]")).toBe(true);
  });
});

describe('"text": structured output is standard JSON', () => {
  const value = { b: 'line\nnext\t"q" \\', a: [1, null, "\u0001\u001f"], c: { "\ud800": "😀" } };

  test("JSON's short escapes, sorted keys, and JSON.parse gives the value back", async () => {
    const content = await contentOf(value, "text");
    expect(content).toBe(
      '{"a":[1,null,"\\u0001\\u001f"],"b":"line\\nnext\\t\\"q\\" \\\\","c":{"\\ud800":"😀"}}',
    );
    expect(JSON.parse(content)).toEqual(JSON.parse(JSON.stringify(value)));
  });

  test("the walk's own placeholders and budgets are unchanged", async () => {
    const output = { f: () => 1, u: undefined, n: Number.NaN, big: 10n };
    expect(await contentOf(output, "text")).toBe(
      '{"big":"10n","f":"[Function]","n":null,"u":"[Undefined]"}',
    );
    const wide = Array.from({ length: 300 }, (_, index) => `v\n${index}`);
    const registry = new ToolRegistry([emitting(wide)], { format: "text" });
    const { content } = await executeToolCall(registry, call, signal(), {
      outputBudget: { maxEntries: 256 },
    });
    expect(content.startsWith('["v\\n0","v\\n1",')).toBe(true);
    expect(content).toMatch(
      /\n\[Tool output truncated: entries limit 256 reached; the array has 300 items\]$/,
    );
  });

  test("an error result under text is standard JSON too", async () => {
    const failing = defineTool({
      name: "emit",
      description: "Throws a message over two lines.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => {
        throw new Error("first line\nsecond line");
      },
    });
    const registry = new ToolRegistry([failing], { format: "text" });
    const result = await executeToolCall(registry, call, signal());
    expect(result.content).toBe(
      '{"error":{"code":"TOOL_EXECUTION_FAILED","message":"first line\\nsecond line"}}',
    );
    expect(result.isError).toBe(true);
  });
});

describe("levels: call, then Tool, then registry; read once each", () => {
  test.each([
    ["registry text", "text", undefined, undefined, "text"],
    ["Tool json over registry text", "text", "json", undefined, "json"],
    ["call text over Tool json", "text", "json", "text", "text"],
    ["call json over registry text", "text", undefined, "json", "json"],
    ["Tool text alone", undefined, "text", undefined, "text"],
  ] as const)("%s", async (_label, registryFormat, toolFormat, callFormat, expected) => {
    const tool = emitting("a\nb", toolFormat === undefined ? {} : { format: toolFormat });
    const registry = new ToolRegistry(
      [tool],
      registryFormat === undefined ? {} : { format: registryFormat },
    );
    const result = await executeToolCall(
      registry,
      call,
      signal(),
      callFormat === undefined ? undefined : { format: callFormat },
    );
    expect(result.content).toBe(expected === "text" ? "a\nb" : '"a\\u000ab"');
  });

  test("a Tool's format is read once, kept on its frozen snapshot, and survives registry.snapshot()", async () => {
    let reads = 0;
    const tool = defineTool({
      name: "emit",
      description: "Returns a line.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => "one\ntwo",
      get format(): OutputFormat {
        reads += 1;
        return "text";
      },
    });
    expect(reads).toBe(1);
    expect(tool.format).toBe("text");
    const registry = new ToolRegistry([tool]).snapshot();
    expect((await executeToolCall(registry, call, signal())).content).toBe("one\ntwo");
    expect(reads).toBe(1);
  });

  test("executeToolCalls passes a round's format to every call", async () => {
    const registry = new ToolRegistry([emitting("a\nb")]);
    const results = await executeToolCalls(registry, [call, { ...call, id: "call-2" }], signal(), {
      format: "text",
    });
    expect(results.map((result) => result.content)).toEqual(["a\nb", "a\nb"]);
  });

  test("serializeToolOutput takes a format too", () => {
    expect(serializeToolOutput("a\nb", { format: "text" })).toEqual({
      ok: true,
      content: "a\nb",
      truncated: false,
    });
    expect(() => serializeToolOutput("x", { format: "yaml" as never })).toThrow(
      new TypeError('serializeToolOutput options: format must be "json" or "text"'),
    );
  });
});

describe("an unknown format is refused where it is given", () => {
  const unknown = ["yaml", "TEXT", "", 1, null, { toString: () => "text" }];

  test.each(unknown)("call: %j is INVALID_TOOL_CALL", async (format) => {
    expect(unknown.length).toBeGreaterThan(0);
    const rejection = executeToolCall(new ToolRegistry([emitting("x")]), call, signal(), {
      format: format as never,
    });
    await expect(rejection).rejects.toMatchObject({
      code: "INVALID_TOOL_CALL",
      message: 'format must be "json" or "text"',
    });
  });

  test.each(unknown)("definition: %j is INVALID_TOOL_DEFINITION", (format) => {
    let error: unknown;
    try {
      emitting("x", { format: format as never });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ToolContractError);
    expect(error).toMatchObject({
      code: "INVALID_TOOL_DEFINITION",
      message: 'Tool definition format must be "json" or "text"',
    });
  });

  test.each(unknown)("registry: %j is a TypeError", (format) => {
    expect(() => new ToolRegistry([], { format: format as never })).toThrow(
      new TypeError('ToolRegistry options: format must be "json" or "text"'),
    );
  });

  test("a round refuses it before any call runs", async () => {
    let runs = 0;
    const tool = defineTool({
      name: "emit",
      description: "Counts its runs.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => {
        runs += 1;
        return "x";
      },
    });
    const rejection = executeToolCalls(new ToolRegistry([tool]), [call], signal(), {
      format: "md" as never,
    });
    await expect(rejection).rejects.toMatchObject({ code: "INVALID_TOOL_CALL" });
    expect(runs).toBe(0);
  });
});
