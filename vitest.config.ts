import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { docBlocks } from "./test/docs/vite-plugin.ts";

const setupFiles = ["./test/setup/fail-on-unhandled.ts"];

export default defineConfig({
  test: {
    projects: [
      {
        // The documentation's ```ts blocks, served as modules; `toolbound` resolves to the sources.
        plugins: [docBlocks()],
        test: {
          name: "toolbound",
          include: ["course/test/**/*.test.ts", "src/**/*.test.ts", "test/**/*.test.ts"],
          setupFiles,
        },
      },
      {
        // The course's own suite, unchanged, with every call traced: results must not move.
        resolve: {
          alias: [
            {
              find: /^(\.\.\/)+src\/index\.js$/,
              replacement: fileURLToPath(
                new URL("./test/otel/traced-course-index.ts", import.meta.url),
              ),
            },
          ],
        },
        test: {
          name: "course-traced",
          include: ["course/test/06-tool-contract*.test.ts"],
          setupFiles: [...setupFiles, "./test/otel/traced-course-setup.ts"],
        },
      },
    ],
  },
});
