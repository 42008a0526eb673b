/**
 * How a `toolContent` value's text parts and lines share `maxCharacters`, at
 * the edges: text of exactly the cap is whole and one more character is cut;
 * a text part that exactly fills the room left beside the marker is kept
 * whole and the marker stands on its own line after it; the number of part
 * lines at the two sides of a line-budget step; one part left over is "1 more
 * part"; the spill hook runs only for a cut, told which budget cut.
 */
import { describe, expect, test } from "vitest";
import { PNG_1X1 } from "../../../test/support/parts.ts";
import {
  type CourseToolResultMessage,
  executeToolCall,
  type OutputBudget,
  type OutputSpillInfo,
  ToolRegistry,
  type ToolRegistryOptions,
  toolContent,
} from "../../src/index.ts";
import { call, emitting, signal } from "./support/emitting-tool.ts";

const codePoints = (text: string) => [...text].length;
const image = { type: "image" as const, data: PNG_1X1, mimeType: "image/png" };
const IMAGE_LINE = "[image: image/png, 70 bytes]";

async function run(
  output: unknown,
  outputBudget?: OutputBudget,
  options?: ToolRegistryOptions,
): Promise<CourseToolResultMessage> {
  const registry = new ToolRegistry([emitting(output)], options);
  return executeToolCall(
    registry,
    call,
    signal(),
    outputBudget === undefined ? undefined : { outputBudget },
  );
}

describe("text at the cap", () => {
  test.each([
    [[1_024], true],
    [[1_025], false],
    // Two parts and their line feed: 1,023 + 1 + 0 is exactly the cap; 1,024 + 1 + 0 is one over.
    [[1_023, 0], true],
    [[1_024, 0], false],
    [[500, 523], true],
    [[500, 524], false],
  ])("text parts of %j characters: whole %s", async (lengths, whole) => {
    const texts = lengths.map((length, index) => "abcdefgh"[index]?.repeat(length) ?? "");
    const spilled: OutputSpillInfo[] = [];
    const result = await run(
      toolContent(texts.map((text) => ({ type: "text" as const, text }))),
      { maxCharacters: 1_024 },
      {
        spill: (_text, info) => {
          spilled.push(info);
          return undefined;
        },
      },
    );
    expect(codePoints(result.content)).toBeLessThanOrEqual(1_024);
    if (whole) {
      expect(result.content).toBe(texts.join("\n"));
      expect(spilled).toEqual([]);
    } else {
      expect(result.content).toMatch(/\n\[Tool output truncated: \d+ of \d+ characters kept\]$/);
      expect(spilled).toEqual([
        { toolCallId: "call-1", toolName: "emit", limit: "characters", truncated: false },
      ]);
    }
  });

  test.each([
    ["another text part", ["b".repeat(52)]],
    ["an empty text part, then another", ["", "b".repeat(52)]],
  ])(
    "a text part that exactly fills the room beside the marker is kept whole; the marker follows it alone, before %s",
    async (_label, rest) => {
      // The cap's room is 1,025 (the first line has no feed); the image line and its feed take 29,
      // the widest marker ("[Tool output truncated: 995 of 995 characters kept]", 51) and its feed
      // 52: 944 are left, so 943 characters and a feed fill them, and the next part (even an empty
      // one, which still needs its feed) gets none.
      const first = "a".repeat(943);
      const result = await run(
        toolContent([
          { type: "text", text: first },
          ...rest.map((text) => ({ type: "text" as const, text })),
          image,
        ]),
        { maxCharacters: 1_024 },
      );
      const marker = "[Tool output truncated: 943 of 995 characters kept]";
      expect(result.content).toBe(`${first}\n${marker}\n${IMAGE_LINE}`);
      expect(result.parts?.map((part) => (part.type === "text" ? part.text : part.type))).toEqual([
        first,
        marker,
        "image",
      ]);
    },
  );
});

describe("part lines at a step of the line budget", () => {
  // Lines are budgeted so each fits beside the marker's 300: (maxCharacters - 300) / 129
  // lines, one of them kept for the parts left out.
  test.each([
    [1_073, 4],
    [1_074, 5],
  ])("maxCharacters %i keeps %i image lines", async (maxCharacters, kept) => {
    const result = await run(toolContent(Array.from({ length: 10 }, () => image)), {
      maxCharacters,
    });
    expect(result.parts?.filter((part) => part.type === "image")).toHaveLength(kept);
    expect(result.content.split("\n").at(-1)).toBe(
      `[${10 - kept} more parts omitted: no room for more part lines in ${maxCharacters} characters]`,
    );
  });
});

describe("parts left out", () => {
  test.each([
    [3, "[1 more part omitted: over the 2-part limit]"],
    [4, "[2 more parts omitted: over the 2-part limit]"],
  ])("%i text parts under maxParts 2", async (count, line) => {
    const parts = Array.from({ length: count }, (_, index) => ({
      type: "text" as const,
      text: `t${index}`,
    }));
    const result = await run(toolContent(parts), { maxParts: 2 });
    expect(result.content).toBe(`t0\nt1\n${line}`);
  });

  test("no parts at all: empty content and no parts field", async () => {
    const result = await run(toolContent([]));
    expect(result.content).toBe("");
    expect(result.parts).toBeUndefined();
    expect(Object.keys(result)).not.toContain("parts");
  });
});
