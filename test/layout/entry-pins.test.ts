/**
 * Every entry of the package's `exports` map has its runtime export names
 * pinned by a test: a test file that imports the entry's source file and
 * asserts that it "exports exactly the pinned runtime names". An entry added
 * to package.json without such a pin fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { codeFiles, importsOf, ROOT } from "./import-graph.ts";

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

/** The test files whose text carries a pin, with the files each imports. */
function pinFiles(): [string, string[]][] {
  return codeFiles()
    .filter((file) => /\.test\.ts$/.test(file))
    .filter((file) => readFileSync(join(ROOT, file), "utf8").includes(PIN_TITLE))
    .map((file) => [file, importsOf(file)]);
}

describe("the exports map", () => {
  const entries = entrySources();
  const pins = pinFiles();

  test("lists the entries and their source files", () => {
    expect(entries.length).toBeGreaterThan(5);
    expect(entries).toContainEqual([".", "course/src/index.ts"]);
    expect(entries).toContainEqual(["./schema/typebox", "src/schema/typebox.ts"]);
  });

  test.each(entries)("%s (%s) has a test pinning its export names", (_subpath, source) => {
    const pinning = pins.filter(([, imports]) => imports.includes(source)).map(([file]) => file);
    expect(pinning, `no test titled "…${PIN_TITLE}" imports ${source}`).not.toEqual([]);
  });
});
