/**
 * `npm run test:mcp-conformance`: starts `toolbound mcp --http` on the
 * conformance Tools (dist/examples/mcp-conformance-tools.js), in session mode
 * and then in stateless mode, and runs every server scenario of the official
 * suite against it (on Node.js 22, which the suite needs). The scenarios
 * toolbound does not pass are listed, with reasons, in expected-failures.yml
 * (and expected-failures-stateless.yml for the stateless run);
 * any other failure, or a listed scenario that passes, fails the run. Each
 * server is stopped with SIGTERM and must exit 0; servers and result
 * directories are removed whatever happens.
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const BINARY = join(ROOT, "dist/src/cli/main.js");
const TOOLS = join(ROOT, "dist/examples/mcp-conformance-tools.js");
const SUITE = join(HERE, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const START_TIMEOUT_MS = 20_000;
const SUITE_TIMEOUT_MS = 300_000;

/** Starts the server and resolves with its URL, read from its start-up line on stderr. */
function startServer(extraArgs) {
  const child = spawn(
    process.execPath,
    [BINARY, "mcp", "--http", "127.0.0.1:0", ...extraArgs, TOOLS],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const exited = new Promise((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  const url = new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no start-up line within ${START_TIMEOUT_MS} ms: ${stderr}`)),
      START_TIMEOUT_MS,
    );
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      const found = /at (http:\/\/\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        done(found[1]);
      }
    });
    exited.then(({ code }) => fail(new Error(`the server exited early (${code}): ${stderr}`)));
  });
  return { child, url, exited, stderr: () => stderr };
}

/** Runs the suite on Node.js 22 and resolves with its exit code. */
function runSuite(url, baseline, outputDir) {
  const child = spawn(
    "npx",
    [
      "-y",
      "-p",
      "node@22",
      "node",
      SUITE,
      "server",
      "--url",
      url,
      "--suite",
      "all",
      "--expected-failures",
      join(HERE, baseline),
      "--output-dir",
      outputDir,
    ],
    { cwd: HERE, stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    stdout += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), SUITE_TIMEOUT_MS);
  return new Promise((done) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      // The summary and the baseline's verdict; each scenario's log is in the output directory.
      const summary = stdout.slice(stdout.indexOf("=== SUMMARY ==="));
      process.stdout.write(`${summary}\n`);
      done(code);
    }),
  );
}

async function runMode(label, extraArgs, baseline) {
  process.stdout.write(`\n== conformance: toolbound mcp --http (${label})\n`);
  const outputDir = mkdtempSync(join(tmpdir(), "toolbound-conformance-"));
  const server = startServer(extraArgs);
  try {
    const url = await server.url;
    const suiteCode = await runSuite(url, baseline, outputDir);
    server.child.kill("SIGTERM");
    const { code, signal } = await server.exited;
    if (code !== 0)
      throw new Error(`the server exited with ${code ?? signal} on SIGTERM: ${server.stderr()}`);
    if (suiteCode !== 0)
      throw new Error(`the conformance suite failed (${label}, exit ${suiteCode})`);
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null)
      server.child.kill("SIGKILL");
    rmSync(outputDir, { recursive: true, force: true });
  }
}

try {
  await runMode("sessions", [], "expected-failures.yml");
  await runMode("stateless", ["--stateless"], "expected-failures-stateless.yml");
  process.stdout.write("\n== conformance passed in both modes\n");
} catch (thrown) {
  process.stderr.write(
    `test:mcp-conformance: ${thrown instanceof Error ? thrown.message : thrown}\n`,
  );
  process.exitCode = 1;
}
