/**
 * Every code block of README.md, CONTRIBUTING.md and docs/*.md that is not
 * TypeScript run here: each has a known kind (block-kinds.ts) and valid
 * directives; shell blocks are checked or run (shell-blocks.ts), JSON parsed
 * and validated (json-configs.ts), text and diagrams checked; a block that
 * mirrors a tested file is exactly what that file marks; a block another
 * suite reads and runs (`tested-by=<test file>`) names a test that reads its
 * document.
 */

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBuilt } from "../support/cli.ts";
import { BLOCK_KINDS, diagramProblems } from "./block-kinds.ts";
import { matchesShown } from "./expected-output.ts";
import { CONFIG_CHECKS } from "./json-configs.ts";
import { allCodeBlocks, type CodeBlock, markedLines, ROOT, where } from "./markdown.ts";
import { checkServer } from "./mcp-server.ts";
import {
  commandKind,
  invocation,
  projectCommandProblem,
  type ShellCommand,
  shellCommands,
  shellWords,
  simpleCommands,
} from "./shell-blocks.ts";

const blocks = allCodeBlocks();
const ofLang = (lang: string) => blocks.filter((block) => block.lang === lang);
const named = (list: readonly CodeBlock[]) => list.map((block) => [where(block), block] as const);

describe("every block", () => {
  test("has a kind the tests know, and valid directives", () => {
    expect(blocks.length).toBeGreaterThan(10);
    const unknown = blocks.filter((block) => !(block.lang in BLOCK_KINDS)).map(where);
    expect(unknown, "give each block a language of BLOCK_KINDS").toEqual([]);
    expect(
      blocks.flatMap((block) => block.directiveErrors.map((e) => `${where(block)}: ${e}`)),
    ).toEqual([]);
  });

  test("uses only the directives its kind reads", () => {
    const allowed: Record<string, readonly string[]> = {
      ts: ["setup", "continues", "mirrors", "serves"],
      sh: ["exit", "tested-by"],
      json: ["config", "tested-by"],
    };
    const misplaced = blocks.flatMap((block) =>
      Object.keys(block.directives)
        .filter((key) => !(allowed[block.lang] ?? []).includes(key))
        .map((key) => `${where(block)}: "${key}" means nothing to a ${block.lang} block`),
    );
    expect(misplaced).toEqual([]);
  });
});

const TESTS = /\.(test|interop)\.ts$/;

/** Whether a file is loaded by name by another tracked file (a test, an example a suite runs) or an npm script. */
function loadedByName(): (file: string) => boolean {
  const tracked = spawnSync("git", ["ls-files", "*.ts", "*.mjs"], { cwd: ROOT, encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean);
  const texts = new Map(tracked.map((file) => [file, readFileSync(join(ROOT, file), "utf8")]));
  const scripts = readFileSync(join(ROOT, "package.json"), "utf8");
  return (file) => {
    const name = `${file.replace(/^.*\//, "").replace(/\.ts$/, "")}.`;
    return (
      scripts.includes(name) ||
      [...texts].some(([other, text]) => other !== file && text.includes(name))
    );
  };
}

describe("mirrored blocks are exactly the lines their tested file marks", () => {
  const mirrored = blocks.filter((block) => block.directives.mirrors !== undefined);
  const runs = loadedByName();
  test("the documents mirror tested files", () => {
    expect(mirrored.length).toBeGreaterThan(0);
  });
  test.each(named(mirrored))("%s", (_, block) => {
    const file = block.directives.mirrors ?? "";
    expect(existsSync(join(ROOT, file)), `${file} exists`).toBe(true);
    expect(
      TESTS.test(file) || runs(file),
      `${file}: mirror a test or interop file, or a file a test, an example a suite runs, or an npm script loads`,
    ).toBe(true);
    expect(block.text).toBe(markedLines(file));
  });
});

describe("blocks another suite runs name a test that reads their document", () => {
  const elsewhere = blocks.filter((block) => block.directives["tested-by"] !== undefined);
  test.each(named(elsewhere))("%s", (_, block) => {
    const file = block.directives["tested-by"] ?? "";
    expect(file).toMatch(TESTS);
    expect(existsSync(join(ROOT, file)), `${file} exists`).toBe(true);
    expect(readFileSync(join(ROOT, file), "utf8")).toContain(block.doc);
  });
});

/** Runs a command line with bash from the root, `toolbound` (and `npx toolbound`) being the built executable. */
function runLine(line: string): { code: number | null; output: string } {
  const script = [
    'toolbound() { node "$TOOLBOUND_BIN" "$@"; }',
    'npx() { if [ "$1" = toolbound ]; then shift; toolbound "$@"; else command npx "$@"; fi; }',
    `{ ${line}\n} 2>&1`,
  ].join("\n");
  const result = spawnSync("bash", ["-c", script], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, TOOLBOUND_BIN: join(ROOT, "dist/src/cli/main.js") },
    input: "",
    timeout: 60_000,
  });
  return { code: result.status, output: result.stdout };
}

describe("shell blocks", () => {
  const shell = ofLang("sh").filter((block) => block.directives["tested-by"] === undefined);
  const commands = shell.flatMap((block) =>
    shellCommands(block).map((command) => [command.origin, block, command] as const),
  );
  beforeAll(ensureBuilt, 180_000);

  test("the documents have shell blocks, and each line is a command the tests know", () => {
    expect(commands.length).toBeGreaterThan(3);
    const unknown = commands
      .map(([, , command]) => commandKind(command.line))
      .filter((kind) => kind instanceof Error)
      .map(String);
    expect(unknown).toEqual([]);
  });

  test.each(commands)(
    "%s",
    async (_, block, command: ShellCommand) => {
      expect(command.unmarked, 'a comment right under a command is its output: "# → …"').toBe(
        undefined,
      );
      const kind = commandKind(command.line);
      if (kind === "project") {
        expect(command.shown, "project commands are checked, not run: show no output").toBe(
          undefined,
        );
        const problems = simpleCommands(command.line).map(projectCommandProblem);
        expect(problems.filter((problem) => problem !== undefined)).toEqual([]);
      } else if (kind === "mcp") {
        const { env, words } = invocation(shellWords(command.line));
        const [, ...args] = words;
        expect(await checkServer([join(ROOT, "dist/src/cli/main.js"), ...args], env)).not.toEqual(
          [],
        );
      } else if (kind === "run") {
        const { code, output } = runLine(command.line);
        expect(code, output).toBe(Number(block.directives.exit ?? 0));
        if (command.shown !== undefined) {
          expect(
            matchesShown(command.shown, output),
            `shows\n${command.shown}\nbut printed\n${output}`,
          ).toBe(true);
        }
      } else throw kind;
    },
    60_000,
  );
});

describe("JSON blocks parse, and configurations are valid", () => {
  const json = ofLang("json").filter((block) => block.directives["tested-by"] === undefined);
  beforeAll(ensureBuilt, 180_000);
  test.each(named(json))(
    "%s",
    async (_, block) => {
      const value: unknown = JSON.parse(block.text);
      const config = block.directives.config;
      if (config === undefined) return;
      const check = CONFIG_CHECKS[config];
      expect(check, `no check for config=${config}`).toBeDefined();
      await check?.(value);
    },
    60_000,
  );
});

test("text blocks are not empty", () => {
  const empty = ofLang("text").filter((block) => block.text.trim() === "");
  expect(empty.map(where)).toEqual([]);
});

test("diagrams name what the sources have", () => {
  const diagrams = ofLang("mermaid");
  expect(diagrams.length).toBeGreaterThan(0);
  const problems = diagrams.flatMap((block) =>
    diagramProblems(block).map((problem) => `${where(block)}: ${problem}`),
  );
  expect(problems).toEqual([]);
});
