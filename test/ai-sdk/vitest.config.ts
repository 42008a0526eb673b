import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// The AI SDK interop suite: run by `npm run test:ai-sdk` on Node.js 22, never by `npm test`.
export default defineConfig({
  resolve: {
    // The adapter's lazy `import("ai")` lives in src/, outside this folder: point it
    // at this folder's install, the same copy the tests import.
    alias: [
      { find: /^ai$/, replacement: here("./node_modules/ai/dist/index.js") },
      // The documentation's example imports the package by name: its sources, as a user's install would.
      { find: /^toolbound$/, replacement: here("../../course/src/index.ts") },
      { find: /^toolbound\/ai-sdk$/, replacement: here("../../src/ai-sdk/index.ts") },
    ],
  },
  test: {
    root: here("."),
    include: ["**/*.interop.ts"],
    exclude: ["node_modules/**"],
    setupFiles: [here("../setup/fail-on-unhandled.ts")],
  },
});
