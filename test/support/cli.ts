/**
 * Test support for the command line (not part of the published surface):
 * builds the package once per test run, writes tools-module fixtures, and
 * runs the built binary as a user would.
 */

import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll } from "vitest";

/** The repository root (this file sits in `test/support`). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The built executable, as `package.json` `bin` names it. */
export const BINARY = join(ROOT, "dist/src/cli/main.js");
/** The built example tools module. */
export const EXAMPLES = join(ROOT, "dist/examples/tools.js");

const SOURCES = ["course/src", "src", "examples", "demo"];
const CACHE = join(ROOT, "node_modules/.cache/toolbound-cli-tests");
const STAMP = join(CACHE, "built.stamp");
const LOCK = join(CACHE, "build.lock");
// A lock older than this was left by a run that died; builds take seconds.
const STALE_LOCK_MS = 120_000;

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

function isBuildFresh(): boolean {
  try {
    const built = statSync(STAMP).mtimeMs;
    statSync(BINARY);
    const inputs = [
      ...SOURCES.map((source) => newestSource(join(ROOT, source))),
      statSync(join(ROOT, "tsconfig.json")).mtimeMs,
      statSync(join(ROOT, "tsconfig.build.json")).mtimeMs,
    ];
    return Math.max(...inputs) <= built;
  } catch {
    return false;
  }
}

async function acquireLock(): Promise<void> {
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true });
      } catch {
        // Released meanwhile: try again.
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
}

/**
 * Runs `npm run build` unless the build is newer than every source, under a
 * lock, so the test files that call it in `beforeAll` build once per run
 * between them (and never write `dist` concurrently).
 *
 * @example
 * beforeAll(ensureBuilt, 120_000);
 */
export async function ensureBuilt(): Promise<void> {
  await acquireLock();
  try {
    if (isBuildFresh()) return;
    const started = new Date();
    execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "pipe" });
    writeFileSync(STAMP, "");
    // Stamped with the start time: a source saved during the build triggers the next one.
    utimesSync(STAMP, started, started);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** What a finished run of the binary left behind. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The non-empty lines of some output. */
export const lines = (text: string): string[] => text.split("\n").filter((line) => line !== "");

/** How the binary is started: options for node itself, and variables added to the environment. */
export interface RunOptions {
  readonly nodeOptions?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Starts `node dist/src/cli/main.js …args` with pipes on all three streams.
 *
 * @example
 * const child = start(["call", EXAMPLES]);
 */
export function start(
  args: readonly string[],
  options: RunOptions = {},
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...(options.nodeOptions ?? []), BINARY, ...args], {
    cwd: ROOT,
    stdio: "pipe",
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
  });
}

/**
 * Collects a started child's output until it exits.
 *
 * @example
 * const { code, stdout } = await finished(start(["list", EXAMPLES]));
 */
export function finished(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((done, fail) => {
    child.once("error", fail);
    child.once("close", (code) => done({ code, stdout, stderr }));
  });
}

/**
 * Runs the binary to completion, with `input` written to its standard input
 * (which is then closed).
 *
 * @example
 * const { code, stdout, stderr } = await run(["call", EXAMPLES], '{"name":"add"}\n');
 */
export function run(
  args: readonly string[],
  input = "",
  options: RunOptions = {},
): Promise<Finished> {
  const child = start(args, options);
  const result = finished(child);
  child.stdin.end(input);
  return result;
}

/**
 * Resolves once a line satisfying `predicate` has appeared on `stream`.
 *
 * @example
 * await lineOn(child.stderr, (line) => line === "probe: started");
 */
export function lineOn(
  stream: NodeJS.ReadableStream,
  predicate: (line: string) => boolean,
): Promise<string> {
  return new Promise((done, fail) => {
    let buffer = "";
    const onData = (chunk: Buffer | string): void => {
      buffer += chunk.toString();
      const found = buffer.split("\n").find(predicate);
      if (found === undefined) return;
      stream.off("data", onData);
      done(found);
    };
    stream.on("data", onData);
    stream.once("end", () => fail(new Error(`stream ended without the expected line: ${buffer}`)));
  });
}

const url = (path: string): string => pathToFileURL(join(ROOT, path)).href;

/**
 * Tools modules for the tests, by file name. `probe.mjs` adds to the example
 * Tools a `probe` that reports starting and being aborted on standard error,
 * a `fatal` that throws NonRecoverableToolError, and a `stuck` Tool whose
 * promise never settles. `log.mjs` adds a `log` Tool printing a 5,000-line
 * log (`line 1` to `line 5000`), and `log-registry.mjs` exports the same
 * Tools as a registry with options of its own (a 2,000-character budget,
 * tail kept). `media.mjs` has a `chart` Tool returning `toolContent`: text,
 * a 1x1 PNG, and a PNG that claims to be a PDF.
 */
export const FIXTURES: Readonly<Record<string, string>> = {
  "probe.mjs": `
import examples from ${JSON.stringify(url("dist/examples/tools.js"))};
import { NonRecoverableToolError } from ${JSON.stringify(url("dist/course/src/index.js"))};
const anything = (input) => ({ ok: true, value: input });
const probe = {
  name: "probe",
  description: "Wait until cancelled, reporting on standard error.",
  validate: anything,
  execute: (_input, { signal }) =>
    new Promise((_resolve, reject) => {
      const alive = setInterval(() => {}, 60_000);
      signal.addEventListener("abort", () => {
        clearInterval(alive);
        process.stderr.write("probe: aborted\\n");
        reject(signal.reason);
      }, { once: true });
      process.stderr.write("probe: started\\n");
    }),
};
const fatal = {
  name: "fatal",
  description: "Break an invariant.",
  validate: anything,
  execute: async () => { throw new NonRecoverableToolError("ledger is inconsistent"); },
};
const stuck = {
  name: "stuck",
  description: "Return a promise that never settles.",
  validate: anything,
  execute: () => new Promise(() => {}),
};
export default [...examples, probe, fatal, stuck];
`,
  "log.mjs": `
import examples from ${JSON.stringify(url("dist/examples/tools.js"))};
export const LOG = Array.from({ length: 5000 }, (_, index) => "line " + (index + 1)).join("\\n");
export const log = {
  name: "log",
  description: "Print a 5,000-line log.",
  validate: (input) => ({ ok: true, value: input }),
  execute: async () => LOG,
};
export default [...examples, log];
`,
  "log-registry.mjs": `
import tools from "./log.mjs";
import { ToolRegistry } from ${JSON.stringify(url("dist/course/src/index.js"))};
export default new ToolRegistry(tools, { outputBudget: { maxCharacters: 2000 }, truncate: "tail" });
`,
  "media.mjs": `
import { toolContent } from ${JSON.stringify(url("dist/course/src/index.js"))};
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const chart = {
  name: "chart",
  description: "Render a one-pixel chart, and a file that lies about its type.",
  validate: (input) => ({ ok: true, value: input }),
  execute: async () => toolContent([
    { type: "text", text: "Rendered." },
    { type: "image", data: PNG, mimeType: "image/png" },
    { type: "file", data: PNG, mimeType: "application/pdf", name: "chart.pdf" },
  ]),
};
export default [chart];
`,
  "registry.mjs": `
import examples from ${JSON.stringify(url("dist/examples/tools.js"))};
import { ToolRegistry } from ${JSON.stringify(url("dist/course/src/index.js"))};
export default new ToolRegistry(examples.slice(0, 2));
`,
  // A second copy of the registry class, as a global and a local install would give.
  "foreign-registry.mjs": `
import examples from ${JSON.stringify(url("dist/examples/tools.js"))};
import { ToolRegistry } from ${JSON.stringify(`${url("dist/course/src/registry.js")}?copy=foreign`)};
export default new ToolRegistry(examples.slice(0, 2));
`,
  "named-only.mjs": "export const tools = [];\n",
  "number.mjs": "export default 42;\n",
  "object.mjs": "export default { add: {} };\n",
  "empty.mjs": "export default [];\n",
  "bad-definition.mjs": 'export default [{ name: "x", description: "No functions." }];\n',
  "throws.mjs": 'throw new Error("configuration missing");\n',
  "tools.ts": "export default [];\n",
};

/**
 * Writes {@link FIXTURES} into a new temporary directory and returns its path.
 *
 * @example
 * const fixtures = writeFixtures(); // join(fixtures, "probe.mjs")
 */
export function writeFixtures(): string {
  const directory = mkdtempSync(join(tmpdir(), "toolbound-cli-"));
  for (const [name, source] of Object.entries(FIXTURES)) {
    writeFileSync(join(directory, name), source);
  }
  return directory;
}

/**
 * For a test file: builds the package once before its tests, writes the
 * fixtures, and removes them afterwards. Answers the path of one fixture.
 *
 * @example
 * const fixture = useBuiltFixtures();
 * await run(["list", fixture("probe.mjs")]);
 */
export function useBuiltFixtures(): (file: string) => string {
  let fixtures = "";
  beforeAll(async () => {
    await ensureBuilt();
    fixtures = writeFixtures();
  }, 180_000);
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));
  return (file) => join(fixtures, file);
}
