/**
 * Vitest configuration of the long fuzz run (`npm run fuzz`): only the fuzz
 * file, no time limit, and console output straight to the terminal so the
 * progress lines appear as they are written.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["fuzz/**/*.fuzz.ts"],
    setupFiles: ["./test/setup/fail-on-unhandled.ts"],
    testTimeout: 0,
    hookTimeout: 0,
    disableConsoleIntercept: true,
  },
});
