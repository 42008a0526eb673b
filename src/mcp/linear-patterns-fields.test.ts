/**
 * An re2js without the DFA fields the engine bounds memory and prices
 * classes with: patterns are refused (the bounds would silently lapse),
 * saying why; a schema without one is taken.
 */
import { expect, test, vi } from "vitest";
import { type ListedTool, useScriptedServers } from "../../test/support/mcp-client.ts";
import { fromMcpClient } from "./index.ts";

// A linear-time engine of another shape: it matches, but has no `re2Input.dfa`.
const compiled: string[] = [];
vi.mock("re2js", () => ({
  RE2JS: {
    compile: (pattern: string) => {
      compiled.push(pattern);
      return { test: () => true, programSize: () => 3 };
    },
  },
}));

const scripted = useScriptedServers();

test("an re2js without the DFA fields refuses patterns instead of running them unbounded", async () => {
  const { client } = await scripted([
    {
      name: "find",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", pattern: "^\\d+$" } },
      } as ListedTool["inputSchema"],
    },
    { name: "list", inputSchema: { type: "object" } as ListedTool["inputSchema"] },
  ]);
  await expect(fromMcpClient(client)).rejects.toThrow(
    'Tool "find": its inputSchema cannot be checked: patterns run on re2js 2.10 or a later 2.x with the same DFA fields (re2Input.dfa: numClasses, maxMem, memBudget, clearCache); this re2js has other ones',
  );
  // Only the probe was compiled: the server's pattern never reached this engine.
  expect(compiled).toEqual(["a"]);
  const { tools } = await fromMcpClient(client, { exclude: ["find"] });
  expect(tools.map((tool) => tool.name)).toEqual(["list"]);
});
