/**
 * A Tool's `toolContent` through the MCP bridge, read by the official SDK
 * Client over the SDK's in-memory transport: one content item per part, an
 * image as an image, audio as audio, a file as an embedded blob resource,
 * and a refused part as the text line saying why.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test } from "vitest";
import {
  defineTool,
  type ToolContentPart,
  ToolRegistry,
  toolContent,
} from "../../course/src/index.ts";
import { base64, PNG_1X1, PNG_1X1_BASE64, SIGNED_SAMPLES } from "../../test/support/parts.ts";
import { partUri, serveToolRegistry, toMcpResult } from "./index.ts";

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/** Serves one Tool named `media` that returns `parts`, and calls it through a real Client. */
async function callMedia(parts: ToolContentPart[]) {
  const registry = new ToolRegistry([
    defineTool({
      name: "media",
      description: "Return media.",
      validate: () => ({ ok: true, value: {} }),
      execute: async () => toolContent(parts),
    }),
  ]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serveToolRegistry(registry, serverSide, { log: () => {} });
  const client = new Client({ name: "parts-test", version: "1.0.0" });
  await client.connect(clientSide);
  open.push(client);
  const result = await client.callTool({ name: "media", arguments: {} });
  // The SDK's own schema accepts what the bridge sent.
  return CallToolResultSchema.parse(result);
}

describe("parts reach an MCP client as its own content items", () => {
  test("a 1x1 PNG arrives as an image item, after the text before it", async () => {
    const result = await callMedia([
      { type: "text", text: "One pixel:" },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
    ]);
    expect(result).toEqual({
      content: [
        { type: "text", text: "One pixel:" },
        { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
      ],
      isError: false,
    });
    const pixel = result.content[1];
    expect(pixel?.type === "image" && Buffer.from(pixel.data, "base64")).toEqual(
      Buffer.from(PNG_1X1),
    );
  });

  test("audio as an audio item, a file as an embedded resource with a blob", async () => {
    const wav = SIGNED_SAMPLES["audio/wav"] as Uint8Array;
    const pdf = SIGNED_SAMPLES["application/pdf"] as Uint8Array;
    const result = await callMedia([
      { type: "audio", data: wav, mimeType: "audio/wav" },
      { type: "file", data: pdf, mimeType: "application/pdf", name: "q3 report.pdf" },
      { type: "file", data: SIGNED_SAMPLES["text/plain"] as Uint8Array, mimeType: "text/plain" },
    ]);
    expect(result.content).toEqual([
      { type: "audio", data: base64(wav), mimeType: "audio/wav" },
      {
        type: "resource",
        resource: {
          uri: "toolbound://part/1/q3%20report.pdf",
          mimeType: "application/pdf",
          blob: base64(pdf),
        },
      },
      {
        type: "resource",
        resource: {
          uri: "toolbound://part/2",
          mimeType: "text/plain",
          blob: base64(SIGNED_SAMPLES["text/plain"] as Uint8Array),
        },
      },
    ]);
  });

  test("a lying MIME type and an over-budget part each arrive as the line saying why", async () => {
    const big = new Uint8Array(6_000_000);
    big.set(PNG_1X1.subarray(0, 16));
    const result = await callMedia([
      { type: "image", data: PNG_1X1, mimeType: "image/jpeg" },
      { type: "image", data: big, mimeType: "image/png" },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
    ]);
    expect(result.content).toEqual([
      { type: "text", text: "[image omitted: declared image/jpeg, but the bytes are image/png]" },
      { type: "text", text: "[image omitted: 6000000 bytes, over the 5242880-byte part limit]" },
      { type: "image", data: PNG_1X1_BASE64, mimeType: "image/png" },
    ]);
  });

  test("text parts only: one text item holding the joined text", async () => {
    const result = await callMedia([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ]);
    expect(result.content).toEqual([{ type: "text", text: "a\nb" }]);
  });
});

describe("toMcpResult", () => {
  test("an error result is one text item, whatever it is", () => {
    const message = Object.freeze({
      id: "tool-result-c",
      role: "toolResult" as const,
      toolCallId: "c",
      toolName: "t",
      content: '{"error":{"code":"TOOL_EXECUTION_FAILED","message":"x"}}',
      isError: true,
    });
    expect(toMcpResult(message)).toEqual({
      content: [{ type: "text", text: message.content }],
      isError: true,
    });
  });

  test("partUri names the position, and the name when there is one, escaped", () => {
    expect(partUri(0, undefined)).toBe("toolbound://part/0");
    expect(partUri(3, "a/b?.pdf")).toBe("toolbound://part/3/a%2Fb%3F.pdf");
  });
});
