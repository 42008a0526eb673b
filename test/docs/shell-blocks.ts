/**
 * What a ```sh block of the documents means to the tests. Each command line
 * (a trailing `\` joins the next) is one of:
 *
 * - a project command (`npm ci`, `npm test`, `npm run <script> -- <path>`,
 *   `npx <installed tool>`): checked, not run: the script must be one of
 *   package.json's, a path passed to it must exist, the tool must be installed;
 * - a `toolbound` command: run with the built command line from the
 *   repository's root (pipes and all, through bash), and its output
 *   (standard output and error together, as a terminal shows them) compared
 *   with the `# → …` lines under it; it must exit with 0, or with the code a
 *   `<!-- doc-test: exit=N -->` directive gives the block;
 * - `toolbound mcp …`: started under the official MCP client instead, which
 *   lists its Tools and calls one.
 *
 * A command may start with environment assignments (`NAME=value`), and
 * `npx toolbound` is the built `toolbound`, as in a user's install.
 *
 * Other comment lines are prose. Any other command fails the test: extend
 * this file rather than leave a command unchecked.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { packageJson } from "./entries.ts";
import { type CodeBlock, ROOT } from "./markdown.ts";

/** A command line of a block, with the output shown under it. */
export interface ShellCommand {
  readonly origin: string;
  readonly line: string;
  readonly shown: string | undefined;
  /** A comment right under the command that is not marked as its output (`# → …`). */
  readonly unmarked?: string;
}

/** The command lines of a ```sh block and the outputs shown under them. */
export function shellCommands(block: CodeBlock): ShellCommand[] {
  const lines = block.text.split("\n");
  const commands: {
    origin: string;
    line: string;
    shown: string[] | undefined;
    unmarked?: string;
  }[] = [];
  let output = false;
  let under = false;
  for (let index = 0; index < lines.length; index += 1) {
    const origin = `${block.doc}:${block.line + 1 + index}`;
    let line = (lines[index] ?? "").trim();
    const last = commands.at(-1);
    if (line === "") {
      output = false;
      under = false;
    } else if (line.startsWith("#")) {
      const arrow = /^# →(?: (.*))?$/.exec(line);
      if (under && arrow === null && last !== undefined && !output) last.unmarked = origin;
      under = false;
      if (arrow !== null && last !== undefined && (output || last.shown === undefined)) {
        last.shown = [...(last.shown ?? []), arrow[1] ?? ""];
        output = true;
      } else if (output && last !== undefined) {
        last.shown?.push(line.replace(/^# ?/, ""));
      }
    } else {
      while (line.endsWith("\\") && index + 1 < lines.length) {
        index += 1;
        line = `${line.slice(0, -1).trimEnd()} ${(lines[index] ?? "").trim()}`;
      }
      commands.push({ origin, line, shown: undefined });
      output = false;
      under = true;
    }
  }
  return commands.map((command) => ({ ...command, shown: command.shown?.join("\n") }));
}

/** Splits a command line into words as a POSIX shell would for simple quoting; operators are words of their own. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? "";
    if (char === "'" || char === '"') {
      const end = line.indexOf(char, index + 1);
      if (end === -1) throw new Error(`unclosed quote in: ${line}`);
      word = (word ?? "") + line.slice(index + 1, end);
      index = end;
    } else if (char === "#" && word === undefined) {
      break; // a comment to the end of the line
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if ("|;&".includes(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      const double = line[index + 1] === char && char !== ";";
      words.push(double ? char + char : char);
      if (double) index += 1;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** A simple command's environment assignments, and its words with `npx toolbound` read as `toolbound`. */
export function invocation(words: readonly string[]): {
  env: Record<string, string>;
  words: string[];
} {
  const env: Record<string, string> = {};
  let index = 0;
  for (; index < words.length; index += 1) {
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(words[index] ?? "");
    if (assignment === null) break;
    env[assignment[1] ?? ""] = assignment[2] ?? "";
  }
  const rest = words.slice(index);
  return { env, words: rest[0] === "npx" && rest[1] === "toolbound" ? rest.slice(1) : rest };
}

/** The simple commands of a line (split at `|`, `||`, `&&` and `;`), each as its words, without its environment assignments. */
export function simpleCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  for (const word of shellWords(line)) {
    if (["|", "||", "&&", ";"].includes(word)) commands.push([]);
    else commands.at(-1)?.push(word);
  }
  return commands.filter((words) => words.length > 0).map((words) => invocation(words).words);
}

const NPM_BUILTINS = new Set(["ci", "install", "i"]);
const NPM_LIFECYCLE = new Set(["test", "start", "stop", "restart"]);

/** Why a project command (`npm …`, `npx …`) is wrong, or undefined when it is one the project has. */
export function projectCommandProblem(words: readonly string[]): string | undefined {
  const [tool, ...args] = words;
  if (tool === "npx") {
    const bin = args.find((arg) => !arg.startsWith("-"));
    return bin !== undefined && existsSync(join(ROOT, "node_modules/.bin", bin))
      ? undefined
      : `npx ${bin ?? ""}: no such installed tool`;
  }
  if (tool !== "npm") return `not a project command: ${words.join(" ")}`;
  const scripts = packageJson().scripts;
  const [verb = "", ...rest] = args;
  if (NPM_BUILTINS.has(verb)) return undefined;
  let script: string | undefined;
  let passed: string[] = [];
  if (NPM_LIFECYCLE.has(verb)) {
    script = verb;
    passed = rest;
  } else if (verb === "run" || verb === "run-script") {
    const names = rest.filter((arg) => !arg.startsWith("-"));
    script = names[0];
    passed = rest.slice(rest.indexOf(script ?? "") + 1);
  } else {
    return `npm ${verb}: not a command the project uses`;
  }
  if (script === undefined || scripts[script] === undefined) {
    return `npm script "${script ?? ""}" is not in package.json`;
  }
  const paths = passed.filter((arg) => !arg.startsWith("-") && /\//.test(arg));
  const missing = paths.filter((path) => !existsSync(join(ROOT, path)));
  return missing.length === 0 ? undefined : `no such file: ${missing.join(", ")}`;
}

/** How the tests treat a command line: checked as a project command, run, or served over MCP. */
export type CommandKind = "project" | "run" | "mcp";

/** The kind of a command line, or an error saying why the tests cannot treat it. */
export function commandKind(line: string): CommandKind | Error {
  const commands = simpleCommands(line);
  const tools = commands.map((words) => words[0] ?? "");
  if (tools.length > 0 && tools.every((tool) => tool === "npm" || tool === "npx")) {
    return "project";
  }
  if (!tools.includes("toolbound")) return new Error(`no rule checks this command: ${line}`);
  const others = tools.filter((tool) => !["toolbound", "printf", "echo", "cat"].includes(tool));
  if (others.length > 0) return new Error(`no rule runs ${others.join(", ")} in: ${line}`);
  if (commands.some((words) => words[0] === "toolbound" && words[1] === "mcp")) {
    return commands.length === 1 ? "mcp" : new Error(`toolbound mcp serves alone: ${line}`);
  }
  return "run";
}
