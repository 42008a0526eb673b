/**
 * Ties a README example to a file that compiles and runs it: the file marks
 * its lines with `// README:begin` and `// README:end`, and the first `ts`
 * block under a README heading must be exactly those lines, dedented, with one
 * blank line between marked parts. An edit to either side that the other does
 * not follow fails the suite.
 */

import { readFileSync } from "node:fs";
import { vi } from "vitest";
import { defineTool } from "../../course/src/index.ts";

const README = new URL("../../README.md", import.meta.url);

/** The first ```ts block after the line `heading` in the README. */
export function readmeBlock(heading: string): string {
  const text = readFileSync(README, "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no heading ${JSON.stringify(heading)}`);
  const open = text.indexOf("\n```ts\n", start);
  const close = text.indexOf("\n```\n", open + 1);
  if (open === -1 || close === -1) throw new Error(`README has no ts block under ${heading}`);
  return text.slice(open + "\n```ts\n".length, close);
}

/** The lines of `file` between each `// README:begin` and `// README:end`, dedented. */
export function markedExample(file: URL): string {
  const lines = readFileSync(file, "utf8").split("\n");
  const parts: string[][] = [];
  let part: string[] | undefined;
  for (const line of lines) {
    if (line.trim() === "// README:begin") part = [];
    else if (line.trim() === "// README:end" && part !== undefined) {
      parts.push(part);
      part = undefined;
    } else part?.push(line);
  }
  if (parts.length === 0) throw new Error(`${file.pathname} marks no README lines`);
  return parts
    .map((marked) => {
      const indent = Math.min(
        ...marked.filter((line) => line.trim() !== "").map((line) => line.search(/\S/)),
      );
      return marked.map((line) => line.slice(indent)).join("\n");
    })
    .join("\n\n");
}

const numbers = (input: unknown) => input as { left: number; right: number };

/** The `echo` and `add` Tools the README's examples pass in, and a spy on `add`'s execute. */
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
