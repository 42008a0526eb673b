/**
 * The durable suite's global set-up and teardown, in vitest's main process:
 * one temporary folder for the whole run, handed to every test file; at the
 * end, every process a test file started (their ids are listed in the
 * folder) is killed if it still runs, and the folder is removed, whatever
 * happened to the test files.
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    restateRunDir: string;
  }
}

/** Kills a process by id if its command line names `folder` (so never a stranger's reused id). */
function killIfOurs(pid: number, folder: string): void {
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (!commandLine.includes(folder)) return;
  } catch {
    return; // Gone already.
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Exited between the check and the kill.
  }
}

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(join(tmpdir(), "toolbound-restate-run-"));
  project.provide("restateRunDir", folder);
  const teardown = (): void => {
    if (!existsSync(folder)) return;
    for (const suite of readdirSync(folder)) {
      const pids = join(folder, suite, "pids");
      if (!existsSync(pids)) continue;
      for (const line of readFileSync(pids, "utf8").split("\n")) {
        if (line !== "") killIfOurs(Number(line), folder);
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  process.once("exit", teardown);
  return teardown;
}
