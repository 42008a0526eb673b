/**
 * The layout as a rule: what builds on the core reaches it through two files
 * only, `course/src/index.ts` (public) and `course/src/internal.ts` (the
 * declared internal surface), the course's drop-in stays self-contained, and
 * no import cycle exists anywhere in the repository's own code. The core's
 * own tests live under `course/test/` and may import any file of it: they
 * test it.
 */
import { describe, expect, test } from "vitest";
import { codeFiles, findCycles, importGraph, importsOf } from "./import-graph.ts";

const files = codeFiles();
const graph = importGraph(files);
const CORE = "course/src/";
const ENTRIES = new Set(["course/src/index.ts", "course/src/internal.ts"]);

describe("reading the import graph", () => {
  test("finds the repository's code and the imports a known file makes", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(importsOf("src/providers/response-fields.ts")).toEqual(
      expect.arrayContaining(["course/src/internal.ts", "src/providers/describe-found.ts"]),
    );
  });

  test("a .js ending resolves to the .ts file beside it", () => {
    expect(importsOf("course/src/index.ts")).toContain("course/src/tool.ts");
  });

  test("finds a planted cycle and none in a chain", () => {
    const cyclic = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
    ]);
    expect(findCycles(cyclic)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    const chain = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", []],
    ]);
    expect(findCycles(chain)).toEqual([]);
  });
});

describe("the core's boundary", () => {
  const outside = files.filter((file) => !file.startsWith("course/"));

  test("no file outside course/ imports a core file other than index.ts and internal.ts", () => {
    expect(outside.length).toBeGreaterThan(0);
    const reaches = outside.flatMap((file) =>
      (graph.get(file) ?? [])
        .filter((target) => target.startsWith(CORE) && !ENTRIES.has(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(reaches).toEqual([]);
  });

  test("no core file imports anything outside course/src", () => {
    const core = files.filter((file) => file.startsWith(CORE));
    expect(core.length).toBeGreaterThan(0);
    const leaks = core.flatMap((file) =>
      (graph.get(file) ?? [])
        .filter((target) => !target.startsWith(CORE))
        .map((target) => `${file} -> ${target}`),
    );
    expect(leaks).toEqual([]);
  });

  test("the course's drop-in (tool.ts and what it imports) never reaches index.ts or internal.ts", () => {
    const reached = new Set<string>();
    const pending = ["course/src/tool.ts"];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (reached.has(file)) continue;
      reached.add(file);
      pending.push(...(graph.get(file) ?? []));
    }
    expect(reached.size).toBeGreaterThan(5);
    expect([...reached].filter((file) => ENTRIES.has(file))).toEqual([]);
  });
});

describe("import cycles", () => {
  test("the repository's own code has none", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycles(graph)).toEqual([]);
  });
});
