/**
 * fromMcpClient, what it makes of another server's list: names, prefixes,
 * filters, collisions, descriptions, schemas, local argument checks and
 * refresh, against the official SDK's server in the same process.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import {
  type AnyCourseTool,
  type CourseJsonObject,
  executeToolCall,
  ToolContractError,
  ToolRegistry,
} from "../../course/src/index.ts";
import {
  connectClient,
  type ListedTool,
  objectSchema,
  useScriptedServers,
} from "../../test/support/mcp-client.ts";
import { fromMcpClient, MAX_ARGUMENT_ERROR_CHARACTERS } from "./index.ts";

const scripted = useScriptedServers();
const signal = new AbortController().signal;

const tool = (name: string, extra: Partial<ListedTool> = {}): ListedTool => ({
  name,
  description: `The ${name} Tool.`,
  inputSchema: { type: "object" },
  ...extra,
});

async function call(tools: readonly AnyCourseTool[], name: string, args: CourseJsonObject) {
  return executeToolCall(
    new ToolRegistry(tools),
    { type: "toolCall", id: "c1", name, arguments: args },
    signal,
  );
}

describe("names", () => {
  test("a prefix goes before every name; the server is still called by its own name", async () => {
    const { client, log } = await scripted([tool("echo"), tool("sum")]);
    const { tools } = await fromMcpClient(client, { prefix: "everything_" });
    expect(tools.map((definition) => definition.name)).toEqual([
      "everything_echo",
      "everything_sum",
    ]);
    await call(tools, "everything_echo", {});
    expect(log.calls.map((params) => params.name)).toEqual(["echo"]);
  });

  test.each([
    ["a list", { include: ["echo", "sum"] }, ["echo", "sum"]],
    ["a predicate", { include: (name: string) => name !== "write" }, ["echo", "sum"]],
    ["exclude", { exclude: ["write"] }, ["echo", "sum"]],
    ["both", { include: ["echo", "write"], exclude: ["write"] }, ["echo"]],
  ])("include and exclude as %s take the Tools named", async (_what, options, names) => {
    const { client } = await scripted([tool("echo"), tool("sum"), tool("write")]);
    const { tools } = await fromMcpClient(client, options);
    expect(tools.map((definition) => definition.name)).toEqual(names);
  });

  test.each([
    ["a space", "read file"],
    ["a slash", "fs/read"],
    ["129 characters", "x".repeat(129)],
  ])("a name with %s is refused, quoted and cut, naming the rule", async (_what, name) => {
    const { client } = await scripted([tool(name)]);
    const refusal = fromMcpClient(client);
    await expect(refusal).rejects.toBeInstanceOf(ToolContractError);
    await expect(refusal).rejects.toThrow(/breaks MCP's name rule .*; exclude it$/);
    await expect(refusal).rejects.toMatchObject({ code: "INVALID_TOOL_DEFINITION" });
  });

  test("a name that only breaks the rule with the prefix is refused too", async () => {
    const { client } = await scripted([tool("x".repeat(120))]);
    await expect(fromMcpClient(client, { prefix: "a_long_prefix_" })).rejects.toThrow(
      /with prefix/,
    );
  });

  test("two Tools of one name are refused; excluding one resolves it", async () => {
    const { client } = await scripted([tool("echo"), tool("echo"), tool("sum")]);
    await expect(fromMcpClient(client)).rejects.toThrow('the server lists two Tools named "echo"');
    const { tools } = await fromMcpClient(client, { include: ["sum"] });
    expect(tools).toHaveLength(1);
  });

  test("names colliding with the host's own Tools are refused by the registry; a prefix avoids it", async () => {
    const { client } = await scripted([tool("echo")]);
    const theirs = (await fromMcpClient(client)).tools;
    const ours = (await fromMcpClient(client, { prefix: "remote_" })).tools;
    expect(() => new ToolRegistry([...theirs, ...theirs])).toThrow(ToolContractError);
    expect(new ToolRegistry([...theirs, ...ours]).names).toEqual(["echo", "remote_echo"]);
  });
});

describe("descriptions", () => {
  test("a 1 MB description is cut to 4096 code points, ending with a marker", async () => {
    const { client } = await scripted([tool("long", { description: "é".repeat(1_048_576) })]);
    const [definition] = (await fromMcpClient(client)).tools;
    const description = definition?.description ?? "";
    expect([...description]).toHaveLength(4_096);
    expect(description.endsWith("… [description cut: 1048576 characters]")).toBe(true);
  });

  test("a cut never splits a surrogate pair", async () => {
    const { client } = await scripted([tool("emoji", { description: "😀".repeat(200) })]);
    const [definition] = (await fromMcpClient(client, { maxDescriptionCharacters: 100 })).tools;
    expect(definition?.description).toMatch(/^(😀)+… \[description cut: 400 characters\]$/u);
  });

  test.each([
    ["no description: the title", { description: undefined, title: "Echo back" }, "Echo back"],
    ["a blank one: the title", { description: "  ", title: "Echo back" }, "Echo back"],
    [
      "neither: a sentence naming the server",
      { description: undefined },
      'Tool "bare" of the MCP server "scripted".',
    ],
  ])("%s", async (_what, fields, expected) => {
    const { client } = await scripted([{ ...tool("bare"), ...fields } as ListedTool]);
    expect((await fromMcpClient(client)).tools[0]?.description).toBe(expected);
  });
});

describe("schemas and the local argument check", () => {
  const schema2020 = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { path: { type: "string", minLength: 1 } },
    properties: { path: { $ref: "#/$defs/path" } },
    required: ["path"],
    additionalProperties: false,
  } as ListedTool["inputSchema"];

  test("the inputSchema is kept, whole, as parameters", async () => {
    const { client } = await scripted([tool("read", { inputSchema: schema2020 })]);
    expect((await fromMcpClient(client)).tools[0]?.parameters).toEqual(schema2020);
  });

  test.each([
    [{}, "arguments must have required property 'path'"],
    [{ path: "" }, "arguments/path must NOT have fewer than 1 characters"],
    [{ path: 7 }, "arguments/path must be string"],
    [{ path: "a", mode: "w" }, 'arguments must NOT have additional properties ("mode")'],
  ])("%j is TOOL_ARGUMENTS_INVALID (%s) and nothing is sent", async (args, message) => {
    const { client, log } = await scripted([tool("read", { inputSchema: schema2020 })]);
    const result = await call((await fromMcpClient(client)).tools, "read", args);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message },
    });
    expect(log.calls).toEqual([]);
  });

  test("valid arguments are sent as they are", async () => {
    const { client, log } = await scripted([tool("read", { inputSchema: schema2020 })]);
    const result = await call((await fromMcpClient(client)).tools, "read", { path: "notes.txt" });
    expect(result.isError).toBe(false);
    // Progress is always asked for, so that a long call which reports progress is not timed out.
    expect(log.calls).toEqual([
      {
        name: "read",
        arguments: { path: "notes.txt" },
        _meta: { progressToken: expect.anything() },
      },
    ]);
  });

  test("a draft-07 schema is checked as draft-07", async () => {
    const draft07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { tags: { type: "array", items: [{ type: "string" }], additionalItems: false } },
    } as ListedTool["inputSchema"];
    const { client, log } = await scripted([tool("tag", { inputSchema: draft07 })]);
    const { tools } = await fromMcpClient(client);
    expect((await call(tools, "tag", { tags: ["a", "b"] })).isError).toBe(true);
    expect((await call(tools, "tag", { tags: ["a"] })).isError).toBe(false);
    expect(log.calls).toHaveLength(1);
  });

  test("the error line of a hostile key is bounded", async () => {
    const closed = { type: "object", additionalProperties: false } as const;
    const { client } = await scripted([tool("closed", { inputSchema: closed })]);
    const result = await call((await fromMcpClient(client)).tools, "closed", {
      ["k".repeat(100_000)]: 1,
    });
    const { message } = JSON.parse(result.content).error;
    expect([...message].length).toBeLessThanOrEqual(MAX_ARGUMENT_ERROR_CHARACTERS);
    expect(message).toMatch(/^arguments must NOT have additional properties \("k+…"\)$/);
  });

  test.each([
    [
      "a $ref to another document",
      { type: "object", properties: { a: { $ref: "https://evil.example/s.json" } } },
      /can't resolve reference/,
    ],
    ["an $async schema", { type: "object", $async: true }, /\$async schema cannot be checked/],
  ])(
    "a schema with %s is refused at definition, naming the Tool",
    async (_what, inputSchema, reason) => {
      const { client } = await scripted([
        tool("odd", { inputSchema: inputSchema as ListedTool["inputSchema"] }),
      ]);
      const refusal = fromMcpClient(client);
      await expect(refusal).rejects.toMatchObject({ code: "INVALID_TOOL_DEFINITION" });
      await expect(refusal).rejects.toThrow(reason);
    },
  );

  test("a schema over maxSchemaCharacters is refused before it is compiled", async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 200 }, (_, index) => [`p${index}`, { type: "string" }]),
    );
    const { client } = await scripted([tool("wide", { inputSchema: objectSchema(properties) })]);
    await expect(fromMcpClient(client, { maxSchemaCharacters: 1_000 })).rejects.toThrow(
      /Tool "wide": its inputSchema has \d+ characters, over maxSchemaCharacters \(1000\)/,
    );
  });
});

describe("listing", () => {
  test("pages are followed; a server that never stops paging is refused", async () => {
    const { client } = await scripted((cursor) => {
      const page = Number(cursor ?? "0");
      return { tools: [tool(`t${page}`)], ...(page < 2 ? { nextCursor: String(page + 1) } : {}) };
    });
    expect((await fromMcpClient(client)).tools.map((definition) => definition.name)).toEqual([
      "t0",
      "t1",
      "t2",
    ]);
    const endless = await scripted((cursor) => ({ tools: [], nextCursor: `${cursor ?? ""}x` }));
    await expect(fromMcpClient(endless.client, { maxTools: 5 })).rejects.toThrow(
      "did not end within 6 pages",
    );
  });

  test("more Tools than maxTools are refused", async () => {
    const { client } = await scripted([tool("a"), tool("b"), tool("c")]);
    await expect(fromMcpClient(client, { maxTools: 2 })).rejects.toThrow(
      /more than 2 Tools \(maxTools\)/,
    );
  });

  test("Tools that must run as tasks are left out", async () => {
    const { client } = await scripted([
      tool("now"),
      tool("later", { execution: { taskSupport: "required" } }),
    ]);
    expect((await fromMcpClient(client)).tools.map((definition) => definition.name)).toEqual([
      "now",
    ]);
  });

  test("tools/list_changed calls onToolsChanged, and refresh() lists again", async () => {
    const server = new McpServer({ name: "growing", version: "1.0.0" });
    server.registerTool(
      "first",
      { description: "First.", inputSchema: { a: z.string() } },
      async () => ({ content: [] }),
    );
    const client = await connectClient(server);
    const onToolsChanged = vi.fn();
    const remote = await fromMcpClient(client, { onToolsChanged });
    expect(remote.tools.map((definition) => definition.name)).toEqual(["first"]);
    server.registerTool("second", { description: "Second." }, async () => ({ content: [] }));
    await vi.waitFor(() => expect(onToolsChanged).toHaveBeenCalledTimes(1));
    const refreshed = await remote.refresh();
    expect(refreshed.map((definition) => definition.name)).toEqual(["first", "second"]);
    expect(remote.tools).toBe(refreshed);
  });
  test("overlapping refreshes: one listing at a time, the one started last wins", async () => {
    // The first refresh lists fifty Tools (compiled one at a time, yielding between them); the
    // second, asked for meanwhile, lists one. It starts only when the first has ended, so the
    // first's older listing cannot replace it.
    let listings = 0;
    let firstEnded = false;
    const startedAfterFirst: boolean[] = [];
    const { client } = await scripted(() => {
      listings += 1;
      startedAfterFirst.push(firstEnded);
      const names =
        listings === 2 ? Array.from({ length: 50 }, (_, index) => `old${index}`) : [`v${listings}`];
      return { tools: names.map((name) => ({ name, inputSchema: { type: "object" as const } })) };
    });
    const remote = await fromMcpClient(client);
    const older = remote.refresh();
    void older.then(() => {
      firstEnded = true;
    });
    const newer = remote.refresh();
    const [olderAnswer, newerAnswer] = await Promise.all([older, newer]);
    expect(listings).toBe(3);
    expect(startedAfterFirst).toEqual([false, false, true]);
    expect(olderAnswer).toHaveLength(50);
    expect(remote.tools.map((definition) => definition.name)).toEqual(["v3"]);
    expect(newerAnswer).toBe(remote.tools);
  });

  test("attack: a flood of refreshes while one lists runs one more listing, not one each", async () => {
    // A server announcing list_changed in a loop into a host that refreshes on each: every
    // refresh asked for while a listing runs shares the next one.
    let listings = 0;
    const { client } = await scripted(() => {
      listings += 1;
      const names = Array.from({ length: 20 }, (_, index) => `l${listings}t${index}`);
      return { tools: names.map((name) => ({ name, inputSchema: { type: "object" as const } })) };
    });
    const remote = await fromMcpClient(client);
    const first = remote.refresh();
    const flood = Array.from({ length: 100 }, () => remote.refresh());
    expect(flood.length).toBeGreaterThan(0);
    const answers = await Promise.all(flood);
    expect((await first)[0]?.name).toBe("l2t0");
    expect(listings).toBe(3);
    for (const answer of answers) expect(answer).toBe(remote.tools);
    expect(remote.tools[0]?.name).toBe("l3t0");
    // Once nothing runs, a refresh lists again at once.
    await remote.refresh();
    expect(listings).toBe(4);
  });

  test("a failed listing rejects its own callers, keeps the Tools, and the queued one still runs", async () => {
    let listings = 0;
    const { client } = await scripted(() => {
      listings += 1;
      // The second listing names a Tool twice: fromMcpClient refuses the listing.
      const names = listings === 2 ? ["twice", "twice"] : [`v${listings}`];
      return { tools: names.map((name) => ({ name, inputSchema: { type: "object" as const } })) };
    });
    const remote = await fromMcpClient(client);
    const failing = remote.refresh();
    const queued = remote.refresh();
    await expect(failing).rejects.toThrow(ToolContractError);
    expect(remote.tools.map((definition) => definition.name)).toEqual(["v1"]);
    expect((await queued).map((definition) => definition.name)).toEqual(["v3"]);
    expect(listings).toBe(3);
  });
});

describe("bad input from the host", () => {
  test.each([
    ["not a client", {}],
    ["null", null],
  ])("%s is a TypeError", async (_what, value) => {
    await expect(fromMcpClient(value as never)).rejects.toThrow(
      "fromMcpClient needs a connected Client of @modelcontextprotocol/sdk",
    );
  });

  test.each([
    ["prefix", { prefix: "with space" }],
    ["include", { include: "echo" }],
    ["exclude", { exclude: [1] }],
    ["maxDescriptionCharacters", { maxDescriptionCharacters: 10 }],
    ["timeoutMs", { timeoutMs: 0 }],
    ["format", { format: "yaml" }],
    ["onToolsChanged", { onToolsChanged: "refresh" }],
    ["patterns", { patterns: "re2" }],
  ])("a bad %s is a TypeError naming it, and nothing is listed", async (option, options) => {
    const { client } = await scripted([tool("echo")]);
    const listTools = vi.spyOn(client, "listTools");
    await expect(fromMcpClient(client, options as never)).rejects.toThrow(
      new RegExp(`^fromMcpClient: ${option}`),
    );
    expect(listTools).not.toHaveBeenCalled();
  });
});
