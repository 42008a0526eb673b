/**
 * docs/mcp.md: the opening example runs, and the npm scripts the guide names
 * exist. Its TypeScript blocks are exactly the marked regions of example
 * files (the documentation harness checks each `mirrors=` block; the opening
 * one is run here, the server-everything agent by `npm run test:mcp-servers`,
 * the progress Tool by the conformance suite). The command lines and host
 * configurations are run by src/cli/mcp-docs.test.ts.
 */
import { readFileSync } from "node:fs";
import { expect, test, vi } from "vitest";
import { docBlocks, ROOT_URL } from "../../test/support/doc-blocks.ts";

const blocks = docBlocks("docs/mcp.md");

test("each npm script the guide names exists", () => {
  const scripts = (
    JSON.parse(readFileSync(new URL("package.json", ROOT_URL), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const named = blocks
    .filter((block) => block.label === "npm scripts")
    .flatMap((block) => block.code.split("\n"))
    .map((line) => /^npm run ([\w:-]+)$/.exec(line)?.[1]);
  expect(named.length).toBeGreaterThan(0);
  for (const name of named) expect(Object.keys(scripts)).toContain(name);
});

test("the opening example runs: the example Tools served over HTTP, and taken back behind the boundary", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    const example = await import("../../examples/mcp-both-ways.ts");
    expect(example.registry.names).toEqual([
      "remote_add",
      "remote_repeat",
      "remote_today",
      "remote_read_file",
      "remote_sleep",
    ]);
    expect(example.result.isError).toBe(false);
    expect(example.result.content).toBe('{"sum":42}');
    expect(log).toHaveBeenCalledWith(example.result.content);
  } finally {
    log.mockRestore();
  }
});
