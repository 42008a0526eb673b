/**
 * toToolResultMessages with parts: what each provider takes natively, what
 * stays a line, and a message whose parts are not as the boundary writes
 * them refused, naming what was wrong, without running anything of it.
 */
import { describe, expect, test } from "vitest";
import {
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  ToolRegistry,
  type ToolResultPart,
  toolContent,
  toolResultMessage,
} from "../../course/src/index.ts";
import { base64, PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../../test/support/parts.ts";
import { toToolResultMessages } from "./index.ts";

const TEXT = SIGNED_SAMPLES["text/plain"] as Uint8Array;
const GIF = SIGNED_SAMPLES["image/gif"] as Uint8Array;
const OGG = SIGNED_SAMPLES["audio/ogg"] as Uint8Array;

async function resultOf(parts: Parameters<typeof toolContent>[0], id = "call_1") {
  const tool = defineTool({
    name: "media",
    description: "Returns parts.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async () => toolContent(parts),
  });
  const call = { type: "toolCall" as const, id, name: "media", arguments: {} };
  return executeToolCall(new ToolRegistry([tool]), call, new AbortController().signal);
}

/** A frozen message with the given parts, as storage could hand one back. */
function withParts(parts: unknown, isError = false): CourseToolResultMessage {
  return Object.freeze({
    ...toolResultMessage({ id: "c", name: "t" }, "x", isError),
    parts,
  }) as never;
}

const image = Object.freeze({ type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" });

describe("what each provider takes, and what stays a line", () => {
  test("a plain-text file: Anthropic's text document, Responses' input_file, Gemini's inline data, Chat's text", async () => {
    const result = await resultOf([
      { type: "text", text: "" },
      { type: "file", data: TEXT, mimeType: "text/plain" },
    ]);
    const text = new TextDecoder().decode(TEXT);
    const [anthropic] = toToolResultMessages("anthropic", [result]);
    expect(anthropic?.content[0]?.content).toEqual([
      { type: "document", source: { type: "text", media_type: "text/plain", data: text } },
    ]);
    const [responses] = toToolResultMessages("openai-responses", [result]);
    expect(responses?.output).toEqual([
      {
        type: "input_file",
        file_data: `data:text/plain;base64,${base64(TEXT)}`,
        filename: "part-2.txt",
      },
    ]);
    const [gemini] = toToolResultMessages("gemini", [result]);
    expect(gemini?.parts[0]?.functionResponse.parts).toEqual([
      { inlineData: { mimeType: "text/plain", data: base64(TEXT) } },
    ]);
    const chat = toToolResultMessages("openai-chat", [result]);
    expect(chat[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: 'Attachments of the tool result for call "call_1", in order:' },
        { type: "text", text: `[file: text/plain, ${TEXT.length} bytes]\n${text}` },
      ],
    });
  });

  test("a GIF and OGG audio: Gemini and Chat leave them out, their lines stay in the text", async () => {
    const result = await resultOf([
      { type: "image", data: GIF, mimeType: "image/gif" },
      { type: "audio", data: OGG, mimeType: "audio/ogg" },
    ]);
    const [gemini] = toToolResultMessages("gemini", [result]);
    expect(gemini?.parts[0]?.functionResponse).toEqual({
      id: "call_1",
      name: "media",
      response: {
        output: `[image: image/gif, ${GIF.length} bytes]\n[audio: audio/ogg, ${OGG.length} bytes]`,
      },
    });
    const chat = toToolResultMessages("openai-chat", [result]);
    expect(chat).toHaveLength(2);
    expect(chat[1]).toMatchObject({ content: [{ type: "text" }, { type: "image_url" }] });
  });

  test("chat: one user message after all tool messages, each result's media after its label", async () => {
    const first = await resultOf(
      [{ type: "image", data: PNG_1X1, mimeType: "image/png" }],
      "call_1",
    );
    const plain = toolResultMessage({ id: "call_2", name: "add" }, "3", false);
    const third = await resultOf(
      [{ type: "image", data: PNG_1X1, mimeType: "image/png" }],
      "call_3",
    );
    const chat = toToolResultMessages("openai-chat", [first, plain, third]);
    expect(chat.map((message) => message.role)).toEqual(["tool", "tool", "tool", "user"]);
    const labels = ((chat[3]?.content ?? []) as { type: string; text?: string }[])
      .filter((part) => part.type === "text")
      .map((part) => part.text);
    expect(labels).toEqual([
      'Attachments of the tool result for call "call_1", in order:',
      'Attachments of the tool result for call "call_3", in order:',
    ]);
  });

  test("results without parts are written exactly as before", () => {
    const plain = toolResultMessage({ id: "call_1", name: "add" }, '{"sum":3}', false);
    expect(toToolResultMessages("openai-chat", [plain])).toEqual([
      { role: "tool", tool_call_id: "call_1", content: '{"sum":3}' },
    ]);
    expect(toToolResultMessages("gemini", [plain])[0]?.parts[0]).toEqual({
      functionResponse: { id: "call_1", name: "add", response: { output: '{"sum":3}' } },
    });
  });

  test("every item is frozen, the part lists included", async () => {
    const result = await resultOf([{ type: "image", data: PNG_1X1, mimeType: "image/png" }]);
    const deepFrozen = (value: unknown): boolean =>
      typeof value !== "object" ||
      value === null ||
      (Object.isFrozen(value) && Object.values(value).every(deepFrozen));
    for (const format of ["openai-chat", "openai-responses", "anthropic", "gemini"] as const) {
      expect(deepFrozen(toToolResultMessages(format, [result]))).toBe(true);
    }
  });
});

describe("parts not as the boundary writes them are refused", () => {
  test.each([
    [
      "not an array",
      Object.freeze({ 0: image }),
      "results[0].parts must be a frozen array of parts; found an object",
    ],
    [
      "an unfrozen array",
      [image],
      "results[0].parts must be a frozen array of parts; found an array",
    ],
    [
      "an unfrozen part",
      Object.freeze([{ ...image }]),
      "results[0].parts[0] must be a frozen part; found an object",
    ],
    [
      "an unknown type",
      Object.freeze([Object.freeze({ ...image, type: "video" })]),
      'results[0].parts[0].type must be "text", "image", "audio" or "file"',
    ],
    [
      "a MIME type off the list",
      Object.freeze([Object.freeze({ ...image, mimeType: "image/svg+xml" })]),
      "results[0].parts[0].mimeType must be one of image/png, image/jpeg, image/gif, image/webp",
    ],
    [
      "data that is not strict base64",
      Object.freeze([Object.freeze({ ...image, data: `${PNG_1X1_BASE64}\n` })]),
      "results[0].parts[0].data must be strict base64 of at least one byte",
    ],
    [
      "empty data",
      Object.freeze([Object.freeze({ ...image, data: "" })]),
      "results[0].parts[0].data must be strict base64 of at least one byte",
    ],
    [
      "a name on an image",
      Object.freeze([Object.freeze({ ...image, name: "x.png" })]),
      "results[0].parts[0].name must be a file's name of 1 to 64 characters",
    ],
    [
      "text that is not a string",
      Object.freeze([Object.freeze({ type: "text", text: 1 })]),
      "results[0].parts[0].text must be a string",
    ],
  ])("%s", (_label, parts, message) => {
    expect(() => toToolResultMessages("anthropic", [withParts(parts)])).toThrow(
      new TypeError(`toToolResultMessages("anthropic"): ${message}`),
    );
  });

  test("an error result with parts is refused: error results never carry parts", () => {
    expect(() => toToolResultMessages("gemini", [withParts(Object.freeze([image]), true)])).toThrow(
      'toToolResultMessages("gemini"): results[0] is an error result with parts; error results never carry parts',
    );
  });

  test("a getter for parts, or in a part, never runs", () => {
    let reads = 0;
    const getter = Object.freeze(
      Object.defineProperty({ ...toolResultMessage({ id: "c", name: "t" }, "x", false) }, "parts", {
        get() {
          reads += 1;
          return [image];
        },
        enumerable: true,
      }),
    );
    expect(() => toToolResultMessages("openai-chat", [getter as never])).toThrow(
      "results[0].parts must be an own data field",
    );
    const part = Object.freeze(
      Object.defineProperty({ type: "image", mimeType: "image/png" }, "data", {
        get() {
          reads += 1;
          return PNG_1X1_BASE64;
        },
      }),
    );
    expect(() => toToolResultMessages("openai-chat", [withParts(Object.freeze([part]))])).toThrow(
      "results[0].parts[0].data must be an own data field",
    );
    expect(reads).toBe(0);
  });

  test("a well-formed stored message with parts is accepted", () => {
    const parts: readonly ToolResultPart[] = Object.freeze([
      Object.freeze({ type: "text", text: "hi" }),
      image,
    ]);
    const [responses] = toToolResultMessages("openai-responses", [withParts(parts)]);
    expect(responses?.output).toEqual([
      { type: "input_text", text: "hi" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG_1X1_BASE64}` },
    ]);
  });
});
