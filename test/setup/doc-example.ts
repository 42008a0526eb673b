/**
 * Ties a documentation example to a file that compiles and runs it: the file
 * marks its lines with `// doc:begin` and `// doc:end`, and the block whose
 * `<!-- doc-test: mirrors=<file> -->` directive names the file must be
 * exactly those lines (see test/docs/markdown.ts). An edit to either side
 * that the other does not follow fails the suite, in `npm test` and in the
 * file's own suite.
 */

import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { vi } from "vitest";
import { defineTool } from "../../course/src/index.ts";
import { markedLines, mirroringBlock, ROOT } from "../docs/markdown.ts";

/** The text of the block that mirrors `file`, and the lines `file` marks, to compare. */
export function mirroredExample(file: URL): { shown: string; marked: string } {
  const path = relative(ROOT, fileURLToPath(file));
  return { shown: mirroringBlock(path).text, marked: markedLines(path) };
}

const numbers = (input: unknown) => input as { left: number; right: number };

/** The `echo` and `add` Tools the documentation's examples pass in, and a spy on `add`'s execute. */
export function readmeTools() {
  const sum = vi.fn(async (input: unknown) => ({
    sum: numbers(input).left + numbers(input).right,
  }));
  const add = defineTool({
    name: "add",
    description: "Add two numbers.",
    validate: (input) =>
      typeof numbers(input).left === "number" && typeof numbers(input).right === "number"
        ? { ok: true, value: input }
        : { ok: false, error: "left and right must be numbers" },
    execute: sum,
  });
  const echo = defineTool({
    name: "echo",
    description: "Repeat the text.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async (input) => input,
  });
  return { echo, add, sum };
}
