/**
 * Test support: `toolbound mcp --http` as a child process on a free
 * loopback port, stopped (and killed if need be) after each test.
 */

import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { afterEach } from "vitest";
import { type Finished, finished, lineOn, start } from "./cli.ts";

/** A started HTTP server process. */
export interface HttpServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The endpoint, read from the start-up line. */
  readonly url: string;
  /** The start-up line itself. */
  readonly banner: string;
  /** Resolves when the process has exited, with everything it wrote. */
  readonly done: Promise<Finished>;
}

const running = new Set<ChildProcessWithoutNullStreams>();

/**
 * For a test file: kills any server a test left running (whatever happened
 * to the test), and answers a function that starts one:
 * `toolbound mcp --http 127.0.0.1:0 …args` (the tools module last).
 *
 * @example
 * const startHttp = useHttpServers();
 * const server = await startHttp([EXAMPLES]);
 */
export function useHttpServers(): (args: readonly string[]) => Promise<HttpServerProcess> {
  afterEach(async () => {
    const left = [...running];
    running.clear();
    for (const child of left) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
  return async (args) => {
    const child = start(["mcp", "--http", "127.0.0.1:0", ...args]);
    running.add(child);
    const done = finished(child);
    const banner = await lineOn(child.stderr, (line) => line.startsWith("toolbound mcp: serving"));
    const url = /at (http:\/\/\S+)/.exec(banner)?.[1];
    if (url === undefined) throw new Error(`no URL in the start-up line: ${banner}`);
    return { child, url, banner, done };
  };
}
