/**
 * A hostile server's patterns: fromMcpClient runs `pattern` and
 * `patternProperties` on a linear-time engine, so that a pattern which
 * backtracks exponentially on the platform's engine cannot hold the event
 * loop, and refuses, naming the Tool, a pattern that engine cannot run.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv } from "ajv";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  type AnyCourseTool,
  type CourseJsonObject,
  executeToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { type ListedTool, useScriptedServers } from "../../test/support/mcp-client.ts";
import { countNativeMatches } from "../../test/support/native-matches.ts";
import { fromMcpClient, linearTimePatterns, MAX_LISTING_COMPILE_COST } from "./index.ts";

const scripted = useScriptedServers();
const signal = new AbortController().signal;

// Exponential on a backtracking engine: forty characters and a mismatch take minutes.
const HOSTILE = "^(a+)+$";

const withSchema = (inputSchema: object): ListedTool => ({
  name: "lookup",
  description: "Looks a name up.",
  inputSchema: inputSchema as ListedTool["inputSchema"],
});

async function call(tools: readonly AnyCourseTool[], args: CourseJsonObject) {
  return executeToolCall(
    new ToolRegistry(tools),
    { type: "toolCall", id: "c1", name: "lookup", arguments: args },
    signal,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a pattern that backtracks exponentially", () => {
  test("in `pattern`: never matched by the platform's engine; a hostile value is refused at once", async () => {
    const native = countNativeMatches(HOSTILE);
    const { client, log } = await scripted([
      withSchema({ type: "object", properties: { name: { type: "string", pattern: HOSTILE } } }),
    ]);
    const { tools } = await fromMcpClient(client);
    expect((await call(tools, { name: "aaaa" })).isError).toBe(false);
    expect(native.count()).toBe(0);
    const refused = await call(tools, { name: `${"a".repeat(50_000)}!` });
    expect(JSON.parse(refused.content)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: 'arguments/name must match pattern "^(a+)+$"',
      },
    });
    expect(native.count()).toBe(0);
    expect(log.calls).toHaveLength(1);
  });

  test("in `patternProperties`: a hostile key is refused at once, never matched natively", async () => {
    const keys = "^(a|a)*$";
    const native = countNativeMatches(keys);
    const { client, log } = await scripted([
      withSchema({
        type: "object",
        patternProperties: { [keys]: { type: "number" } },
        additionalProperties: false,
      }),
    ]);
    const { tools } = await fromMcpClient(client);
    expect((await call(tools, { aaa: 1 })).isError).toBe(false);
    expect(native.count()).toBe(0);
    const refused = await call(tools, { [`${"a".repeat(50_000)}!`]: 1 });
    expect(JSON.parse(refused.content).error.message).toMatch(
      /^arguments must NOT have additional properties \("a+…"\)$/,
    );
    expect(native.count()).toBe(0);
    expect(log.calls).toHaveLength(1);
  });

  test('with patterns: "native", the platform\'s engine runs it (for a server you trust)', async () => {
    const native = countNativeMatches(HOSTILE);
    const { client } = await scripted([
      withSchema({ type: "object", properties: { name: { type: "string", pattern: HOSTILE } } }),
    ]);
    const { tools } = await fromMcpClient(client, { patterns: "native" });
    expect((await call(tools, { name: "aaaa" })).isError).toBe(false);
    expect(native.count()).toBeGreaterThan(0);
  });
});

test("a pattern read with ECMAScript's meaning: \\s matches a no-break space, as the schema means", async () => {
  const { client, log } = await scripted([
    withSchema({ type: "object", properties: { word: { type: "string", pattern: "^\\S+$" } } }),
  ]);
  const { tools } = await fromMcpClient(client);
  expect((await call(tools, { word: "two\u00a0words" })).isError).toBe(true);
  expect((await call(tools, { word: "one" })).isError).toBe(false);
  expect(log.calls).toHaveLength(1);
});

test("a pattern that opens with lookaheads is taken, each checked as a pattern of its own", async () => {
  // A password rule: a digit somewhere, no white space, eight characters or more.
  const pattern = "^(?=.*\\d)(?!.*\\s).{8,}$";
  const { client, log } = await scripted([
    withSchema({ type: "object", properties: { word: { type: "string", pattern } } }),
  ]);
  const native = countNativeMatches(pattern);
  const { tools } = await fromMcpClient(client);
  const refused = await call(tools, { word: "no digits here" });
  expect(refused.isError).toBe(true);
  expect(refused.content).toMatch(/TOOL_ARGUMENTS_INVALID/);
  expect((await call(tools, { word: "two words 2" })).isError).toBe(true);
  expect((await call(tools, { word: "password1" })).isError).toBe(false);
  // Only the valid arguments reached the server; the platform's engine matched nothing.
  expect(log.calls).toHaveLength(1);
  vi.restoreAllMocks();
  expect(native.count()).toBe(0);
});

describe("a pattern the linear-time engine cannot run refuses its Tool, saying why", () => {
  test.each([
    ["lookahead", "^.(?=.*\\d).+$", /pattern "\^\.\(\?=\.\*\\\\d\)\.\+\$": lookaround cannot run/],
    ["a backreference", "^(a)\\1$", /backreference \(\\1\) cannot run in linear time/],
    ["a repeat count over 1,000", "^a{2000}$", /has no linear-time form/],
  ])("%s", async (_what, pattern, reason) => {
    const { client } = await scripted([
      withSchema({ type: "object", properties: { name: { type: "string", pattern } } }),
    ]);
    const refusal = fromMcpClient(client);
    await expect(refusal).rejects.toMatchObject({ code: "INVALID_TOOL_DEFINITION" });
    await expect(refusal).rejects.toThrow(
      /^fromMcpClient: Tool "lookup": its inputSchema cannot be checked: /,
    );
    await expect(refusal).rejects.toThrow(reason);
  });

  test("excluding the Tool takes the others", async () => {
    const { client } = await scripted([
      withSchema({ type: "object", properties: { name: { type: "string", pattern: "(?=a)" } } }),
      { name: "other", inputSchema: { type: "object" } },
    ]);
    const { tools } = await fromMcpClient(client, { exclude: ["lookup"] });
    expect(tools.map((tool) => tool.name)).toEqual(["other"]);
  });
});

test("a listing's patterns share one compile budget: the Tool that passes it is refused, naming it", async () => {
  // 28 characters of pattern that compile to about 4,900 instructions (800 KB) each: four per
  // Tool fit a schema's budget, and 26 such Tools pass the listing's.
  const heavy = (tool: number, index: number) => `.{0,1000}.{0,1000}.{0,450}b$|^${tool}-${index}$`;
  const listed = Array.from({ length: 30 }, (_, tool) => ({
    name: `t${tool}`,
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 4 }, (_, index) => [
          `p${index}`,
          { type: "string", pattern: heavy(tool, index) },
        ]),
      ),
    } as ListedTool["inputSchema"],
  }));
  const { client } = await scripted(listed);
  const refusal = await fromMcpClient(client).then(
    () => "defined",
    (thrown: unknown) => (thrown instanceof Error ? thrown.message : String(thrown)),
  );
  expect(refusal).toMatch(
    new RegExp(
      `^fromMcpClient: Tool "t(\\d+)": its inputSchema cannot be checked: the server's schemas, all Tools together, cost more than ${MAX_LISTING_COMPILE_COST} to compile`,
    ),
  );
  const refused = Number(/Tool "t(\d+)"/.exec(refusal)?.[1]);
  expect(refused).toBeGreaterThan(20);
  expect(refused).toBeLessThan(30);
});

/**
 * Connects `client` to a server whose one Tool, "lookup", declares an output schema with the
 * hostile pattern, and answers each call with the structured content `value()`.
 */
async function connectHostileOutput(client: Client, value: () => string): Promise<void> {
  const server = new Server({ name: "hostile", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "lookup",
        inputSchema: { type: "object" },
        outputSchema: { type: "object", properties: { v: { type: "string", pattern: HOSTILE } } },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [],
    structuredContent: { v: value() },
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
}

test("structured content is checked by fromMcpClient on its engine, not by the client's validator", async () => {
  // The client's default validator would run the hostile pattern on the platform's engine.
  const native = countNativeMatches(HOSTILE);
  let value = "aaaa";
  const client = new Client({ name: "agent", version: "1.0.0" });
  await connectHostileOutput(client, () => value);
  try {
    const { tools } = await fromMcpClient(client);
    expect((await call(tools, {})).content).toBe('{"v":"aaaa"}');
    expect(native.count()).toBe(0);
    value = `${"a".repeat(50_000)}!`;
    const refused = await call(tools, {});
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content).error.message).toMatch(
      /^the server's structured content does not match the Tool's output schema: structuredContent\/v must match pattern/,
    );
    expect(native.count()).toBe(0);
  } finally {
    await client.close();
  }
});

test("the SDK client's own output check runs on the same engine when given it", async () => {
  // For the host's own calls of client.callTool: the engine serves the client's Ajv too.
  const native = countNativeMatches(HOSTILE);
  const regExp = await linearTimePatterns();
  const client = new Client(
    { name: "agent", version: "1.0.0" },
    {
      jsonSchemaValidator: new AjvJsonSchemaValidator(
        new Ajv({ strict: false, inlineRefs: false, code: { regExp, optimize: false } }),
      ),
    },
  );
  await connectHostileOutput(client, () => `${"a".repeat(50_000)}!`);
  try {
    await client.listTools();
    await expect(client.callTool({ name: "lookup", arguments: {} })).rejects.toThrow(
      /Structured content does not match the tool's output schema/,
    );
    expect(native.count()).toBe(0);
  } finally {
    await client.close();
  }
});
