/**
 * A throwaway Restate server for the example and the durable suite: the
 * npm registry's `restate-server` binary, started on loopback ports chosen
 * for this run, with its data in a fresh temporary directory. `stop()` kills
 * it and removes the directory; so does the process's exit, whatever ends it
 * (a thrown error, a failed test, Ctrl-C). `kill()` and `restart()` are for
 * crash tests: a real SIGKILL, then the same binary on the same data and ports.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A running local Restate server. */
export interface LocalRestate {
  /** The ingress, where invocations are sent: `http://127.0.0.1:<port>`. */
  readonly ingressUrl: string;
  /** The admin API, where deployments are registered: `http://127.0.0.1:<port>`. */
  readonly adminUrl: string;
  /** The server's data directory (removed by `stop()`). */
  readonly dataDir: string;
  /** The server's process id while it runs. */
  readonly pid: number | undefined;
  /** Registers the service endpoint at `uri` through the admin API (`POST /deployments`). */
  register(uri: string): Promise<void>;
  /** Runs SQL against the server's introspection tables (`POST /query`) and returns the rows. */
  query<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  /** Kills the server with SIGKILL and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same data directory and ports, and waits until it serves. */
  restart(): Promise<void>;
  /** Kills the server and removes its data directory. */
  stop(): Promise<void>;
}

/** Options of {@link startLocalRestate}. */
export interface LocalRestateOptions {
  /** Where `@restatedev/restate-server` is installed (a folder with its `node_modules`). */
  readonly installDir: string;
  /** The parent of the data directory. Default: the OS temporary directory. */
  readonly parentDir?: string;
  /** Receives the server's output. Default: dropped. */
  readonly onOutput?: (chunk: string) => void;
  /** Called with each server process id as it starts (a suite records them for its teardown). */
  readonly onSpawn?: (pid: number) => void;
}

/** Resolves with a TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** The path of the platform's `restate-server` binary installed under `installDir`. */
export function restateServerBinary(installDir: string): string {
  const require = createRequire(join(installDir, "package.json"));
  // The binary itself, not the package's Node.js wrapper: a SIGKILL must reach the server.
  return require.resolve(
    `@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`,
  );
}

// Whatever ends this process, no server outlives it and no data directory stays.
const running = new Set<ChildProcess>();
const directories = new Set<string>();
function cleanUpNow(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  directories.clear();
}
process.once("exit", cleanUpNow);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    cleanUpNow();
    process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 1));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntilServing(urls: readonly string[], child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (const url of urls) {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `restate-server exited while starting (${child.exitCode ?? child.signalCode})`,
        );
      }
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`restate-server did not serve ${url} in 60 s`);
      await sleep(50);
    }
  }
}

/**
 * Starts `restate-server` on three loopback ports chosen now (ingress, admin,
 * node-to-node), with its data in a new temporary directory, telemetry off,
 * and waits until the admin API and the ingress answer.
 *
 * @example
 * const restate = await startLocalRestate({ installDir: "test/restate" });
 * try {
 *   await restate.register("http://127.0.0.1:9080");
 * } finally {
 *   await restate.stop();
 * }
 */
export async function startLocalRestate(options: LocalRestateOptions): Promise<LocalRestate> {
  const binary = restateServerBinary(options.installDir);
  const dataDir = mkdtempSync(join(options.parentDir ?? tmpdir(), "toolbound-restate-"));
  directories.add(dataDir);
  const [ingress, admin, node] = [await freePort(), await freePort(), await freePort()];
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const adminUrl = `http://127.0.0.1:${admin}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    RESTATE_DISABLE_TELEMETRY: "true",
    RESTATE_ADMIN__DISABLE_WEB_UI: "true",
    RESTATE_LISTEN_MODE: "tcp",
    RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
    RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}/`,
    RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
    RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
    RESTATE_DEFAULT_NUM_PARTITIONS: "4",
    RESTATE_LOG_FORMAT: "compact",
    RESTATE_LOG_DISABLE_ANSI_CODES: "true",
  };
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const started = spawn(
      binary,
      ["--base-dir", dataDir, "--node-name", "toolbound", "--no-logo"],
      { cwd: dataDir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    running.add(started);
    started.once("exit", () => running.delete(started));
    if (started.pid !== undefined) options.onSpawn?.(started.pid);
    const forward = (chunk: Buffer) => options.onOutput?.(chunk.toString("utf8"));
    started.stdout?.on("data", forward);
    started.stderr?.on("data", forward);
    await waitUntilServing([`${adminUrl}/health`, `${ingressUrl}/restate/health`], started);
  };

  const kill = async (): Promise<void> => {
    const current = child;
    child = undefined;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once("exit", resolve));
    current.kill("SIGKILL");
    await exited;
  };

  try {
    await launch();
  } catch (error) {
    await kill();
    rmSync(dataDir, { recursive: true, force: true });
    directories.delete(dataDir);
    throw error;
  }

  return {
    ingressUrl,
    adminUrl,
    dataDir,
    get pid() {
      return child?.pid;
    },
    async register(uri) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uri, force: true }),
      });
      if (!response.ok) {
        throw new Error(`registering ${uri} failed: ${response.status} ${await response.text()}`);
      }
    },
    async query<Row>(sql: string) {
      const response = await fetch(`${adminUrl}/query`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query: sql }),
      });
      if (!response.ok)
        throw new Error(`query failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { rows: Row[] }).rows;
    },
    kill,
    async restart() {
      await kill();
      await launch();
    },
    async stop() {
      await kill();
      rmSync(dataDir, { recursive: true, force: true });
      directories.delete(dataDir);
    },
  };
}
