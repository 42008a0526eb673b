import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The Pi interop suite: run by `npm run test:pi` on Node.js 22, never by `npm test`.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["**/*.interop.ts"],
    exclude: ["node_modules/**"],
    setupFiles: [fileURLToPath(new URL("../setup/fail-on-unhandled.ts", import.meta.url))],
  },
});
