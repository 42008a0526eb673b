/**
 * fromMcpClient against server processes that misbehave on the wire: one
 * that dies mid-call, one that never answers, one that answers with a
 * malformed result. Each is a real child process on stdio, written as raw
 * JSON-RPC so it can do what no SDK server would.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { type AnyCourseTool, executeToolCall, ToolRegistry } from "../../course/src/index.ts";
import { fromMcpClient } from "./index.ts";

const RAW_SERVER = `
import { createInterface } from "node:readline";
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
const tool = (name) => ({ name, description: "The " + name + " Tool.", inputSchema: { type: "object" } });
createInterface({ input: process.stdin }).on("line", (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === "initialize") {
    send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "raw", version: "1.0.0" } } });
  } else if (method === "tools/list") {
    send({ id, result: { tools: ["crash", "silent", "malformed", "fine"].map(tool) } });
  } else if (method === "tools/call") {
    if (params.name === "crash") process.kill(process.pid, "SIGKILL");
    if (params.name === "malformed") send({ id, result: { content: "not a list", isError: "perhaps" } });
    if (params.name === "fine") send({ id, result: { content: [{ type: "text", text: "fine" }] } });
    // "silent" never answers.
  } else if (id !== undefined) {
    send({ id, result: {} });
  }
});
`;

let directory = "";
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "toolbound-raw-mcp-"));
  writeFileSync(join(directory, "raw-server.mjs"), RAW_SERVER);
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
});

async function rawServerTools(timeoutMs?: number): Promise<readonly AnyCourseTool[]> {
  const client = new Client({ name: "toolbound-raw-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(directory, "raw-server.mjs")],
      stderr: "pipe",
    }),
  );
  return (await fromMcpClient(client, timeoutMs === undefined ? {} : { timeoutMs })).tools;
}

async function call(tools: readonly AnyCourseTool[], name: string) {
  const result = await executeToolCall(
    new ToolRegistry(tools),
    { type: "toolCall", id: "c1", name, arguments: {} },
    new AbortController().signal,
  );
  // Errors are JSON; a success is the server's text, as it is.
  const output: unknown = result.isError ? JSON.parse(result.content) : result.content;
  return { isError: result.isError, output };
}

test("a server process that dies mid-call is TOOL_EXECUTION_FAILED, and so is every later call", {
  timeout: 30_000,
}, async () => {
  const tools = await rawServerTools();
  expect(await call(tools, "crash")).toEqual({
    isError: true,
    output: {
      error: {
        code: "TOOL_EXECUTION_FAILED",
        message:
          "the connection to the MCP server closed before it answered (the server may have stopped)",
      },
    },
  });
  expect(await call(tools, "fine")).toMatchObject({
    isError: true,
    output: { error: { code: "TOOL_EXECUTION_FAILED" } },
  });
});

test("a server that never answers is TOOL_EXECUTION_FAILED at the deadline; the connection goes on", {
  timeout: 30_000,
}, async () => {
  const tools = await rawServerTools(300);
  expect(await call(tools, "silent")).toEqual({
    isError: true,
    output: {
      error: {
        code: "TOOL_EXECUTION_FAILED",
        message: "the MCP server did not answer within 300 ms",
      },
    },
  });
  expect(await call(tools, "fine")).toEqual({ isError: false, output: "fine" });
});

test("a malformed result is TOOL_EXECUTION_FAILED with a bounded reason", {
  timeout: 30_000,
}, async () => {
  const tools = await rawServerTools();
  const { output } = await call(tools, "malformed");
  const { error } = output as { error: { code: string; message: string } };
  expect(error.code).toBe("TOOL_EXECUTION_FAILED");
  expect(error.message).toBe(
    "the MCP server's result is not a valid tools/call result: content: Invalid input: expected array, received string; isError: Invalid input: expected boolean, received string",
  );
  expect([...error.message].length).toBeLessThanOrEqual(1_000);
});
