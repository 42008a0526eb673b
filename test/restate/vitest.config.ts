import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// The durable suite: run by `npm run test:restate` on Node.js 22, never by `npm test`.
// Each test file starts its own restate-server; the files run one after another.
export default defineConfig({
  test: {
    root: here("."),
    include: ["**/*.restate.ts"],
    exclude: ["node_modules/**", "build/**"],
    globalSetup: [here("./global-setup.ts")],
    setupFiles: [here("../setup/fail-on-unhandled.ts")],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
