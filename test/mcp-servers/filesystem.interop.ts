/**
 * server-filesystem's Tools behind our boundary, on a temporary directory:
 * a 1 MB file read comes back bounded with the spill hook, and a path
 * outside the root is the server's own error as an error result.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type CourseJsonObject, executeToolCall, ToolRegistry } from "../../course/src/index.ts";
import { fromMcpClient } from "../../src/mcp/index.ts";
import { useReferenceServers } from "./support/servers.ts";

const connect = useReferenceServers();
let root = "";
let spillDir = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolbound-fs-root-"));
  spillDir = mkdtempSync(join(tmpdir(), "toolbound-fs-spill-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(spillDir, { recursive: true, force: true });
});

async function filesystem() {
  const { client } = await connect("server-filesystem", [root]);
  let spills = 0;
  const registry = new ToolRegistry((await fromMcpClient(client, { prefix: "fs_" })).tools, {
    outputBudget: { maxCharacters: 50_000 },
    maxSpillCharacters: 5_000_000,
    spill: (text) => {
      spills += 1;
      const path = join(spillDir, `output-${spills}.txt`);
      writeFileSync(path, text);
      return path;
    },
  });
  return { registry, spills: () => spills };
}

async function call(registry: ToolRegistry, name: string, args: CourseJsonObject) {
  return executeToolCall(
    registry,
    { type: "toolCall", id: "c1", name, arguments: args },
    new AbortController().signal,
  );
}

describe("server-filesystem through fromMcpClient", () => {
  test("a 1 MB file read comes back within the budget, its whole output spilled", async () => {
    const line = "0123456789abcdefghijklmnopqrstuvwxyz-the-quick-brown-fox\n";
    const text = line.repeat(Math.ceil(1_048_576 / line.length));
    writeFileSync(join(root, "big.txt"), text);
    const { registry, spills } = await filesystem();
    const result = await call(registry, "fs_read_text_file", { path: join(root, "big.txt") });
    expect(result.isError).toBe(false);
    expect([...result.content].length).toBeLessThanOrEqual(50_000);
    const reference = /; full output: (.+)\]$/.exec(result.content)?.[1] ?? "";
    expect(reference.startsWith(spillDir)).toBe(true);
    expect(spills()).toBe(1);
    // The spilled file holds the whole output: the file's text, as it is.
    expect(readFileSync(reference, "utf8") === text).toBe(true);
  });

  test("a path outside its root is the server's error, as an error result", async () => {
    const { registry } = await filesystem();
    const result = await call(registry, "fs_read_text_file", {
      path: join(tmpdir(), "..", "etc", "passwd"),
    });
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(result.content);
    expect(error.code).toBe("TOOL_EXECUTION_FAILED");
    expect(error.message).toMatch(/Access denied - path outside allowed directories/);
  });

  test("listing its root works, and arguments it would refuse never reach it", async () => {
    writeFileSync(join(root, "a.txt"), "a");
    const { registry } = await filesystem();
    const listing = await call(registry, "fs_list_directory", { path: root });
    expect(listing.content).toBe("[FILE] a.txt");
    const refused = await call(registry, "fs_list_directory", {});
    expect(JSON.parse(refused.content)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "arguments must have required property 'path'",
      },
    });
  });
});
