/**
 * boundedJsonSchemaValidator in the MCP SDK's own client: its `listTools()`
 * and `callTool()` compile and check a server's output schemas within the
 * bounds fromMcpClient keeps, where the SDK's default validator runs a
 * hostile one for as long as it takes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test, vi } from "vitest";
import { doubling } from "../../test/support/hostile-schemas.ts";
import { countNativeMatches } from "../../test/support/native-matches.ts";
import { boundedJsonSchemaValidator, MAX_CHECK_STEPS, MAX_SCHEMA_COMPILE_COST } from "./index.ts";
import { loadAjv } from "./json-schema-check.ts";

const ajv = await loadAjv();
const open: Client[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.splice(0).map((client) => client.close()));
});

/** A client with the bounded validator, connected to a server listing `tools` and answering `content`. */
async function connected(tools: object[], content: unknown = { x: 1 }): Promise<Client> {
  const server = new Server({ name: "hostile", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }) as never);
  server.setRequestHandler(CallToolRequestSchema, () => ({
    content: [],
    structuredContent: content as Record<string, unknown>,
  }));
  const client = new Client(
    { name: "agent", version: "1.0.0" },
    { jsonSchemaValidator: await boundedJsonSchemaValidator() },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push(client);
  return client;
}

const tool = (outputSchema: object) => ({
  name: "t",
  inputSchema: { type: "object" },
  outputSchema,
});

describe("attacks through the SDK client's own methods", () => {
  test("a $ref chain doubling 60 times: callTool rejects at the step bound", async () => {
    // With the SDK's default validator this call never returns.
    const client = await connected([tool(doubling(60))]);
    await client.listTools();
    await expect(client.callTool({ name: "t", arguments: {} })).rejects.toThrow(
      `Structured content does not match the tool's output schema: checking it takes too long (the check applies the schema's objects over ${MAX_CHECK_STEPS} times)`,
    );
  });

  test("an output schema over its compile budget: listTools rejects before Ajv reads it", async () => {
    const compiles = vi.spyOn(ajv.draft2020.prototype, "compile");
    const properties = Object.fromEntries(
      Array.from({ length: 2_000 }, (_, index) => [`p${index}`, { type: "string" }]),
    );
    const client = await connected([tool({ type: "object", properties })]);
    await expect(client.listTools()).rejects.toThrow(
      `the schema cannot be checked: the schema cost more than ${MAX_SCHEMA_COMPILE_COST} to compile`,
    );
    expect(compiles).not.toHaveBeenCalled();
  });

  test("a listing's schemas share one budget: the schemas of one listTools() draw on it together", async () => {
    // Four patterns of about 4,900 instructions each: about 19,800 a schema, under its own
    // 20,000, so about 25 schemas fill the listing's 500,000.
    let serial = 0;
    const heavy = () => {
      serial += 1;
      return `(?:.{0,1000}.{0,1000}.{0,450}b$)(?:(?:${serial}){0})`;
    };
    const tools = Array.from({ length: 40 }, (_, index) => ({
      ...tool({
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: 4 }, (_, field) => [
            `f${field}`,
            { type: "string", pattern: heavy() },
          ]),
        ),
      }),
      name: `t${index}`,
    }));
    const client = await connected(tools);
    await expect(client.listTools()).rejects.toThrow(
      /the server's schemas, all Tools together, cost more than 500000 to compile/,
    );
  });

  test("a backtracking pattern never runs on the platform's engine", async () => {
    const native = countNativeMatches("^(a+)+$");
    const client = await connected(
      [tool({ type: "object", properties: { v: { type: "string", pattern: "^(a+)+$" } } })],
      { v: `${"a".repeat(50_000)}!` },
    );
    await client.listTools();
    await expect(client.callTool({ name: "t", arguments: {} })).rejects.toThrow(
      "Structured content does not match the tool's output schema: data/v must match pattern",
    );
    expect(native.count()).toBe(0);
  });
});

describe("ordinary output schemas", () => {
  test.each([
    ["matching content is the result", { x: 1 }, undefined],
    ["content that does not match is refused", { x: "1" }, "data/x must be number"],
  ])("%s", async (_what, content, error) => {
    const client = await connected(
      [tool({ type: "object", properties: { x: { type: "number" } }, required: ["x"] })],
      content,
    );
    await client.listTools();
    const call = client.callTool({ name: "t", arguments: {} });
    if (error === undefined) {
      expect((await call).structuredContent).toEqual(content);
    } else {
      await expect(call).rejects.toThrow(
        `Structured content does not match the tool's output schema: ${error}`,
      );
    }
  });

  test("a bad option is a TypeError", async () => {
    await expect(boundedJsonSchemaValidator({ patterns: "re2" as never })).rejects.toThrow(
      new TypeError('boundedJsonSchemaValidator: patterns must be "linear-time" or "native"'),
    );
  });
});
