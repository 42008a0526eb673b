/**
 * Runs a documentation module inside the test process and answers what it
 * printed. Each run gets its own temporary directory (as `os.tmpdir()`,
 * removed afterwards), and whatever a setup changes for the run (the global
 * `fetch` an SDK client uses, environment variables such as an API key) is
 * put back afterwards.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "node:util";
import { vi } from "vitest";
import type { BlockModule } from "./block-modules.ts";

/** Imports `module` (its virtual file, served by the plugin) and answers each `console.log` line it printed. */
export async function runModule(module: BlockModule): Promise<string[]> {
  const printed: string[] = [];
  const fetch = globalThis.fetch;
  const environment = { ...process.env };
  const scratch = mkdtempSync(join(tmpdir(), "toolbound-doc-block-"));
  process.env.TMPDIR = scratch;
  const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    printed.push(format(...args));
  });
  try {
    await import(/* @vite-ignore */ module.id);
  } finally {
    log.mockRestore();
    globalThis.fetch = fetch;
    for (const key of Object.keys(process.env)) {
      if (!(key in environment)) delete process.env[key];
    }
    Object.assign(process.env, environment);
    rmSync(scratch, { recursive: true, force: true });
  }
  return printed;
}
