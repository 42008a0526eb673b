#!/usr/bin/env node
// `npm run test:runtimes`: the contract wherever agents run. Runs the course's
// focused test on this machine's Node.js (20) and on Node.js 22, and the smoke
// script (the demo's scenarios, asserted, plus the fail-closed load check) on
// Bun, Deno and Node.js 22, each taken from the npm registry through npx.
// Prints every step's output, then a summary; exits 1 when any step failed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const COURSE_TEST = "course/test/06-tool-contract.test.ts";
const SMOKE = "scripts/runtimes/smoke.mjs";
const VITEST = "node_modules/vitest/vitest.mjs";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const node22 = [npx, "-y", "-p", "node@22", "node"];
const bun = [npx, "-y", "bun"];
// Deno asks for permission before a dynamic import reads the TypeScript core,
// and maps the core's `.js` import endings to its `.ts` files only when asked.
const deno = [npx, "-y", "deno", "run", "--unstable-sloppy-imports", "--allow-read=course/src"];
// Node's type stripping looks for the `.js` file an import names; the hook
// answers with the `.ts` file beside it (Bun does this by itself).
const node22Typescript = [
  ...node22,
  "--import",
  "./scripts/runtimes/ts-resolve.mjs",
  "--experimental-transform-types",
  "--no-warnings",
];

const steps = [
  {
    runtime: `Node.js ${process.versions.node}`,
    check: "focused course test",
    command: [process.execPath, VITEST, "run", COURSE_TEST],
  },
  {
    runtime: "Node.js 22",
    check: "focused course test",
    command: [...node22, VITEST, "run", COURSE_TEST],
  },
  { runtime: "Bun", check: "smoke: demo scenarios", command: [...bun, SMOKE] },
  {
    runtime: "Bun",
    check: "smoke: fails closed without getBuiltinModule",
    command: [...bun, SMOKE, "--expect-fail-closed"],
  },
  { runtime: "Deno", check: "smoke: demo scenarios", command: [...deno, SMOKE] },
  {
    runtime: "Deno",
    check: "smoke: fails closed without getBuiltinModule",
    command: [...deno, SMOKE, "--expect-fail-closed"],
  },
  {
    runtime: "Node.js 22",
    check: "smoke: demo scenarios (TypeScript transform)",
    command: [...node22Typescript, SMOKE],
  },
  {
    runtime: "Node.js 22",
    check: "smoke: fails closed without getBuiltinModule",
    command: [...node22Typescript, SMOKE, "--expect-fail-closed"],
  },
];

const summary = [];
for (const step of steps) {
  console.log(`\n=== ${step.runtime}: ${step.check}`);
  if (
    step.command.includes(COURSE_TEST) &&
    !existsSync(new URL(`../../${COURSE_TEST}`, import.meta.url))
  ) {
    summary.push({ ...step, result: "missing test file" });
    continue;
  }
  const [program, ...args] = step.command;
  const run = spawnSync(program, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const passed = run.status === 0;
  summary.push({
    ...step,
    result: passed
      ? "passed"
      : `FAILED (${run.error?.message ?? `exit ${run.status ?? run.signal}`})`,
  });
}

console.log("\n=== runtimes summary");
const width = Math.max(...summary.map((row) => row.runtime.length));
const checkWidth = Math.max(...summary.map((row) => row.check.length));
for (const row of summary) {
  console.log(`${row.runtime.padEnd(width)}  ${row.check.padEnd(checkWidth)}  ${row.result}`);
}
const failed = summary.filter((row) => row.result !== "passed").length;
console.log(`${summary.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
