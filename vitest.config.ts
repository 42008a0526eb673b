import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["course/test/**/*.test.ts", "src/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: ["./test/setup/fail-on-unhandled.ts"],
  },
});
