import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// fromMcpClient against the reference MCP servers: run by `npm run test:mcp-servers`, never by `npm test`.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["**/*.interop.ts"],
    exclude: ["node_modules/**"],
    setupFiles: [fileURLToPath(new URL("../setup/fail-on-unhandled.ts", import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
