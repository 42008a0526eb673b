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
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toBe("first\nsecond");
  });

  test("images, audio, resources and resource links each leave a line saying what they were", async () => {
    const { client } = await scripted([tool], async () => ({
      content: [
        { type: "image", data: "iVBORw0KGgoAAAANSUhEUg==", mimeType: "image/png" },
        { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
        {
          type: "resource",
          resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "hello" },
        },
        {
          type: "resource",
          resource: { uri: "file:///a.pdf", mimeType: "application/pdf", blob: "JVBERi0x" },
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
    expect(JSON.parse(result.content)).toBe(
      [
        "[image: image/png, 16 bytes]",
        "[audio: audio/wav, 12 bytes]",
        "[resource file:///notes.txt, text/plain]",
        "hello",
        "[resource file:///a.pdf, application/pdf, 6 bytes]",
        "[resource link big.log <file:///big.log>, text/plain: The build log]",
      ].join("\n"),
    );
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
