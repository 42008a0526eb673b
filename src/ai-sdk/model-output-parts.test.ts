/**
 * Multi-part output across the AI SDK bridge, both ways, without the SDK: a
 * bridged Tool's `toModelOutput` writes a result's parts as the SDK's
 * `content` output, and an AI SDK tool's model output becomes our output
 * (its parts a `toolContent` value the boundary checks).
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  ToolRegistry,
  toolContent,
} from "../../course/src/index.ts";
import { PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../../test/support/parts.ts";
import { fromAiSdkModelOutput } from "./ai-sdk-model-output.ts";
import { fromAiSdkTool } from "./index.ts";
import { buildAiSdkTools } from "./to-ai-sdk-tools.ts";

type Bridged = {
  readonly execute: (input: unknown, options: object) => Promise<unknown>;
  readonly toModelOutput: (options: { output: unknown }) => unknown;
};

function bridged(output: unknown): Bridged {
  const registry = new ToolRegistry([
    defineTool({
      name: "media",
      description: "Return media.",
      validate: (input) => ({ ok: true, value: input }),
      execute: async () => output,
    }),
  ]);
  const tools = buildAiSdkTools(registry, undefined, ((schema: unknown) => schema) as never);
  return (tools as unknown as Record<string, Bridged>).media as Bridged;
}

describe("toAiSdkTools: a result's parts as the SDK's content output", () => {
  test("text and a named PDF and an image: text parts and file parts with inline base64", async () => {
    const pdf = SIGNED_SAMPLES["application/pdf"] as Uint8Array;
    const tool = bridged(
      toolContent([
        { type: "text", text: "Here:" },
        { type: "image", data: PNG_1X1, mimeType: "image/png" },
        { type: "file", data: pdf, mimeType: "application/pdf", name: "a.pdf" },
      ]),
    );
    const output = await tool.execute({}, { toolCallId: "call-1" });
    expect(output).toMatchObject({ toolCallId: "call-1", parts: expect.any(Array) });
    expect(tool.toModelOutput({ output })).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Here:" },
        { type: "file", data: { type: "data", data: PNG_1X1_BASE64 }, mediaType: "image/png" },
        {
          type: "file",
          data: { type: "data", data: Buffer.from(pdf).toString("base64") },
          mediaType: "application/pdf",
          filename: "a.pdf",
        },
      ],
    });
  });

  test("a result without parts is its content as text, as before", async () => {
    const tool = bridged(toolContent([{ type: "text", text: "only text" }]));
    const output = await tool.execute({}, { toolCallId: "call-1" });
    expect(output).toBe("only text");
    expect(tool.toModelOutput({ output })).toEqual({ type: "text", value: "only text" });
  });

  test("a stored message with parts is sent as parts; malformed parts are not", () => {
    const tool = bridged("x");
    const image = Object.freeze({ type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" });
    const stored = { content: "[image: image/png, 70 bytes]", parts: Object.freeze([image]) };
    expect(tool.toModelOutput({ output: stored })).toMatchObject({ type: "content" });
    const forged = {
      content: "x",
      parts: Object.freeze([Object.freeze({ ...image, data: "!!" })]),
    };
    expect(tool.toModelOutput({ output: forged })).toMatchObject({ type: "text" });
  });
});

describe("fromAiSdkTool: the tool's model output becomes ours", () => {
  const call: CourseToolCall = { type: "toolCall", id: "call-1", name: "shot", arguments: {} };
  const run = (tool: object) =>
    executeToolCall(
      new ToolRegistry([fromAiSdkTool("shot", tool as never)]),
      call,
      new AbortController().signal,
    );
  const shot = (toModelOutput: (options: { output: unknown }) => unknown) => ({
    description: "Take a screenshot.",
    // Shaped as the SDK's jsonSchema(schema, { validate }) makes one.
    inputSchema: {
      [Symbol.for("vercel.ai.schema")]: true,
      _type: undefined,
      jsonSchema: { type: "object" },
      validate: (value: unknown) => ({ success: true, value }),
    },
    execute: async () => ({ png: PNG_1X1_BASE64 }),
    toModelOutput,
  });

  test("a content output's image arrives as an image part; its text as text", async () => {
    const seen: unknown[] = [];
    const result = await run(
      shot((options) => {
        seen.push(options);
        const { png } = options.output as { png: string };
        return {
          type: "content",
          value: [
            { type: "text", text: "The screen:" },
            { type: "file", data: { type: "data", data: png }, mediaType: "image/png" },
          ],
        };
      }),
    );
    expect(seen).toEqual([{ toolCallId: "call-1", input: {}, output: { png: PNG_1X1_BASE64 } }]);
    expect(result.content).toBe("The screen:\n[image: image/png, 70 bytes]");
    expect(result.parts).toEqual([
      { type: "text", text: "The screen:" },
      { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
    ]);
  });

  test("a text output is the output, an error output a TOOL_EXECUTION_FAILED result", async () => {
    expect((await run(shot(() => ({ type: "text", value: "ok" })))).content).toBe('"ok"');
    const failed = await run(shot(() => ({ type: "error-text", value: "screen locked" })));
    expect(failed).toMatchObject({ isError: true });
    expect(JSON.parse(failed.content).error).toEqual({
      code: "TOOL_EXECUTION_FAILED",
      message: "screen locked",
    });
  });
});

describe("fromAiSdkModelOutput", () => {
  test.each([
    ["json", { type: "json", value: { a: 1 } }, { a: 1 }],
    ["text", { type: "text", value: "hi" }, "hi"],
  ])("%s: the value", (_label, output, expected) => {
    expect(fromAiSdkModelOutput(output)).toEqual(expected);
  });

  test.each([
    ["error-json", { type: "error-json", value: { code: 7 } }, '{"code":7}'],
    ["execution-denied", { type: "execution-denied", reason: "no" }, "no"],
    [
      "execution-denied without a reason",
      { type: "execution-denied" },
      "the tool's execution was denied",
    ],
  ])("%s throws its text", (_label, output, message) => {
    expect(() => fromAiSdkModelOutput(output)).toThrow(message);
  });

  test.each([
    ["a Proxy", new Proxy({ type: "text", value: "x" }, {})],
    ["an unknown type", { type: "video" }],
    ["a content output that is no array", { type: "content", value: "x" }],
  ])("%s is a TypeError", (_label, output) => {
    expect(() => fromAiSdkModelOutput(output)).toThrow(TypeError);
  });

  test("parts that cannot cross become lines; older part shapes are read too", () => {
    const output = fromAiSdkModelOutput({
      type: "content",
      value: [
        {
          type: "file",
          data: { type: "url", url: new URL("https://example.com/a.png") },
          mediaType: "image/png",
        },
        { type: "image-data", data: PNG_1X1_BASE64, mediaType: "image/png" },
        {
          type: "file",
          data: { type: "text", text: "notes" },
          mediaType: "text/plain",
          filename: "n.txt",
        },
        { type: "custom" },
      ],
    });
    expect(output).toMatchObject({
      parts: [
        { type: "text", text: "[file part omitted: only inline data crosses the boundary]" },
        { type: "image", mimeType: "image/png", byteLength: 70 },
        { type: "file", mimeType: "text/plain", byteLength: 5, name: "n.txt" },
        { type: "text", text: "[custom part omitted: only inline data crosses the boundary]" },
      ],
    });
  });

  test("a getter on a part never runs", () => {
    let reads = 0;
    const part = Object.defineProperty({ type: "text" }, "text", {
      get() {
        reads += 1;
        return "x";
      },
      enumerable: true,
    });
    expect(fromAiSdkModelOutput({ type: "content", value: [part] })).toMatchObject({
      parts: [{ type: "text", text: "[unreadable text part]" }],
    });
    expect(reads).toBe(0);
  });
});
