/**
 * `toolbound mcp --max-output-characters <n> --truncate <strategy> --format
 * <format>`, started
 * as a child process and driven by the official MCP SDK Client over stdio,
 * as an MCP host would run it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, test } from "vitest";
import { COURSE_TOOL_OUTPUT_CAP_CHARACTERS } from "../../course/src/index.ts";
import {
  BINARY,
  finished,
  lineOn,
  lines,
  ROOT,
  run,
  start,
  useBuiltFixtures,
} from "../../test/support/cli.ts";

const fixture = useBuiltFixtures();

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/** Starts `toolbound mcp <module> …flags` and answers a connected client and the errors it saw. */
async function connect(module: string, flags: readonly string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BINARY, "mcp", module, ...flags],
    cwd: ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: "toolbound-budget-test", version: "1.0.0" });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
  open.push(client);
  return { client, clientErrors };
}

/** Calls a Tool and answers the text of the result's only content block. */
async function callText(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(false);
  const content = result.content as [{ type: string; text: string }];
  expect(content).toHaveLength(1);
  return content[0].text;
}

const TWENTY_KB_ARGS = { text: "0123456789", times: 2_000 };

describe("toolbound mcp with output flags", { timeout: 60_000 }, () => {
  test("--max-output-characters 50000: a 20 KB output arrives whole", async () => {
    const { client, clientErrors } = await connect(fixture("log.mjs"), [
      "--max-output-characters",
      "50000",
    ]);
    const text = await callText(client, "repeat", TWENTY_KB_ARGS);
    expect(text === "0123456789".repeat(2_000)).toBe(true);
    expect(clientErrors).toEqual([]);
  });

  test("--format json: the course's JSON text", async () => {
    const { client } = await connect(fixture("log.mjs"), ["--format", "json"]);
    const text = await callText(client, "add", { left: 1, right: 2 });
    expect(text).toBe('{"sum":3}');
    const log = await callText(client, "log");
    expect(log.startsWith('"line 1\\u000aline 2')).toBe(true);
  });

  test("a Tool's image arrives as an MCP image item", async () => {
    const { client } = await connect(fixture("media.mjs"), []);
    const result = await client.callTool({ name: "chart", arguments: {} });
    expect(result.content).toEqual([
      { type: "text", text: "Rendered." },
      { type: "image", data: expect.stringMatching(/^iVBORw0KGgo/), mimeType: "image/png" },
      {
        type: "text",
        text: "[file omitted: declared application/pdf, but the bytes are image/png]",
      },
    ]);
  });

  test("--truncate tail: a long log arrives as its tail, the marker first", async () => {
    const { client } = await connect(fixture("log.mjs"), ["--truncate", "tail"]);
    const text = await callText(client, "log");
    expect([...text].length).toBeLessThanOrEqual(COURSE_TOOL_OUTPUT_CAP_CHARACTERS);
    expect([...text].length).toBeGreaterThan(COURSE_TOOL_OUTPUT_CAP_CHARACTERS - 2);
    expect(text).toMatch(/^\[Tool output truncated: \d+ of 48892 characters kept\]\n/);
    expect(text.endsWith("line 5000")).toBe(true);
    // The same 20 KB output, without a raised budget, is still cut: the flags are all that changed.
    expect(await callText(client, "repeat", TWENTY_KB_ARGS)).toMatch(
      /^\[Tool output truncated: \d+ of 20000 characters kept\]\n/,
    );
  });
});

describe.concurrent("the server process with output flags", { timeout: 60_000 }, () => {
  test("says on stderr which output flags it serves with", async () => {
    const child = start(["mcp", fixture("log.mjs"), "--max-output-characters", "50000"]);
    const done = finished(child);
    const line = await lineOn(child.stderr, (text) => text.startsWith("toolbound mcp: serving"));
    child.stdin.end();
    const { code, stdout } = await done;
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(line).toBe(
      `toolbound mcp: serving 6 Tools from ${fixture("log.mjs")} over stdio; results up to 50000 characters`,
    );
  });

  test.each([
    [
      ["--max-output-characters", "100"],
      "toolbound: option '--max-output-characters <n>' argument '100' is invalid. " +
        "It must be a whole number of characters from 1024 to 10000000.",
    ],
    [
      ["--truncate", "end"],
      "toolbound: option '--truncate <strategy>' argument 'end' is invalid. " +
        "Allowed choices are head, tail, head-and-tail.",
    ],
  ])("%j exits 1 with one line on stderr and nothing on stdout", async (flags, message) => {
    const { code, stdout, stderr } = await run(["mcp", fixture("log.mjs"), ...flags]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual([message]);
  });
});
