/**
 * The `./otel` entry as a whole: its pinned export names, and that nothing
 * else of the library loads `@opentelemetry/*`: the core and every other
 * entry work where the optional peers are absent (the command line loads the
 * SDK only for `--otel`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { codeFiles, ROOT } from "../../test/layout/import-graph.ts";

const ENTRY_EXPORTS = [
  "CAPTURE_CHARACTERS_RANGE",
  "CAPTURE_TRUNCATION_MARKER",
  "DEFAULT_MAX_CAPTURE_CHARACTERS",
  "EXECUTE_TOOL_DURATION",
  "MAX_MODEL_TEXT_CHARACTERS",
  "MAX_ROUND_CALL_IDS",
  "REDACTION_FAILED",
  "ROUND_SPAN_NAME",
  "TOOLBOUND_ATTRIBUTES",
  "instrumentRegistry",
];

test("toolbound/otel exports exactly the pinned runtime names", async () => {
  expect(Object.keys(await import("./index.ts")).sort()).toEqual(ENTRY_EXPORTS);
});

test("only toolbound/otel and the command line's --otel import @opentelemetry/*", () => {
  const shipped = codeFiles().filter(
    (file) =>
      (file.startsWith("course/src/") || file.startsWith("src/")) && !file.endsWith(".test.ts"),
  );
  expect(shipped.length).toBeGreaterThan(50);
  const importing = shipped.filter((file) =>
    /(from\s*|import\(\s*)["']@opentelemetry\//.test(readFileSync(join(ROOT, file), "utf8")),
  );
  expect(importing.filter((file) => !file.startsWith("src/otel/"))).toEqual([
    "src/cli/otel-flag.ts",
  ]);
  expect(importing).toContain("src/otel/telemetry-sources.ts");
});
