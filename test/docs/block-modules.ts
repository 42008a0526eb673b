/**
 * Turns each ```ts block of the documents into the module the tests compile
 * and run: the texts of its setup files, then the blocks it continues, then
 * the block itself, with their imports merged at the top (the same binding
 * imported by two parts is imported once). Every line of the module remembers
 * the document line it came from, so a type error or a failure names it.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { allCodeBlocks, type CodeBlock, ROOT, where } from "./markdown.ts";

/** Where setup files live; a block's module is placed beside them, as if it were one. */
export const SETUP_DIR = join(ROOT, "test/docs/setup");

/** One expected output: a `// → …` comment and the comment lines that continue it. */
export interface ExpectedOutput {
  readonly origin: string;
  readonly text: string;
}

/** The module built from one ```ts block. */
export interface BlockModule {
  readonly block: CodeBlock;
  /** The virtual file name the compiler and the test runner give the module. */
  readonly id: string;
  readonly source: string;
  /** For each line of `source`, the document line (or setup file line) it came from. */
  readonly origins: readonly string[];
  /** The outputs the block shows, in order; each `console.log` call prints one. */
  readonly expected: readonly ExpectedOutput[];
  /** Problems found assembling it (a missing setup, a block that continues nothing, …). */
  readonly errors: readonly string[];
}

const ID = /doc-block--(.+)--L(\d+)\.ts$/;

/** The virtual file name of a block's module. */
export const moduleId = (block: Pick<CodeBlock, "doc" | "line">): string =>
  join(SETUP_DIR, `doc-block--${block.doc.replaceAll("/", "~")}--L${block.line}.ts`);

/** The document and line a virtual file name stands for, or undefined for any other file. */
export function parseModuleId(id: string): { doc: string; line: number } | undefined {
  const found = ID.exec(id);
  if (found === null) return undefined;
  return { doc: (found[1] ?? "").replaceAll("~", "/"), line: Number(found[2]) };
}

/** A part of a module: some text and where its first line came from. */
interface Part {
  readonly text: string;
  readonly file: string;
  readonly firstLine: number;
}

const ARROW = /\/\/ →(?: (.*))?$/;
const COMMENT = /^\s*\/\/(?: ?)(.*)$/;

/** The `// → …` outputs a part shows, and comments after a `console.log` that look like output but are not marked. */
function readExpected(part: Part): { expected: ExpectedOutput[]; errors: string[] } {
  const lines = part.text.split("\n");
  const expected: ExpectedOutput[] = [];
  const errors: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const origin = `${part.file}:${part.firstLine + index}`;
    const arrow = ARROW.exec(line);
    if (arrow !== null) {
      const text = [arrow[1] ?? ""];
      while (index + 1 < lines.length) {
        const next = lines[index + 1] ?? "";
        const comment = COMMENT.exec(next);
        if (comment === null || ARROW.test(next)) break;
        text.push(comment[1] ?? "");
        index += 1;
      }
      expected.push({ origin, text: text.join("\n") });
    } else if (/console\.log\(/.test(line)) {
      const next = lines[index + 1] ?? "";
      if (COMMENT.test(next) && !ARROW.test(next)) {
        errors.push(`${part.file}:${part.firstLine + index + 1}: show printed output as "// → …"`);
      }
    }
  }
  return { expected, errors };
}

/** An import binding: what is imported under which local name, from where. */
interface Binding {
  readonly from: string;
  readonly kind: "default" | "namespace" | "named" | "bare";
  readonly imported: string;
  readonly local: string;
  readonly typeOnly: boolean;
}

/** The import declarations of `text` as bindings, and the text with them blanked out (lines kept). */
function splitImports(text: string): { bindings: Binding[]; body: string } {
  const file = ts.createSourceFile("part.ts", text, ts.ScriptTarget.ES2022, true);
  const bindings: Binding[] = [];
  let body = text;
  for (const statement of [...file.statements].reverse()) {
    if (!ts.isImportDeclaration(statement)) continue;
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    const clause = statement.importClause;
    const typeOnly = clause?.isTypeOnly ?? false;
    const found: Binding[] = [];
    if (clause === undefined) {
      found.push({ from, kind: "bare", imported: "", local: "", typeOnly });
    } else {
      if (clause.name !== undefined) {
        const local = clause.name.text;
        found.push({ from, kind: "default", imported: "default", local, typeOnly });
      }
      const named = clause.namedBindings;
      if (named !== undefined && ts.isNamespaceImport(named)) {
        found.push({ from, kind: "namespace", imported: "*", local: named.name.text, typeOnly });
      } else if (named !== undefined) {
        for (const element of named.elements) {
          found.push({
            from,
            kind: "named",
            imported: (element.propertyName ?? element.name).text,
            local: element.name.text,
            typeOnly: typeOnly || element.isTypeOnly,
          });
        }
      }
    }
    bindings.unshift(...found);
    const start = statement.getStart(file);
    const blanked = text.slice(start, statement.end).replace(/[^\n]/g, "");
    body = body.slice(0, start) + blanked + body.slice(statement.end);
  }
  return { bindings, body };
}

/** Import declarations for `bindings`, each binding once, modules in first-seen order. */
function importLines(bindings: readonly Binding[]): string[] {
  // One binding per module, kind, name and local name; a value import wins over a type-only one.
  const unique = new Map<string, Binding>();
  for (const binding of bindings) {
    const key = `${binding.from}|${binding.kind}|${binding.imported}|${binding.local}`;
    const earlier = unique.get(key);
    unique.set(key, { ...binding, typeOnly: binding.typeOnly && (earlier?.typeOnly ?? true) });
  }
  const byModule = new Map<string, Binding[]>();
  for (const binding of unique.values()) {
    byModule.set(binding.from, [...(byModule.get(binding.from) ?? []), binding]);
  }
  const lines: string[] = [];
  for (const [from, list] of byModule) {
    const quoted = JSON.stringify(from);
    const type = (binding: Binding): string => (binding.typeOnly ? "type " : "");
    for (const binding of list) {
      if (binding.kind === "default")
        lines.push(`import ${type(binding)}${binding.local} from ${quoted};`);
      if (binding.kind === "namespace") {
        lines.push(`import ${type(binding)}* as ${binding.local} from ${quoted};`);
      }
    }
    const named = list.filter((binding) => binding.kind === "named");
    if (named.length > 0) {
      const names = named.map(
        (binding) =>
          `${type(binding)}${binding.imported === binding.local ? binding.local : `${binding.imported} as ${binding.local}`}`,
      );
      lines.push(`import { ${names.join(", ")} } from ${quoted};`);
    }
    if (list.every((binding) => binding.kind === "bare")) lines.push(`import ${quoted};`);
  }
  return lines;
}

/** The blocks `block` continues, oldest first, then `block` itself. */
function chainOf(block: CodeBlock, blocks: readonly CodeBlock[], errors: string[]): CodeBlock[] {
  const chain = [block];
  let current = block;
  while (current.directives.continues !== undefined) {
    const earlier = blocks.filter(
      (other) => other.doc === current.doc && other.line < current.line && other.lang === "ts",
    );
    const previous = earlier.at(-1);
    if (previous === undefined) {
      errors.push(`${where(current)}: "continues", but no ts block comes before it`);
      break;
    }
    chain.unshift(previous);
    current = previous;
  }
  return chain;
}

/** The module built from `block` (one of `blocks`, the document's others being what it may continue). */
export function blockModule(block: CodeBlock, blocks: readonly CodeBlock[]): BlockModule {
  const errors: string[] = [];
  const chain = chainOf(block, blocks, errors);
  const setups = [
    ...new Set(chain.flatMap((part) => (part.directives.setup ? [part.directives.setup] : []))),
  ];
  const parts: Part[] = [];
  for (const name of setups) {
    const file = join(SETUP_DIR, `${name}.ts`);
    if (!existsSync(file)) {
      errors.push(`${where(block)}: no setup file test/docs/setup/${name}.ts`);
      continue;
    }
    parts.push({
      text: readFileSync(file, "utf8"),
      file: `test/docs/setup/${name}.ts`,
      firstLine: 1,
    });
  }
  for (const part of chain)
    parts.push({ text: part.text, file: part.doc, firstLine: part.line + 1 });

  const bindings: Binding[] = [];
  const bodies: string[] = [];
  const bodyOrigins: string[] = [];
  const expected: ExpectedOutput[] = [];
  for (const part of parts) {
    const split = splitImports(part.text);
    bindings.push(...split.bindings);
    const lines = split.body.split("\n");
    bodies.push(...lines);
    bodyOrigins.push(...lines.map((_, index) => `${part.file}:${part.firstLine + index}`));
    // Setup files print nothing the documents show; only the blocks' outputs are expected.
    if (part.file.endsWith(".md")) {
      const read = readExpected(part);
      expected.push(...read.expected);
      errors.push(...read.errors);
    }
  }
  const header = importLines(bindings);
  const source = [...header, ...bodies, "export {};", ""].join("\n");
  const origins = [
    ...header.map(() => `${where(block)} (imports)`),
    ...bodyOrigins,
    `${where(block)} (end)`,
  ];
  return { block, id: moduleId(block), source, origins, expected, errors };
}

/** Whether a ```ts block is compiled and run by this harness (not mirrored by a tested file). */
export const isRunHere = (block: CodeBlock): boolean =>
  block.lang === "ts" && block.directives.mirrors === undefined;

/** The module of every ```ts block the harness compiles and runs. */
export function blockModules(): BlockModule[] {
  const blocks = allCodeBlocks();
  return blocks.filter(isRunHere).map((block) => blockModule(block, blocks));
}

/** The module for a virtual file name, built afresh from the documents (for the test runner's loader). */
export function moduleFor(id: string): BlockModule | undefined {
  const wanted = parseModuleId(id);
  if (wanted === undefined) return undefined;
  const blocks = allCodeBlocks();
  const block = blocks.find((other) => other.doc === wanted.doc && other.line === wanted.line);
  return block === undefined ? undefined : blockModule(block, blocks);
}
