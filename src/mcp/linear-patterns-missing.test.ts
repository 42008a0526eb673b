/**
 * Without the optional peer re2js: only a schema with a pattern is refused,
 * with the command that installs it; the others are checked as before.
 */
import { expect, test, vi } from "vitest";
import { type ListedTool, useScriptedServers } from "../../test/support/mcp-client.ts";
import { fromMcpClient } from "./index.ts";

vi.mock("re2js", () => {
  throw Object.assign(new Error("Cannot find package 're2js'"), { code: "ERR_MODULE_NOT_FOUND" });
});

const scripted = useScriptedServers();

const withSchema = (name: string, inputSchema: object): ListedTool => ({
  name,
  inputSchema: inputSchema as ListedTool["inputSchema"],
});

test("a schema with a pattern says to install re2js; one without is taken", async () => {
  const patterned = { type: "object", properties: { id: { type: "string", pattern: "^\\d+$" } } };
  const { client } = await scripted([
    withSchema("find", patterned),
    withSchema("list", { type: "object" }),
  ]);
  await expect(fromMcpClient(client)).rejects.toThrow(
    'Tool "find": its inputSchema cannot be checked: patterns run on the linear-time engine of the optional peer dependency re2js; install it with: npm install re2js (or exclude the Tool)',
  );
  const { tools } = await fromMcpClient(client, { exclude: ["find"] });
  expect(tools.map((tool) => tool.name)).toEqual(["list"]);
  // A server you trust: its patterns on the platform's engine, nothing to install.
  const trusted = await fromMcpClient(client, { patterns: "native" });
  expect(trusted.tools.map((tool) => tool.name)).toEqual(["find", "list"]);
});
