/**
 * The example that opens `docs/output.md`, compiled and run: a file read as
 * text and a screenshot returned as an image, through `executeToolCall` and
 * on to Anthropic's next request. The doc's first `ts` block mirrors this
 * file: it must be exactly the lines marked below.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { defineTool, executeToolCall, ToolRegistry, toolContent } from "../../course/src/index.ts";
import { toToolResultMessages } from "../../src/providers/index.ts";
import { mirroredExample } from "../setup/doc-example.ts";
import { PNG_1X1, PNG_1X1_BASE64 } from "../support/parts.ts";

/** Stands in for a screen grab: a 1x1 PNG. */
const captureScreen = async (): Promise<Uint8Array> => PNG_1X1;

async function example() {
  const signal = new AbortController().signal;
  const messages: unknown[] = [];
  // doc:begin
  // Assumed: `captureScreen()`, which answers PNG bytes; `signal`, the run's AbortSignal;
  // `messages`, the Anthropic conversation so far.
  const readTextFile = defineTool({
    name: "read_file",
    description: "Read a UTF-8 text file.",
    validate: (input) =>
      typeof (input as { path?: unknown }).path === "string"
        ? { ok: true, value: input as { path: string } }
        : { ok: false, error: "path must be a string" },
    execute: async ({ path }) => readFile(path, "utf8"),
  });

  const screenshot = defineTool({
    name: "screenshot",
    description: "Capture the screen.",
    validate: () => ({ ok: true, value: {} }),
    execute: async () =>
      toolContent([
        { type: "text", text: "The screen:" },
        { type: "image", data: await captureScreen(), mimeType: "image/png" },
      ]),
  });

  const registry = new ToolRegistry([readTextFile, screenshot], {
    format: "text",
    outputBudget: { maxCharacters: 50_000 },
  });

  const file = await executeToolCall(
    registry,
    { type: "toolCall", id: "call-1", name: "read_file", arguments: { path: "package.json" } },
    signal,
  );
  // file.content is the file's text, as it is: no quotes, no \u000a escapes

  const shot = await executeToolCall(
    registry,
    { type: "toolCall", id: "call-2", name: "screenshot", arguments: {} },
    signal,
  );
  // shot.content: "The screen:\n[image: image/png, 70 bytes]"
  // shot.parts: [{ type: "text", text: "The screen:" }, { type: "image", data: "iVBORw0K…", mimeType: "image/png" }]

  messages.push(...toToolResultMessages("anthropic", [file, shot]));
  // doc:end
  return { file, shot, messages };
}

describe("docs/output.md", () => {
  test("opens with the example below, exactly", () => {
    const { shown, marked } = mirroredExample(new URL(import.meta.url));
    expect(shown).toBe(marked);
  });

  test("the example does what its comments say", async () => {
    const { file, shot, messages } = await example();
    expect(file.content).toBe(await readFile("package.json", "utf8"));
    expect(shot.content).toBe("The screen:\n[image: image/png, 70 bytes]");
    expect(shot.parts).toEqual([
      { type: "text", text: "The screen:" },
      { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
    ]);
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call-1", content: file.content, is_error: false },
          {
            type: "tool_result",
            tool_use_id: "call-2",
            is_error: false,
            content: [
              { type: "text", text: "The screen:" },
              {
                type: "image",
                source: { type: "base64", media_type: "image/png", data: PNG_1X1_BASE64 },
              },
            ],
          },
        ],
      },
    ]);
  });
});
