/**
 * docs/mcp.md's server-everything agent (examples/mcp-everything-agent.ts),
 * run as written: npx starts server-everything, which it finds installed in
 * this suite's directory (from its lockfile), so the example runs here.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { executeToolCall } from "../../course/src/index.ts";

test("the guide's agent puts server-everything's Tools in a registry with one call, bounded", {
  timeout: 120_000,
}, async () => {
  // npx resolves the server from the working directory's node_modules.
  process.chdir(fileURLToPath(new URL(".", import.meta.url)));
  const { client, registry, spillDir } = await import("../../examples/mcp-everything-agent.ts");
  try {
    expect(registry.names).toContain("everything_echo");
    expect(registry.names).not.toContain("everything_get-env");
    const echo = await executeToolCall(
      registry,
      {
        type: "toolCall",
        id: "c1",
        name: "everything_echo",
        arguments: { message: "x".repeat(60_000) },
      },
      new AbortController().signal,
    );
    expect(echo.isError).toBe(false);
    expect([...echo.content].length).toBeLessThanOrEqual(50_000);
    const directory = spillDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(echo.content).toMatch(new RegExp(`; full output: ${directory}/[0-9a-f-]+\\.txt\\]$`));
  } finally {
    await client.close();
    rmSync(spillDir, { recursive: true, force: true });
  }
});
