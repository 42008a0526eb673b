/**
 * CONTRIBUTING.md's list of suites is complete: every npm script of
 * package.json is a command of its "Running the suites" block (each of those
 * commands is checked against package.json by other-blocks.test.ts), so a
 * script added without a line there fails here.
 */

import { expect, test } from "vitest";
import { packageJson } from "./entries.ts";
import { codeBlocks } from "./markdown.ts";
import { shellCommands, simpleCommands } from "./shell-blocks.ts";

/** The npm script each simple command of the suites block runs (`npm test` runs `test`). */
function scriptsRun(): string[] {
  const [suites] = codeBlocks("CONTRIBUTING.md").filter(
    (block) => block.lang === "sh" && block.text.includes("npm run test:"),
  );
  if (suites === undefined) throw new Error("CONTRIBUTING.md has no block of suites");
  return shellCommands(suites).flatMap((command) =>
    simpleCommands(command.line).flatMap(([tool, verb, name]) => {
      if (tool !== "npm") return [];
      if (verb === "run" && name !== undefined) return [name];
      return verb === undefined ? [] : [verb];
    }),
  );
}

test("every npm script has its line in CONTRIBUTING.md's suites block", () => {
  const scripts = Object.keys(packageJson().scripts);
  expect(scripts.length).toBeGreaterThan(10);
  const listed = new Set(scriptsRun());
  expect(scripts.filter((name) => !listed.has(name))).toEqual([]);
});

test("the suites block names no script twice", () => {
  const run = scriptsRun();
  expect(run.length).toBeGreaterThan(0);
  expect(run.filter((name, index) => run.indexOf(name) !== index)).toEqual([]);
});
