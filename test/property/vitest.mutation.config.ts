/**
 * Vitest configuration for mutation testing only (`npm run test:mutation`):
 * the tests that exercise the core directly (course, core and property tests).
 * Files stay isolated: without isolation a module is evaluated once, so a
 * mutant in module-level code would never take effect and falsely survive.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["course/test/**/*.test.ts", "test/property/**/*.test.ts"],
    setupFiles: ["./test/setup/fail-on-unhandled.ts"],
  },
});
