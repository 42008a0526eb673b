#!/usr/bin/env node
// `npm run fuzz`: the long property run. Parses the options, then runs the fuzz
// file under Vitest (which compiles the TypeScript) with the plan in the environment.
//
//   npm run fuzz                                   1,000,000 cases, a fresh seed
//   npm run fuzz -- --seed 42 --runs 2000000       a chosen seed and size
//   npm run fuzz -- --seed 42 --from-chunk 37      resume a run from a chunk
//   npm run fuzz -- --property cancellation-wins-everywhere --seed 99 --runs 500 --chunk 500 --path "12:3"
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Command, InvalidArgumentError } from "commander";

function wholeNumber(text) {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError("expected a non-negative whole number");
  }
  return value;
}

function collect(text, previous) {
  return [...previous, text];
}

const program = new Command()
  .name("npm run fuzz --")
  .description("Fuzz the Tool boundary's properties with many generated cases.")
  .option("--seed <n>", "seed of the first chunk (chunk i uses seed + i)", wholeNumber)
  .option(
    "--runs <n>",
    "total generated cases, shared between the properties",
    wholeNumber,
    1_000_000,
  )
  .option("--chunk <n>", "cases per chunk (one progress line each)", wholeNumber, 10_000)
  .option("--from-chunk <n>", "skip the chunks before this index (resume)", wholeNumber, 0)
  .option("--property <name>", "fuzz only this property (repeatable; default all)", collect, [])
  .option("--path <path>", "replay one counterexample path printed by a failure")
  .showHelpAfterError();

program.parse();
const options = program.opts();
if (options.chunk === 0) program.error("--chunk must be positive");
const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
const request = {
  seed,
  runs: options.runs,
  chunk: options.chunk,
  fromChunk: options.fromChunk,
  properties: options.property,
  ...(options.path === undefined ? {} : { path: options.path }),
};

console.log(
  `fuzz: ${request.runs.toLocaleString("en")} cases over ` +
    `${request.properties.length > 0 ? request.properties.join(", ") : "every property"}, ` +
    `seed ${seed}, chunks of ${request.chunk.toLocaleString("en")}` +
    (request.fromChunk > 0 ? `, resuming at chunk ${request.fromChunk}` : ""),
);

const root = fileURLToPath(new URL("..", import.meta.url));
const result = spawnSync(
  process.execPath,
  [
    "--max-old-space-size=4096",
    "node_modules/vitest/vitest.mjs",
    "run",
    "--config",
    "fuzz/vitest.fuzz.config.ts",
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, TOOLBOUND_FUZZ_REQUEST: JSON.stringify(request) },
  },
);
process.exitCode = result.status ?? 1;
