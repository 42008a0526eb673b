import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// The Pi interop suite: run by `npm run test:pi` on Node.js 22, never by `npm test`.
export default defineConfig({
  resolve: {
    // The documentation's example imports the package by name: its sources, as a user's install would.
    alias: [
      { find: /^toolbound$/, replacement: here("../../course/src/index.ts") },
      { find: /^toolbound\/pi$/, replacement: here("../../src/pi/index.ts") },
    ],
  },
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["**/*.interop.ts"],
    exclude: ["node_modules/**"],
    setupFiles: [fileURLToPath(new URL("../setup/fail-on-unhandled.ts", import.meta.url))],
  },
});
