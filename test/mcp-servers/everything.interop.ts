/**
 * server-everything's Tools behind our boundary, through fromMcpClient and
 * a ToolRegistry: its echo and sum, its tiny image, its structured content,
 * its resource links, and its long-running operation with progress,
 * cancelled midway.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, test, vi } from "vitest";
import {
  type CourseJsonObject,
  executeToolCall,
  ToolRegistry,
  type ToolRegistryOptions,
} from "../../course/src/index.ts";
import { fromMcpClient, serveToolRegistry } from "../../src/mcp/index.ts";
import { useReferenceServers } from "./support/servers.ts";

const connect = useReferenceServers();

/** server-everything's Tools in a registry, with one call. */
async function everything(options: ToolRegistryOptions = {}) {
  const connected = await connect("server-everything", ["stdio"]);
  const registry = new ToolRegistry(
    (await fromMcpClient(connected.client, { prefix: "everything_" })).tools,
    options,
  );
  return { ...connected, registry };
}

async function call(registry: ToolRegistry, name: string, args: CourseJsonObject = {}) {
  const result = await executeToolCall(
    registry,
    { type: "toolCall", id: `call-${name}`, name, arguments: args },
    new AbortController().signal,
  );
  return {
    isError: result.isError,
    parts: result.parts,
    // An error result is JSON; a success is the server's text, as it is.
    output: () => (result.isError ? (JSON.parse(result.content) as unknown) : result.content),
    content: result.content,
  };
}

const toolCalls = (sent: readonly JSONRPCMessage[]) =>
  sent.filter((message) => "method" in message && message.method === "tools/call");

describe("server-everything through fromMcpClient", () => {
  test("one call puts its Tools in a registry, prefixed; the task-only Tool is left out", async () => {
    const { registry } = await everything();
    expect(registry.names).toEqual(
      expect.arrayContaining([
        "everything_echo",
        "everything_get-sum",
        "everything_get-tiny-image",
      ]),
    );
    expect(registry.names).not.toContain("everything_simulate-research-query");
    expect(registry.names.every((name) => name.startsWith("everything_"))).toBe(true);
  });

  test("echo and get-sum answer with their text", async () => {
    const { registry } = await everything();
    const echo = await call(registry, "everything_echo", { message: "hello" });
    expect([echo.isError, echo.output()]).toEqual([false, "Echo: hello"]);
    const sum = await call(registry, "everything_get-sum", { a: 2, b: 3 });
    expect([sum.isError, sum.output()]).toEqual([false, "The sum of 2 and 3 is 5."]);
  });

  test("arguments its schema refuses are TOOL_ARGUMENTS_INVALID, and no tools/call is sent", async () => {
    const { registry, sent } = await everything();
    const before = toolCalls(sent).length;
    const refused = await call(registry, "everything_get-sum", { a: "two", b: 3 });
    expect(refused.isError).toBe(true);
    expect(refused.output()).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "arguments/a must be number" },
    });
    expect(toolCalls(sent).length).toBe(before);
  });

  test("its tiny image arrives as an image part, after its text", async () => {
    const { registry } = await everything();
    const { isError, output, parts } = await call(registry, "everything_get-tiny-image");
    expect(isError).toBe(false);
    expect(output()).toMatch(/^Here's the image you requested:\n\[image: image\/png, \d+ bytes\]/);
    expect(parts?.map((part) => part.type)).toEqual(["text", "image", "text"]);
    expect(parts?.[1]).toMatchObject({ type: "image", mimeType: "image/png" });
  });

  test("structured content is checked against its output schema by fromMcpClient and arrives as its text", async () => {
    // Not by the client's own validator, which no budget bounds.
    const sdkValidators = vi.spyOn(AjvJsonSchemaValidator.prototype, "getValidator");
    const { registry } = await everything();
    const { isError, output } = await call(registry, "everything_get-structured-content", {
      location: "Chicago",
    });
    expect(isError).toBe(false);
    expect(Object.keys(JSON.parse(String(output())) as object)).toEqual([
      "temperature",
      "conditions",
      "humidity",
    ]);
    expect(sdkValidators).not.toHaveBeenCalled();
    sdkValidators.mockRestore();
  });

  test("resource links arrive as text lines", async () => {
    const { registry } = await everything();
    const { output } = await call(registry, "everything_get-resource-links", { count: 2 });
    const lines = String(output()).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        /^\[resource link Blob Resource 1 <demo:\/\/resource\/dynamic\/blob\/1>, text\/plain: /,
      ),
      expect.stringMatching(
        /^\[resource link Text Resource 2 <demo:\/\/resource\/dynamic\/text\/2>, text\/plain: /,
      ),
    ]);
  });

  test("every result is bounded by the registry's budget", async () => {
    const { registry } = await everything({ outputBudget: { maxCharacters: 1_024 } });
    const calls: [string, CourseJsonObject][] = [
      ["everything_get-env", {}],
      ["everything_get-tiny-image", {}],
      ["everything_get-resource-links", { count: 10 }],
      ["everything_echo", { message: "x".repeat(5_000) }],
    ];
    expect(calls.length).toBeGreaterThan(0);
    for (const [name, args] of calls) {
      const { content } = await call(registry, name, args);
      expect([...content].length, name).toBeLessThanOrEqual(1_024);
    }
  });

  test("its long-running operation reports progress through toolbound's own server, and cancelling it midway sends notifications/cancelled", async () => {
    const { registry, sent } = await everything();
    // toolbound serves server-everything's Tools on; an outer client calls through it.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const proxy = await serveToolRegistry(registry, serverSide, { log: () => {} });
    const outer = new Client({ name: "outer", version: "1.0.0" });
    await outer.connect(clientSide);
    try {
      const progress: number[] = [];
      const controller = new AbortController();
      let midway = (): void => {};
      const twoSteps = new Promise<void>((resolve) => {
        midway = resolve;
      });
      const pending = outer.callTool(
        {
          name: "everything_trigger-long-running-operation",
          arguments: { duration: 30, steps: 60 },
        },
        undefined,
        {
          signal: controller.signal,
          onprogress: (update) => {
            progress.push(update.progress);
            if (progress.length === 2) midway();
          },
        },
      );
      await twoSteps;
      controller.abort(new Error("the user pressed stop"));
      await expect(pending).rejects.toThrow("the user pressed stop");
      await expect
        .poll(() =>
          sent.filter(
            (message) => "method" in message && message.method === "notifications/cancelled",
          ),
        )
        .toHaveLength(1);
      const seen = progress.length;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(progress.length).toBe(seen);
      expect(progress.slice(0, 2)).toEqual([1, 2]);
    } finally {
      await outer.close();
      await proxy.close();
    }
  });
});
