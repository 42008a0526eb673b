/**
 * The repository's static import graph, read from source text: every
 * `import … from "x"`, `export … from "x"`, `import "x"` and `import("x")`
 * with a literal relative specifier, resolved to a file of the repository
 * (a `.js` ending is looked up as the `.ts` file beside it, as TypeScript
 * does). Template literals are not read: the CLI's test support writes
 * import lines for child processes into strings, and those are not imports
 * of the file itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Folders holding the repository's own code; nothing installed or built is read. */
const CODE_FOLDERS = ["course", "src", "test", "bench", "demo", "examples", "fuzz", "scripts"];
const SKIPPED = new Set(["node_modules", "dist", "build", "reports", ".stryker-tmp"]);
const CODE_FILE = /\.(ts|mts|mjs|js)$/;

/** Every code file under the repository's own folders, as a path relative to the root. */
export function codeFiles(): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      if (SKIPPED.has(name)) continue;
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (CODE_FILE.test(name)) found.push(relative(ROOT, path));
    }
  };
  for (const folder of CODE_FOLDERS) walk(join(ROOT, folder));
  return found.sort();
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\bfrom\s*["']([^"']+)["']|(?:^|[\s;])import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

/** Removes comments and template literals, so only real import statements remain. */
function codeOnly(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1")
    .replace(/`(?:\\[\s\S]|[^`\\])*`/g, "``");
}

/** The files `file` imports through relative specifiers, resolved; unresolvable ones are left out. */
export function importsOf(file: string): string[] {
  const text = codeOnly(readFileSync(join(ROOT, file), "utf8"));
  const targets: string[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier === undefined || !specifier.startsWith(".")) continue;
    const target = resolveSpecifier(file, specifier);
    if (target !== undefined) targets.push(target);
  }
  return targets;
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(ROOT, dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")];
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(ROOT, candidate);
  }
  return undefined;
}

/** The import graph of `files`: each file with the files it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file)]));
}

/**
 * Every cycle in `graph` (each a list of files, the first repeated at the
 * end), by depth-first search; edges to files outside the graph are ignored.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}
