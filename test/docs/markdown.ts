/**
 * Reads the project's Markdown as the documentation tests need it: the
 * documents (README, CONTRIBUTING, docs/*.md), their fenced code blocks with
 * the `<!-- doc-test: … -->` directive written before each, their headings as
 * GitHub slugs them, and their links. Plain Node.js only, so the interop
 * suites (which run on their own installs) can import it too.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { entrySources, ROOT } from "./entries.ts";

export { ROOT };

/** Every document the tests read, as paths from the root: README, CONTRIBUTING, docs/*.md. */
export function documents(): string[] {
  const docs = existsSync(join(ROOT, "docs"))
    ? readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md"))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return ["README.md", "CONTRIBUTING.md", ...docs].filter((doc) => existsSync(join(ROOT, doc)));
}

/** The directive keys a `<!-- doc-test: … -->` comment may hold; anything else is an error. */
export const DIRECTIVE_KEYS = [
  "setup",
  "continues",
  "mirrors",
  "serves",
  "exit",
  "config",
  "tested-by",
] as const;
export type DirectiveKey = (typeof DIRECTIVE_KEYS)[number];

/** A fenced code block of a document. */
export interface CodeBlock {
  /** The document, from the root (`README.md`, `docs/cli.md`). */
  readonly doc: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  /** The info string's first word (`ts`, `sh`, `json`, `text`, `mermaid`), or "" for none. */
  readonly lang: string;
  /** The block's text, its fence's indentation removed, without a final newline. */
  readonly text: string;
  /** The directives written before the block (`setup=providers` gives `setup: "providers"`). */
  readonly directives: Readonly<Partial<Record<DirectiveKey, string>>>;
  /** Problems found reading the directives (an unknown key, a repeated one). */
  readonly directiveErrors: readonly string[];
}

/** `README.md:6` for a block, as messages name it. */
export const where = (block: Pick<CodeBlock, "doc" | "line">): string =>
  `${block.doc}:${block.line}`;

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)/;
const DIRECTIVE = /^<!--\s*doc-test:(.*?)-->$/;

/** Reads `<!-- doc-test: a=b c -->` comments into directives. */
function readDirectives(lines: readonly string[]): {
  directives: Partial<Record<DirectiveKey, string>>;
  errors: string[];
} {
  const directives: Partial<Record<DirectiveKey, string>> = {};
  const errors: string[] = [];
  for (const line of lines) {
    const found = DIRECTIVE.exec(line.trim());
    if (found === null) continue;
    for (const token of (found[1] ?? "").trim().split(/\s+/).filter(Boolean)) {
      const [key = "", ...rest] = token.split("=");
      const value = rest.join("=");
      if (!(DIRECTIVE_KEYS as readonly string[]).includes(key)) {
        errors.push(`unknown doc-test directive "${key}"`);
      } else if (key in directives) errors.push(`doc-test directive "${key}" given twice`);
      else directives[key as DirectiveKey] = value;
    }
  }
  return { directives, errors };
}

/** The fenced code blocks of `doc`, in order. */
export const codeBlocks = (doc: string): CodeBlock[] =>
  codeBlocksOf(doc, readFileSync(join(ROOT, doc), "utf8"));

/** The fenced code blocks of a document's `text`, in order (`doc` names it in messages). */
export function codeBlocksOf(doc: string, text: string): CodeBlock[] {
  const lines = text.split("\n");
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = FENCE.exec(lines[index] ?? "");
    if (open === null) continue;
    const [, indent = "", fence = "", lang = ""] = open;
    let close = index + 1;
    while (close < lines.length && !(lines[close] ?? "").trim().startsWith(fence)) close += 1;
    const body = lines.slice(index + 1, close).map((line) => line.slice(indent.length));
    // The directive comments are the lines right above the fence (blank lines allowed between).
    const above: string[] = [];
    for (let up = index - 1; up >= 0; up -= 1) {
      const line = (lines[up] ?? "").trim();
      if (line === "") continue;
      if (!DIRECTIVE.test(line)) break;
      above.unshift(line);
    }
    const { directives, errors } = readDirectives(above);
    blocks.push({
      doc,
      line: index + 1,
      lang,
      text: body.join("\n"),
      directives,
      directiveErrors: errors,
    });
    index = close;
  }
  return blocks;
}

/** Every code block of every document. */
export const allCodeBlocks = (): CodeBlock[] => documents().flatMap(codeBlocks);

/** The lines of `doc` outside fenced code blocks (blanked inside them, so line numbers hold). */
export function proseLines(doc: string): string[] {
  const lines = readFileSync(join(ROOT, doc), "utf8").split("\n");
  let fence: string | undefined;
  return lines.map((line) => {
    const open = FENCE.exec(line);
    if (fence === undefined && open !== null) {
      fence = open[2];
      return "";
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return "";
    }
    return line;
  });
}

/**
 * GitHub's anchor for a heading's text: the rendered text lower-cased, every
 * character but letters, marks, digits, connector punctuation (`_`), spaces
 * and hyphens dropped, spaces turned into hyphens.
 */
export function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image keeps its text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/[`*]/g, "");
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of `doc`'s headings, numbered as GitHub numbers repeated ones (`x`, `x-1`, …). */
export function anchors(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of proseLines(doc)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** A link of a document: its 1-based line and its target as written. */
export interface Link {
  readonly doc: string;
  readonly line: number;
  readonly target: string;
}

/** The inline links and images (`[text](target)`) and reference definitions of `doc`. */
export function links(doc: string): Link[] {
  const found: Link[] = [];
  proseLines(doc).forEach((raw, index) => {
    // Inline code cannot hold a link.
    const line = raw.replace(/`[^`]*`/g, "");
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      found.push({ doc, line: index + 1, target: match[1] ?? "" });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(line);
    if (definition !== null) found.push({ doc, line: index + 1, target: definition[1] ?? "" });
  });
  return found;
}

/** The path from the root of a link target's file, resolved against its document. */
export const linkedFile = (doc: string, path: string): string =>
  relative(ROOT, resolve(ROOT, dirname(doc), decodeURIComponent(path)));

/**
 * `text` with each relative import of an entry's source (`"../course/src/index.ts"`)
 * turned into the package specifier a user writes (`"toolbound"`): an example
 * file imports the sources so that it runs before a build; its reader imports
 * the package.
 */
function asPackageImports(file: string, text: string): string {
  const bySource = new Map([...entrySources()].map(([specifier, source]) => [source, specifier]));
  return text.replace(/(from\s+|import\s*\(\s*)"(\.{1,2}\/[^"]+)"/g, (whole, lead, path) => {
    const specifier = bySource.get(resolve(ROOT, dirname(file), path));
    return specifier === undefined ? whole : `${lead}"${specifier}"`;
  });
}

/**
 * The lines of a file between each `// doc:begin` and `// doc:end`, each part
 * dedented and without trailing blank lines, parts joined by one blank line,
 * imports of the sources written as
 * the package's: what a block that mirrors the file
 * (`<!-- doc-test: mirrors=<file> -->`) must show, exactly.
 */
export function markedLines(file: string): string {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const parts: string[][] = [];
  let part: string[] | undefined;
  for (const line of lines) {
    if (line.trim() === "// doc:begin") part = [];
    else if (line.trim() === "// doc:end" && part !== undefined) {
      parts.push(part);
      part = undefined;
    } else part?.push(line);
  }
  if (parts.length === 0)
    throw new Error(`${file} marks no lines with // doc:begin and // doc:end`);
  const text = parts
    .map((marked) => {
      const indent = Math.min(
        ...marked.filter((line) => line.trim() !== "").map((line) => line.search(/\S/)),
      );
      // A blank line left before `// doc:end` (the formatter's choice) is not part of the example.
      return marked
        .map((line) => line.slice(indent))
        .join("\n")
        .replace(/\n+$/, "");
    })
    .join("\n\n");
  return asPackageImports(file, text);
}

/**
 * The block of the documents whose `mirrors=` directive names `file` (a path
 * from the root). Several documents may show the same example (the README
 * and its guide): then every one must show the same text, and the first is
 * returned.
 */
export function mirroringBlock(file: string): CodeBlock {
  const found = allCodeBlocks().filter((block) => block.directives.mirrors === file);
  const [first] = found;
  if (first === undefined) throw new Error(`no block of the documents mirrors ${file}`);
  if (found.some((block) => block.text !== first.text)) {
    throw new Error(
      `${found.length} blocks of the documents mirror ${file} and do not show the same text: ${found.map(where).join(", ")}`,
    );
  }
  return first;
}
