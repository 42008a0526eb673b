/**
 * `toolbound mcp`, started as a child process and driven by the official MCP
 * SDK Client over stdio, exactly as an MCP host would.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { COURSE_TOOL_OUTPUT_CAP_CHARACTERS } from "../../course/src/index.ts";
import {
  BINARY,
  EXAMPLES,
  ensureBuilt,
  finished,
  lineOn,
  lines,
  ROOT,
  run,
  start,
  writeFixtures,
} from "../../test/support/cli.ts";

/** A connected client, the errors it saw (a stray line on stdout would be one), and the server's stderr. */
interface Session {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  readonly clientErrors: Error[];
  readonly stderr: NodeJS.ReadableStream;
}

async function connect(module: string): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BINARY, "mcp", module],
    cwd: ROOT,
    stderr: "pipe",
  });
  // With stderr "pipe" the transport hands out the stream before the process starts.
  const stderr = transport.stderr as unknown as NodeJS.ReadableStream;
  const client = new Client({ name: "toolbound-cli-test", version: "1.0.0" });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
  return { client, transport, clientErrors, stderr };
}

let fixtures = "";
let session: Session;
beforeAll(async () => {
  await ensureBuilt();
  fixtures = writeFixtures();
  session = await connect(join(fixtures, "probe.mjs"));
}, 180_000);
afterAll(async () => {
  await session?.client.close();
  rmSync(fixtures, { recursive: true, force: true });
});

/** The text of a result's only content block (the bridge always writes exactly one). */
function text(result: Record<string, unknown>): string {
  const content = result.content as [{ type: string; text: string }];
  expect(content).toHaveLength(1);
  return content[0].text;
}

describe("toolbound mcp over stdio", { timeout: 60_000 }, () => {
  test("tools/list matches `toolbound list --format mcp` Tool for Tool", async () => {
    const { tools } = await session.client.listTools();
    const listed = await run(["list", join(fixtures, "probe.mjs"), "--format", "mcp"]);
    expect(tools.map((tool) => tool.name)).toEqual([
      "add",
      "repeat",
      "today",
      "read_file",
      "sleep",
      "probe",
      "fatal",
      "stuck",
    ]);
    expect(tools).toEqual(JSON.parse(listed.stdout));
  });

  test("a valid call returns the Tool's output", async () => {
    const result = await session.client.callTool({
      name: "add",
      arguments: { left: 20, right: 22 },
    });
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":42}' }], isError: false });
  });

  test("invalid arguments come back as an isError result", async () => {
    const result = await session.client.callTool({ name: "add", arguments: { left: "twenty" } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "left must be a number" },
    });
  });

  test("an unknown Tool comes back as an isError result", async () => {
    const result = await session.client.callTool({ name: "rm_rf", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result)).error).toEqual({
      code: "TOOL_NOT_FOUND",
      message: 'Unknown Tool "rm_rf"',
    });
  });

  test("a huge output arrives truncated to the cap with one marker", async () => {
    const result = await session.client.callTool({
      name: "repeat",
      arguments: { text: "all work and no play ", times: 2_000_000 },
    });
    expect(result.isError).toBe(false);
    const content = text(result);
    expect([...content]).toHaveLength(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    // Text by default: the string itself, and one marker saying what was kept.
    expect(content.startsWith("all work and no play")).toBe(true);
    expect(content).toMatch(/\n\[Tool output truncated: \d+ of 42000000 characters kept\]$/);
    expect(content.split("[Tool output truncated")).toHaveLength(2);
  });

  test("a call the client cancels aborts the Tool's signal and gets no answer", async () => {
    const aborted = lineOn(session.stderr, (line) => line.startsWith("probe: aborted"));
    const started = lineOn(session.stderr, (line) => line.startsWith("probe: started"));
    const controller = new AbortController();
    const pending = session.client.callTool({ name: "probe", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await started;
    controller.abort(new Error("the user pressed stop"));
    await expect(pending).rejects.toThrow("the user pressed stop");
    await aborted;
    // Answers come back in order: anything sent for the cancelled call would arrive first.
    const after = await session.client.callTool({ name: "add", arguments: { left: 1, right: 1 } });
    expect(text(after)).toBe('{"sum":2}');
    expect(session.clientErrors).toEqual([]);
  });

  test("a NonRecoverableToolError is a JSON-RPC error, logged on stderr and never on stdout", async () => {
    const logged = lineOn(session.stderr, (line) => line.includes("ledger is inconsistent"));
    const failure = session.client.callTool({ name: "fatal", arguments: {} });
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.InternalError });
    expect(await logged).toMatch(
      /^toolbound mcp: request \d+: Tool "fatal" stopped with a non-recoverable error: NonRecoverableToolError: ledger is inconsistent$/,
    );
    // The server keeps serving.
    const after = await session.client.callTool({ name: "add", arguments: { left: 2, right: 2 } });
    expect(text(after)).toBe('{"sum":4}');
    expect(session.clientErrors).toEqual([]);
  });
});

describe.concurrent("the server process", { timeout: 60_000 }, () => {
  test("says on stderr what it serves, and exits 0 when standard input ends", async () => {
    const child = start(["mcp", EXAMPLES]);
    const done = finished(child);
    await lineOn(child.stderr, (line) => line.startsWith("toolbound mcp: serving"));
    child.stdin.end();
    const { code, stdout, stderr } = await done;
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual([`toolbound mcp: serving 5 Tools from ${EXAMPLES} over stdio`]);
  });

  test("on SIGINT aborts the call in flight, answers nothing for it, and exits 130", async () => {
    const child = start(["mcp", join(fixtures, "probe.mjs")]);
    const done = finished(child);
    const send = (message: object): void => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    };
    send({
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "raw-client", version: "1.0.0" },
      },
    });
    await lineOn(child.stdout, (line) => line.includes('"id":1'));
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/call", params: { name: "probe", arguments: {} } });
    await lineOn(child.stderr, (line) => line === "probe: started");
    child.kill("SIGINT");
    const { code, stdout, stderr } = await done;
    expect(code).toBe(130);
    expect(lines(stdout).map((line) => JSON.parse(line).id)).toEqual([1]);
    expect(lines(stderr).filter((line) => line === "probe: aborted")).toHaveLength(1);
  });
});
