/**
 * Every entry of the package's `exports` map has its runtime export names
 * pinned by a test: the test file named for it imports the entry's source
 * file and asserts that it "exports exactly the pinned runtime names". An
 * entry added to package.json without such a pin fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { importsOf, ROOT } from "./import-graph.ts";

const PIN_TITLE = "exports exactly the pinned runtime names";

interface ExportTarget {
  readonly types?: string;
}

/** Each subpath of the exports map with the source file its types are built from. */
function entrySources(): [string, string][] {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    readonly exports: Record<string, ExportTarget | string>;
  };
  const entries: [string, string][] = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    // The manifest itself is exported as a file; it has no code to pin.
    if (typeof target === "string") continue;
    const types = target.types;
    if (types === undefined) throw new Error(`exports["${subpath}"] has no "types" condition`);
    entries.push([subpath, types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts")]);
  }
  return entries;
}

/**
 * The test that pins each entry, by subpath. Explicit: several tests import
 * the core's index for its helpers, so "a pinning test imports the source"
 * alone would pass for an entry whose own pin was dropped.
 */
const PINS: Record<string, string> = {
  ".": "course/test/public-surface.test.ts",
  "./rounds": "src/rounds/entry.test.ts",
  "./schema": "src/schema/entry.test.ts",
  "./schema/typebox": "src/schema/typebox-entry.test.ts",
  "./mcp": "src/mcp/entry.test.ts",
  "./providers": "src/providers/public-surface.test.ts",
  "./pi": "src/pi/entry.test.ts",
  "./ai-sdk": "src/ai-sdk/entry.test.ts",
  "./openai-agents": "src/openai-agents/entry.test.ts",
  "./restate": "src/restate/entry.test.ts",
  "./otel": "src/otel/entry.test.ts",
};

describe("the exports map", () => {
  const entries = entrySources();

  test("lists the entries and their source files", () => {
    expect(entries.length).toBeGreaterThan(5);
    expect(entries).toContainEqual([".", "course/src/index.ts"]);
    expect(entries).toContainEqual(["./schema/typebox", "src/schema/typebox.ts"]);
  });

  test("names a pinning test for every entry, and no other", () => {
    expect(Object.keys(PINS).sort()).toEqual(entries.map(([subpath]) => subpath).sort());
  });

  test.each(entries)("%s (%s) has a test pinning its export names", (subpath, source) => {
    const file = PINS[subpath];
    expect(file, `no pinning test named for ${subpath}`).toBeDefined();
    const text = readFileSync(join(ROOT, file as string), "utf8");
    expect(text, `${file} has no test titled "…${PIN_TITLE}"`).toContain(PIN_TITLE);
    expect(importsOf(file as string), `${file} does not import ${source}`).toContain(source);
  });
});
