/**
 * `npm run bench:instructions`: row 1's call counted in instructions instead
 * of time, which the load on a shared machine moves far less (runs differ by
 * up to about 5%: garbage collection's heuristics look at time). Each path runs
 * under `valgrind --tool=callgrind` with `node --single-threaded` (garbage
 * collection and compilation on the counted thread) twice, with 20,000 and
 * 120,000 calls; the difference over the 100,000 extra calls is one call.
 * `--cache` adds callgrind's cache and branch simulation (instruction- and
 * data-cache misses, mispredicted branches), about twice as slow. Needs
 * valgrind on the machine; information only, no target.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { callgrindTotals, type EventTotals, perCall } from "./callgrind-totals.ts";
import { type CallPath, PATHS } from "./paths.ts";

const FEWER = 20_000;
const MORE = 120_000;
const CHILD = join(dirname(fileURLToPath(import.meta.url)), "child.js");

const cache = process.argv.includes("--cache");
const unknown = process.argv.slice(2).filter((argument) => argument !== "--cache");
if (unknown.length > 0) {
  console.error(`bench:instructions takes only --cache, not ${unknown.join(" ")}`);
  process.exit(2);
}
if (spawnSync("valgrind", ["--version"]).status !== 0) {
  console.error(
    "npm run bench:instructions counts instructions under valgrind's callgrind, which is not installed here (Debian and Ubuntu: apt-get install valgrind)",
  );
  process.exit(1);
}

/** Runs `calls` calls of `path` under callgrind and answers its totals. */
function count(path: CallPath, calls: number, folder: string): EventTotals {
  const out = join(folder, `${path}.${calls}.out`);
  const simulation = cache ? ["--cache-sim=yes", "--branch-sim=yes"] : [];
  const run = spawnSync(
    "valgrind",
    [
      "--tool=callgrind",
      ...simulation,
      `--callgrind-out-file=${out}`,
      process.execPath,
      "--single-threaded",
      CHILD,
      path,
      String(calls),
    ],
    { encoding: "utf8" },
  );
  if (run.status !== 0) {
    throw new Error(
      `callgrind of ${path} (${calls} calls) exited with ${run.status}: ${run.stderr.slice(-2000)}`,
    );
  }
  return callgrindTotals(readFileSync(out, "utf8"));
}

const folder = mkdtempSync(join(tmpdir(), "toolbound-instructions-"));
const rows: [CallPath, EventTotals][] = [];
try {
  for (const path of PATHS) {
    console.error(`counting ${path}: ${FEWER} and ${MORE} calls under callgrind`);
    rows.push([path, perCall(count(path, FEWER, folder), count(path, MORE, folder), MORE - FEWER)]);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

// By name, not by position: the ratios stay right whatever order PATHS lists the paths in.
const bareIr = rows.find(([path]) => path === "bare")?.[1].get("Ir") ?? Number.NaN;
const columns = cache ? ["Ir", "I1mr", "D1mr", "Bcm"] : ["Ir"];
const header = ["path", ...columns.map((name) => `${name} per call`), "Ir / bare path"];
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map((_, index) => (index === 0 ? " --- " : " ---: ")).join("|")}|`);
for (const [path, totals] of rows) {
  const figures = columns.map((name) =>
    Math.round(totals.get(name) ?? Number.NaN).toLocaleString("en"),
  );
  const ratio = `${((totals.get("Ir") ?? Number.NaN) / bareIr).toFixed(2)}x`;
  console.log(`| ${[path, ...figures, ratio].join(" | ")} |`);
}
console.log(
  `\nNode.js ${process.version}, ${cache ? "with" : "without"} cache and branch simulation`,
);
