/**
 * trimClientDeclarations against the SDK's own Server and Client: what the
 * Server keeps of a client's initialize is cut in place, so its getters
 * answer the cut values (the HTTP server calls it once a session is open;
 * http-retention.test.ts measures the memory it saves).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { expect, test } from "vitest";
import { defineTool, ToolRegistry } from "../../course/src/index.ts";
import { trimClientDeclarations } from "./client-declarations.ts";
import { createMcpToolServer } from "./index.ts";

test("a client's declarations are cut to MCP's capabilities, small, and a short clientInfo", async () => {
  const server = createMcpToolServer(
    new ToolRegistry([
      defineTool({
        name: "noop",
        description: "Does nothing.",
        validate: () => ({ ok: true, value: {} }),
        execute: async () => "done",
      }),
    ]),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: "n".repeat(300), version: "1.0.0", title: "Tester", websiteUrl: "https://example.com" },
    {
      capabilities: {
        roots: { listChanged: true },
        sampling: { context: { padding: "s".repeat(2_000) } },
        elicitation: {},
        experimental: { anything: { at: "all" } },
      },
    },
  );
  await client.connect(clientSide);
  try {
    trimClientDeclarations(server);
    // (The SDK writes a bare `elicitation` as its form mode.)
    expect(server.getClientCapabilities()).toEqual({
      roots: { listChanged: true },
      elicitation: { form: {} },
    });
    expect(server.getClientVersion()).toEqual({
      name: "n".repeat(256),
      version: "1.0.0",
      title: "Tester",
    });
    // The session goes on as before.
    expect((await client.callTool({ name: "noop", arguments: {} })).isError).toBe(false);
  } finally {
    await client.close();
  }
});

test("a toJSON planted on Object.prototype cannot keep an oversized capability", async () => {
  const server = createMcpToolServer(new ToolRegistry([]));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const padding = Array.from({ length: 2_000 }, () => ({}));
  const client = new Client(
    { name: `${"a".repeat(255)}\u{1F600}`, version: "1.0.0" },
    { capabilities: { sampling: { context: { padding } }, roots: { listChanged: true } } },
  );
  await client.connect(clientSide);
  let calls = 0;
  Object.defineProperty(Object.prototype, "toJSON", {
    configurable: true,
    writable: true,
    value() {
      calls += 1;
      return undefined;
    },
  });
  try {
    trimClientDeclarations(server);
  } finally {
    delete (Object.prototype as Record<string, unknown>).toJSON;
    await client.close();
  }
  expect(calls).toBe(0);
  expect(server.getClientCapabilities()).toEqual({ roots: { listChanged: true } });
  // Cut at 256 code units would split the emoji's surrogate pair: cut before it instead.
  expect(server.getClientVersion()?.name).toBe("a".repeat(255));
});
