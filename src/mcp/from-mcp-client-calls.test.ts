/**
 * fromMcpClient, what a call returns: content as text, a line for each item
 * that is not text, error results, output budgets and the spill hook,
 * cancellation, deadlines, error responses and relayed progress.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import {
  type AnyCourseTool,
  type CourseJsonObject,
  executeToolCall,
  ToolRegistry,
  type ToolRegistryOptions,
} from "../../course/src/index.ts";
import { onePixelPng, silentWav } from "../../examples/tiny-media.ts";
import {
  type CallExtra,
  type ListedTool,
  useScriptedServers,
} from "../../test/support/mcp-client.ts";
import { fromMcpClient, MAX_FAILURE_CHARACTERS, serveToolRegistry } from "./index.ts";

const scripted = useScriptedServers();
const tool: ListedTool = {
  name: "remote",
  description: "A remote Tool.",
  inputSchema: { type: "object" },
};

async function run(
  tools: readonly AnyCourseTool[],
  args: CourseJsonObject = {},
  options: { signal?: AbortSignal; registry?: ToolRegistryOptions } = {},
) {
  return executeToolCall(
    new ToolRegistry(tools, options.registry),
    { type: "toolCall", id: "c1", name: "remote", arguments: args },
    options.signal ?? new AbortController().signal,
  );
}

/** The error of an error result: its code and message. */
const errorOf = (content: string) => JSON.parse(content).error as { code: string; message: string };

describe("results", () => {
  test("text items come back as their text, one per line", async () => {
    const { client } = await scripted([tool], async () => ({
      content: [
        { type: "text", text: "first" },
        { type: "text", text: "second" },
      ],
    }));
    const result = await run((await fromMcpClient(client)).tools);
    expect(result).toMatchObject({ isError: false, content: "first\nsecond" });
    expect(result.parts).toBeUndefined();
  });

  test("embedded text resources and resource links arrive as text lines", async () => {
    const { client } = await scripted([tool], async () => ({
      content: [
        {
          type: "resource",
          resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "hello" },
        },
        {
          type: "resource_link",
          uri: "file:///big.log",
          name: "big.log",
          mimeType: "text/plain",
          description: "The build log",
        },
      ],
    }));
    const result = await run((await fromMcpClient(client)).tools);
    expect(result.parts).toBeUndefined();
    expect(result.content).toBe(
      [
        "[resource file:///notes.txt, text/plain]",
        "hello",
        "[resource link big.log <file:///big.log>, text/plain: The build log]",
      ].join("\n"),
    );
  });

  test("images, audio and binary resources arrive as parts the boundary checked; what fails leaves a line saying why", async () => {
    const png = Buffer.from(onePixelPng()).toString("base64");
    const wav = Buffer.from(silentWav()).toString("base64");
    const pdf = Buffer.from("%PDF-1.7\n%%EOF\n").toString("base64");
    const gif = Buffer.from("GIF89a\u0001\u0000\u0001\u0000").toString("base64");
    const { client } = await scripted([tool], async () => ({
      content: [
        { type: "text", text: "Here is the report:" },
        { type: "image", data: png, mimeType: "image/png" },
        { type: "audio", data: wav, mimeType: "audio/wav" },
        {
          type: "resource",
          resource: { uri: "file:///out/report.pdf", mimeType: "application/pdf", blob: pdf },
        },
        // The server says PNG; the bytes are a GIF.
        { type: "image", data: gif, mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "file:///out/a.gz", mimeType: "application/gzip", blob: "H4sIAAAAAAAA" },
        },
      ],
    }));
    const result = await run((await fromMcpClient(client)).tools);
    expect(result.isError).toBe(false);
    expect(result.content.split("\n")).toEqual([
      "Here is the report:",
      `[image: image/png, ${onePixelPng().length} bytes]`,
      `[audio: audio/wav, ${silentWav().length} bytes]`,
      "[file: report.pdf, application/pdf, 15 bytes]",
      expect.stringMatching(
        /^\[image omitted: declared image\/png, but the bytes are image\/gif\]$/,
      ),
      expect.stringMatching(/^\[file omitted: .*application\/gzip.* not a supported file type\]$/),
    ]);
    expect(result.parts?.map((part) => part.type)).toEqual([
      "text",
      "image",
      "audio",
      "file",
      "text",
      "text",
    ]);
    expect(result.parts?.[1]).toEqual({ type: "image", data: png, mimeType: "image/png" });
    expect(result.parts?.[3]).toEqual({
      type: "file",
      data: pdf,
      mimeType: "application/pdf",
      name: "report.pdf",
    });
  });

  test("the registry's part budget applies: an image over maxPartBytes is a line, not a part", async () => {
    const png = Buffer.from(onePixelPng()).toString("base64");
    const { client } = await scripted([tool], async () => ({
      content: [{ type: "image", data: png, mimeType: "image/png" }],
    }));
    const result = await run(
      (await fromMcpClient(client)).tools,
      {},
      {
        registry: { outputBudget: { maxPartBytes: 10 } },
      },
    );
    expect(result.parts).toBeUndefined();
    expect(result.content).toMatch(/^\[image omitted: \d+ bytes, over the 10-byte part limit\]$/);
  });

  test("structured content alone is the output, serialized as JSON", async () => {
    const { client } = await scripted([tool], async () => ({
      content: [],
      structuredContent: { sum: 42 },
    }));
    expect((await run((await fromMcpClient(client)).tools)).content).toBe('{"sum":42}');
  });

  test("a 1 MB text result is bounded by the registry's budget, and the spill hook gets it whole", async () => {
    const big = "log line\n".repeat(116_509);
    const { client } = await scripted([tool], async () => ({
      content: [{ type: "text", text: big }],
    }));
    const spilled: string[] = [];
    const result = await run(
      (await fromMcpClient(client)).tools,
      {},
      {
        registry: {
          outputBudget: { maxCharacters: 50_000 },
          spill: (text) => {
            spilled.push(text);
            return "artifact-1";
          },
        },
      },
    );
    expect([...result.content].length).toBeLessThanOrEqual(50_000);
    expect(result.content.endsWith("; full output: artifact-1]")).toBe(true);
    // The spill hook got the output once, as the boundary writes it (up to its own string caps).
    expect(spilled).toHaveLength(1);
    const whole = spilled[0] ?? "";
    expect(whole.length).toBeGreaterThan(500_000);
    expect(whole.startsWith(result.content.slice(0, 10_000))).toBe(true);
  });

  test("an isError result is TOOL_EXECUTION_FAILED with the server's text", async () => {
    const { client } = await scripted([tool], async () => ({
      content: [{ type: "text", text: "Access denied - path outside allowed directories" }],
      isError: true,
    }));
    expect(errorOf((await run((await fromMcpClient(client)).tools)).content)).toEqual({
      code: "TOOL_EXECUTION_FAILED",
      message: "Access denied - path outside allowed directories",
    });
  });

  test("a 1 MB error text is cut to the failure bound with a marker", async () => {
    const { client } = await scripted([tool], async () => ({
      content: [{ type: "text", text: "x".repeat(1_048_576) }],
      isError: true,
    }));
    const { message } = errorOf((await run((await fromMcpClient(client)).tools)).content);
    expect([...message]).toHaveLength(MAX_FAILURE_CHARACTERS);
    expect(message.endsWith("… [1048576 characters, cut]")).toBe(true);
  });
});

describe("failures of the request", () => {
  test("the run's signal cancels the request: the server's handler sees its signal abort", async () => {
    let started = (): void => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { client, log } = await scripted([tool], (_params, extra: CallExtra) => {
      started();
      return new Promise((_resolve, reject) =>
        extra.signal.addEventListener("abort", () => reject(new Error("stopped"))),
      );
    });
    const controller = new AbortController();
    const pending = run((await fromMcpClient(client)).tools, {}, { signal: controller.signal });
    await running;
    controller.abort(new Error("the user pressed stop"));
    await expect(pending).rejects.toThrow("the user pressed stop");
    await expect.poll(() => log.aborted).toBe(1);
  });

  test("a server that never answers is TOOL_EXECUTION_FAILED after timeoutMs, not a hang", async () => {
    const { client } = await scripted([tool], () => new Promise(() => {}));
    const result = await run((await fromMcpClient(client, { timeoutMs: 200 })).tools);
    expect(errorOf(result.content)).toEqual({
      code: "TOOL_EXECUTION_FAILED",
      message: "the MCP server did not answer within 200 ms",
    });
  });

  test("an error response is TOOL_EXECUTION_FAILED, bounded", async () => {
    const { client } = await scripted([tool], async () => {
      throw new McpError(ErrorCode.InvalidParams, `bad ${"y".repeat(5_000)}`);
    });
    const { code, message } = errorOf((await run((await fromMcpClient(client)).tools)).content);
    expect(code).toBe("TOOL_EXECUTION_FAILED");
    expect(message).toMatch(
      /^the MCP server answered with an error: MCP error -32602: .*bad y+… \[\d+ characters, cut\]$/,
    );
    expect([...message]).toHaveLength(MAX_FAILURE_CHARACTERS);
  });

  test("a connection that closes mid-call is TOOL_EXECUTION_FAILED", async () => {
    let close = async (): Promise<void> => {};
    const { client, server } = await scripted([tool], () => {
      void close();
      return new Promise(() => {});
    });
    close = () => server.close();
    const { message } = errorOf((await run((await fromMcpClient(client)).tools)).content);
    expect(message).toBe(
      "the connection to the MCP server closed before it answered (the server may have stopped)",
    );
  });
});

test("progress from the remote server reaches our own MCP client through toolbound's server", async () => {
  const { client: inner } = await scripted([tool], async (_params, extra: CallExtra) => {
    const token = extra._meta?.progressToken;
    for (const progress of [1, 2, 3]) {
      if (token !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress, total: 3 },
        });
      }
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  const { tools } = await fromMcpClient(inner);
  // toolbound serves the remote Tool in turn; our client asks it for progress.
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const proxy = await serveToolRegistry(new ToolRegistry(tools), serverSide, { log: () => {} });
  const outer = new Client({ name: "outer", version: "1.0.0" });
  await outer.connect(clientSide);
  try {
    const progress: number[] = [];
    const result = await outer.callTool({ name: "remote", arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    // The bridge writes text as text (its default format).
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toEqual([1, 2, 3]);
  } finally {
    await outer.close();
    await proxy.close();
  }
});
