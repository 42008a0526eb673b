/**
 * A `toolContent` value through the boundary: the result message's `content`
 * (text parts and one line per binary part) and `parts`, the part budgets at
 * their edges, a line for every part that is refused or over budget, and a
 * look-alike that is only ever data.
 */
import { describe, expect, test } from "vitest";
import { executeToolCalls } from "../../../src/rounds/index.ts";
import { PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../../../test/support/parts.ts";
import { PART_LINE_MAX } from "../../src/content-render.ts";
import {
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  type OutputBudget,
  PART_BUDGET_DEFAULTS,
  ToolRegistry,
  toolContent,
} from "../../src/index.ts";
import { call, emitting, signal } from "./support/emitting-tool.ts";

const codePoints = (text: string) => [...text].length;

/** A PNG of exactly `size` bytes: the real signature, then zeros (only the signature is checked). */
function pngOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_1X1.subarray(0, Math.min(size, 16)));
  return bytes;
}

async function run(output: unknown, outputBudget?: OutputBudget): Promise<CourseToolResultMessage> {
  const registry = new ToolRegistry([emitting(output)]);
  return executeToolCall(
    registry,
    call,
    signal(),
    outputBudget === undefined ? undefined : { outputBudget },
  );
}

function deepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

describe("the result message", () => {
  test("a 1x1 PNG with text: content for every reader, parts in order, frozen, parts last", async () => {
    const result = await run(
      toolContent([
        { type: "text", text: "The chart:" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
        { type: "text", text: "Done." },
      ]),
    );
    expect(Object.keys(result)).toEqual([
      "id",
      "role",
      "toolCallId",
      "toolName",
      "content",
      "isError",
      "parts",
    ]);
    expect(result).toEqual({
      id: "tool-result-call-1",
      role: "toolResult",
      toolCallId: "call-1",
      toolName: "emit",
      content: "The chart:\n[image: image/png, 70 bytes]\nDone.",
      isError: false,
      parts: [
        { type: "text", text: "The chart:" },
        { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
        { type: "text", text: "Done." },
      ],
    });
    expect(deepFrozen(result)).toBe(true);
  });

  test("text parts only: the course's six fields, the text joined by line feeds", async () => {
    const result = await run(
      toolContent([
        { type: "text", text: "a" },
        { type: "text", text: "b\nc" },
      ]),
    );
    expect(Object.keys(result)).toEqual([
      "id",
      "role",
      "toolCallId",
      "toolName",
      "content",
      "isError",
    ]);
    expect(result.content).toBe("a\nb\nc");
  });

  test("a text part is written as it is, whatever the format, a lone surrogate as U+FFFD", async () => {
    const registry = new ToolRegistry([
      emitting(toolContent([{ type: "text", text: 'say "hi"\n\ud800' }])),
    ]);
    for (const format of ["json", "text"] as const) {
      const result = await executeToolCall(registry, call, signal(), { format });
      expect(result.content).toBe('say "hi"\n\ufffd');
    }
  });

  test("a file names itself in its line and in its part", async () => {
    const data = SIGNED_SAMPLES["application/pdf"] as Uint8Array;
    const result = await run(
      toolContent([{ type: "file", data, mimeType: "application/pdf", name: "report.pdf" }]),
    );
    expect(result.content).toBe(`[file: report.pdf, application/pdf, ${data.length} bytes]`);
    expect(result.parts?.[0]).toMatchObject({
      type: "file",
      mimeType: "application/pdf",
      name: "report.pdf",
    });
  });

  test("every binary part refused: a line each, and no parts field", async () => {
    const result = await run(
      toolContent([
        { type: "image", data: PNG_1X1, mimeType: "image/jpeg" },
        { type: "audio", data: "abc", mimeType: "audio/wav" },
      ]),
    );
    expect(result.content).toBe(
      "[image omitted: declared image/jpeg, but the bytes are image/png]\n" +
        "[audio omitted: its base64 data is invalid: its length, 3, is not a multiple of 4]",
    );
    expect("parts" in result).toBe(false);
  });

  test("a lying MIME type leaves a line saying why, in content and among the parts", async () => {
    const result = await run(
      toolContent([
        { type: "image", data: SIGNED_SAMPLES["image/gif"] as Uint8Array, mimeType: "image/png" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
      ]),
    );
    const line = "[image omitted: declared image/png, but the bytes are image/gif]";
    expect(result.content.split("\n")[0]).toBe(line);
    expect(result.parts?.[0]).toEqual({ type: "text", text: line });
    expect(result.parts?.[1]).toMatchObject({ type: "image" });
  });

  test("error results never carry parts", async () => {
    const throwing = defineTool({
      name: "emit",
      description: "Builds content, then throws.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => {
        toolContent([{ type: "image", data: PNG_1X1, mimeType: "image/png" }]);
        throw new Error("disk full");
      },
    });
    const result = await executeToolCall(new ToolRegistry([throwing]), call, signal());
    expect(result.isError).toBe(true);
    expect("parts" in result).toBe(false);
  });

  test("the same value returned twice gives the same result", async () => {
    const value = toolContent([{ type: "image", data: PNG_1X1, mimeType: "image/png" }]);
    expect(await run(value)).toEqual(await run(value));
  });
});

describe("part budgets, at their edges", () => {
  test("the defaults are the documented ones", () => {
    expect(PART_BUDGET_DEFAULTS).toEqual({
      maxParts: 20,
      maxPartBytes: 5_242_880,
      maxTotalBytes: 20_971_520,
    });
  });

  test("an image over the default part limit leaves the line the issue names", async () => {
    const result = await run(
      toolContent([{ type: "image", data: pngOf(7_340_032), mimeType: "image/png" }]),
    );
    expect(result.content).toBe("[image omitted: 7340032 bytes, over the 5242880-byte part limit]");
  });

  test.each([
    ["exactly maxPartBytes", 100, true],
    ["one byte over maxPartBytes", 101, false],
  ])("%s", async (_label, size, kept) => {
    const result = await run(
      toolContent([{ type: "image", data: pngOf(size), mimeType: "image/png" }]),
      {
        maxPartBytes: 100,
      },
    );
    expect(result.content).toBe(
      kept
        ? "[image: image/png, 100 bytes]"
        : "[image omitted: 101 bytes, over the 100-byte part limit]",
    );
    expect(result.parts !== undefined).toBe(kept);
  });

  test.each([
    ["exactly maxTotalBytes", 50, true],
    ["one byte over maxTotalBytes", 51, false],
  ])("%s", async (_label, second, kept) => {
    const result = await run(
      toolContent([
        { type: "image", data: pngOf(150), mimeType: "image/png" },
        { type: "image", data: pngOf(second), mimeType: "image/png" },
        { type: "image", data: pngOf(16), mimeType: "image/png" },
      ]),
      { maxTotalBytes: 200 },
    );
    const lines = result.content.split("\n");
    expect(lines[1]).toBe(
      kept
        ? "[image: image/png, 50 bytes]"
        : "[image omitted: 51 bytes, over the 200-byte total limit]",
    );
    // A part left out spends nothing: the next one is weighed against what is left.
    expect(lines[2]).toBe(
      kept
        ? "[image omitted: 16 bytes, over the 200-byte total limit]"
        : "[image: image/png, 16 bytes]",
    );
  });

  test("maxParts counts text and binary parts; the rest are left out with one line", async () => {
    const result = await run(
      toolContent([
        { type: "text", text: "one" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
        { type: "text", text: "three" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
      ]),
      { maxParts: 2 },
    );
    expect(result.content).toBe(
      "one\n[image: image/png, 70 bytes]\n[2 more parts omitted: over the 2-part limit]",
    );
    expect(result.parts).toHaveLength(3);
  });

  test("budgets follow the usual precedence: call over Tool over registry", async () => {
    const value = toolContent([{ type: "image", data: pngOf(300), mimeType: "image/png" }]);
    const tool = emitting(value, { outputBudget: { maxPartBytes: 200 } });
    const registry = new ToolRegistry([tool], { outputBudget: { maxPartBytes: 100 } });
    expect((await executeToolCall(registry, call, signal())).content).toContain(
      "over the 200-byte part limit",
    );
    const byCall = await executeToolCall(registry, call, signal(), {
      outputBudget: { maxPartBytes: 400 },
    });
    expect(byCall.content).toBe("[image: image/png, 300 bytes]");
  });

  test("a part budget alone changes nothing for output that is not toolContent", async () => {
    const course = await run("x".repeat(5_000));
    const budgeted = await run("x".repeat(5_000), { maxParts: 3 });
    expect(budgeted.content.length).toBeLessThanOrEqual(4_096);
    expect(course.content.endsWith("\n[Tool output truncated]")).toBe(true);
  });
});

describe("content stays within maxCharacters", () => {
  test("long text beside an image: the text is cut with the marker, the image stays", async () => {
    const result = await run(
      toolContent([
        { type: "text", text: "y".repeat(5_000) },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
        { type: "text", text: "after" },
      ]),
    );
    expect(codePoints(result.content)).toBeLessThanOrEqual(4_096);
    expect(result.content).toMatch(
      /\n\[Tool output truncated: \d+ of 5005 characters kept\]\n\[image: image\/png, 70 bytes\]$/,
    );
    expect(result.parts?.map((part) => part.type)).toEqual(["text", "image"]);
  });

  test("more binary parts than lines fit: the rest are left out, saying why", async () => {
    const parts = Array.from({ length: 10 }, () => ({
      type: "image" as const,
      data: PNG_1X1,
      mimeType: "image/png",
    }));
    const result = await run(toolContent(parts), { maxCharacters: 1_024 });
    const lines = result.content.split("\n");
    expect(lines.at(-1)).toBe(
      "[6 more parts omitted: no room for more part lines in 1024 characters]",
    );
    expect(result.parts?.filter((part) => part.type === "image")).toHaveLength(4);
    expect(codePoints(result.content)).toBeLessThanOrEqual(1_024);
  });

  test("a thousand one-character text parts under the smallest cap", async () => {
    const parts = Array.from({ length: 1_000 }, () => ({ type: "text" as const, text: "z" }));
    const result = await run(toolContent(parts), { maxCharacters: 1_024, maxParts: 1_000 });
    expect(codePoints(result.content)).toBeLessThanOrEqual(1_024);
    expect(result.content).toMatch(/\[Tool output truncated: \d+ of 1000 characters kept\]$/);
  });

  test("every line a part can add fits PART_LINE_MAX", async () => {
    const name = "n".repeat(64);
    const result = await run(
      toolContent([
        { type: "file", data: pngOf(70), mimeType: "application/pdf", name },
        { type: "image", data: "aGk=".repeat(10), mimeType: `${"x".repeat(31)}/${"y".repeat(31)}` },
        { type: "audio", data: `${"A".repeat(1_000)}!AAA`, mimeType: "audio/flac" },
        {
          type: "file",
          data: SIGNED_SAMPLES["application/pdf"] as Uint8Array,
          mimeType: "application/pdf",
          name,
        },
        { type: "image", data: pngOf(2_000), mimeType: "image/png" },
        { type: "image", data: PNG_1X1, mimeType: "image/webp" },
      ]),
      { maxPartBytes: 1_000, maxParts: 1_000 },
    );
    const lines = result.content.split("\n");
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(codePoints(line)).toBeLessThanOrEqual(PART_LINE_MAX);
    // The unsupported type's line is the longest a part can add (110 code points).
    expect(Math.max(...lines.map(codePoints))).toBe(110);
  });

  test("a spill hook receives the full text when the text was cut, and the marker names it", async () => {
    const spilled: string[] = [];
    const registry = new ToolRegistry(
      [
        emitting(
          toolContent([
            { type: "text", text: "w".repeat(5_000) },
            { type: "image", data: PNG_1X1, mimeType: "image/png" },
          ]),
        ),
      ],
      {
        spill: (text) => {
          spilled.push(text);
          return "ref-9";
        },
      },
    );
    const result = await executeToolCall(registry, call, signal());
    expect(spilled).toEqual([`${"w".repeat(5_000)}\n[image: image/png, 70 bytes]`]);
    expect(result.content).toMatch(
      /characters kept; full output: ref-9\]\n\[image: image\/png, 70 bytes\]$/,
    );
  });
});

describe("look-alikes are data, and none of their code runs", () => {
  test("a plain copy of a toolContent value is serialized as data, with no parts", async () => {
    const value = toolContent([{ type: "image", data: PNG_1X1, mimeType: "image/png" }]);
    const result = await run({ ...value });
    expect(result.content).toBe(
      '{"parts":[{"byteLength":70,"mimeType":"image/png","type":"image"}]}',
    );
    expect("parts" in result).toBe(false);
  });

  test("a Proxy of a toolContent value is refused without a trap", async () => {
    let traps = 0;
    const value = toolContent([{ type: "image", data: PNG_1X1, mimeType: "image/png" }]);
    const counting = new Proxy(
      {},
      {
        get:
          (_target, key) =>
          (...args: unknown[]) => {
            traps += 1;
            return Reflect.apply(
              Reflect[key as keyof typeof Reflect] as (...a: unknown[]) => unknown,
              Reflect,
              args,
            );
          },
      },
    );
    const proxy = new Proxy(value, counting);
    // Handed over as it is (not through an async function, whose own resolution would read `then`).
    const tool = defineTool({
      name: "emit",
      description: "Returns a Proxy.",
      validate: (input) => ({ ok: true, value: input }),
      execute: (() => proxy) as never,
    });
    const result = await executeToolCall(new ToolRegistry([tool]), call, signal());
    expect(result.content).toContain("TOOL_OUTPUT_SERIALIZATION_FAILED");
    expect(traps).toBe(0);
  });

  test("a getter-laden look-alike is written without running a getter", async () => {
    let reads = 0;
    const lookAlike = {
      get parts() {
        reads += 1;
        return [{ type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" }];
      },
      // biome-ignore lint/suspicious/noThenProperty: a thenable look-alike is the attack under test.
      get then() {
        reads += 1;
        return undefined;
      },
    };
    const result = await executeToolCall(
      new ToolRegistry([
        defineTool({
          name: "emit",
          description: "Returns a look-alike without awaiting it.",
          validate: (input) => ({ ok: true, value: input }),
          execute: () => Promise.resolve({ wrapped: lookAlike }),
        }),
      ]),
      call,
      signal(),
    );
    expect(result.content).toBe('{"wrapped":{}}');
    expect(reads).toBe(0);
  });

  test("a toolContent value inside other output is data", async () => {
    const value = toolContent([{ type: "text", text: "hi" }]);
    const result = await run([value]);
    expect(result.content).toBe('[{"parts":[{"text":"hi","type":"text"}]}]');
  });
});

describe("rounds", () => {
  test("a result that fits the round's budget keeps its parts; a cut one keeps none", async () => {
    const value = toolContent([
      { type: "text", text: "x".repeat(50) },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
    ]);
    const registry = new ToolRegistry([emitting(value)]);
    const calls = [call, { ...call, id: "call-2" }];
    const [first, second] = await executeToolCalls(registry, calls, signal(), {
      maxRoundCharacters: 120,
    });
    expect(first?.parts).toHaveLength(2);
    expect(second?.content.endsWith("[Tool output truncated]")).toBe(true);
    expect(second !== undefined && "parts" in second).toBe(false);
  });
});
