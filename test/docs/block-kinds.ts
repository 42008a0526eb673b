/**
 * What each kind of code block in the documents means to the tests. A block
 * whose language is not listed here fails the suite: a new kind needs a rule.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CodeBlock } from "./markdown.ts";
import { ROOT } from "./markdown.ts";

/** Each language a block may have, and what the tests do with it. */
export const BLOCK_KINDS: Readonly<Record<string, string>> = {
  ts: "TypeScript: type-checked with the project's settings and run, its `// → …` outputs compared (typescript-blocks.test.ts); or, with `mirrors=<file>`, identical to the lines <file> marks, which its own suite compiles and runs",
  sh: "shell: project commands checked against package.json, `toolbound` commands run with the built command line and their `# → …` output compared (shell-blocks.ts)",
  json: "JSON: parsed; with `config=<name>`, validated by what reads that configuration (json-configs.ts)",
  text: "output or prose shown as it is printed: not run; must not be empty",
  mermaid:
    "a diagram: not run; must declare its diagram type, and every code name it mentions must exist in the sources",
};

/** Every word of the sources under course/src and src (their identifiers and error codes). */
function sourceWords(): Set<string> {
  const words = new Set<string>();
  const visit = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith(".ts")) {
        for (const word of readFileSync(path, "utf8").match(/\w+/g) ?? []) words.add(word);
      }
    }
  };
  for (const directory of ["course/src", "src"]) {
    if (existsSync(join(ROOT, directory))) visit(join(ROOT, directory));
  }
  return words;
}

const DIAGRAMS = /^(flowchart|graph|sequenceDiagram|stateDiagram(-v2)?|classDiagram|erDiagram)\b/;
// camelCase and PascalCase names with an inner capital, and CONSTANT_CODES.
const CODE_NAMES = /\b(?:[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;

/** The problems of a ```mermaid block: no diagram type, or a code name the sources do not have. */
export function diagramProblems(block: CodeBlock): string[] {
  const text = block.text.trim();
  if (!DIAGRAMS.test(text)) return ["the diagram does not start with its type (flowchart, …)"];
  const words = sourceWords();
  const names = [...new Set(text.match(CODE_NAMES) ?? [])];
  if (names.length === 0) return ["the diagram names no function, type or code of the sources"];
  return names
    .filter((name) => !words.has(name))
    .map((name) => `names ${name}, not in the sources`);
}
