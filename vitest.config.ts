import { defineConfig } from "vitest/config";
import { docBlocks } from "./test/docs/vite-plugin.ts";

export default defineConfig({
  // The documentation's ```ts blocks, served as modules; `toolbound` resolves to the sources.
  plugins: [docBlocks()],
  test: {
    include: ["course/test/**/*.test.ts", "src/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: ["./test/setup/fail-on-unhandled.ts"],
  },
});
