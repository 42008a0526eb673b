/**
 * Test support: the fenced code blocks of a guide under docs/, each with
 * the `<!-- tested: … -->` label above it that a test finds it by.
 */

import { readFileSync } from "node:fs";

/** The repository root. */
export const ROOT_URL = new URL("../../", import.meta.url);

/** One fenced block: its label (undefined when it has none), its language and its code. */
export interface DocBlock {
  readonly label: string | undefined;
  readonly lang: string;
  readonly code: string;
}

/**
 * Every fenced block of `path` (relative to the repository root), with the
 * `<!-- tested: label -->` comment found on one of the two lines above it.
 *
 * @example
 * const blocks = docBlocks("docs/mcp.md");
 */
export function docBlocks(path: string): DocBlock[] {
  const lines = readFileSync(new URL(path, ROOT_URL), "utf8").split("\n");
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```(\w+)$/.exec(lines[index] ?? "");
    if (open === null) continue;
    const above = lines.slice(Math.max(0, index - 2), index).join("\n");
    const label = /<!-- tested: (.+?) -->/.exec(above)?.[1];
    const end = lines.indexOf("```", index + 1);
    if (end === -1) throw new Error(`${path}: the block at line ${index + 1} is not closed`);
    blocks.push({ label, lang: open[1] ?? "", code: lines.slice(index + 1, end).join("\n") });
    index = end;
  }
  return blocks;
}
