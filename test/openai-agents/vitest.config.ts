import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// The OpenAI Agents interop suite: run by `npm run test:openai-agents`, never by `npm test`.
export default defineConfig({
  resolve: {
    // The adapter's lazy `import("@openai/agents-core")` lives in src/, outside this
    // folder: point it at this folder's install, the same copy the tests import.
    alias: [
      {
        find: /^@openai\/agents-core$/,
        replacement: here("./node_modules/@openai/agents-core/dist/index.mjs"),
      },
      // The documentation's example imports the package by name: its sources, as a user's install would.
      { find: /^toolbound$/, replacement: here("../../course/src/index.ts") },
      { find: /^toolbound\/openai-agents$/, replacement: here("../../src/openai-agents/index.ts") },
    ],
  },
  test: {
    root: here("."),
    include: ["**/*.interop.ts"],
    exclude: ["node_modules/**"],
    setupFiles: [here("../setup/fail-on-unhandled.ts")],
  },
});
