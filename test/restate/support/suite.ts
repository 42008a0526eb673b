/**
 * The durable suite's harness: a real restate-server (from this folder's
 * install) and the durable service in a child process, both on loopback ports
 * chosen for this run, their data and the service's records in one temporary
 * folder. `stop()` kills both and removes the folder; the global teardown
 * does the same for anything a crashed test file left behind.
 */

import { type ChildProcess, spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as clients from "@restatedev/restate-sdk-clients";
import { inject } from "vitest";
import type { CourseJsonObject, CourseToolCall } from "../../../course/src/index.ts";
import {
  freePort,
  type LocalRestate,
  startLocalRestate,
} from "../../../examples/durable-agent/local-restate.ts";
import type { RoundReply, RoundRequest } from "./durable-service.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/** The suite's folder, where `@restatedev/restate-server` is installed. */
export const SUITE_DIR = here("..");
const SERVICE_JS = here("../build/test/restate/support/durable-service.js");

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 20 ms until it holds; fails after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A journal row as `sys_journal` gives it. */
export interface JournalRow {
  readonly id: string;
  readonly index: number;
  readonly entry_type: string;
  readonly name: string | null;
  readonly entry_json: string;
}

/** One Run command of a journal with its completion, if any. */
export interface JournaledStep {
  readonly name: string;
  readonly completions: readonly unknown[];
}

/** A running suite: the server, the service and the records of its Tools. */
export interface Suite {
  readonly restate: LocalRestate;
  readonly ingress: clients.Ingress;
  readonly output: () => string;
  /** Sends a `round` invocation and returns its invocation id. */
  sendRound(request: RoundRequest): Promise<string>;
  /** Sends a `single` invocation and returns its invocation id. */
  sendSingle(request: { call: unknown; timeoutMs?: number }): Promise<string>;
  /** Waits for an invocation's outcome: its output, or the error it failed with. */
  attach<T = RoundReply>(
    invocationId: string,
  ): Promise<{ ok: true; value: T } | { ok: false; status: number; message: string }>;
  /** Cancels an invocation through the admin API. */
  cancel(invocationId: string): Promise<void>;
  /** Lines of one of the service's logs (`attempts.log`, `aborts.log`, `approvals.log`). */
  lines(file: string): string[];
  /** The idempotency keys that have an effect. */
  effects(): string[];
  /** The Run commands of an invocation's journal, each with its completion notifications. */
  steps(invocationId: string): Promise<JournaledStep[]>;
  killService(): Promise<void>;
  startService(): Promise<void>;
  stop(): Promise<void>;
}

function recordPid(root: string, pid: number | undefined): void {
  if (pid !== undefined) appendFileSync(join(root, "pids"), `${pid}\n`);
}

/** Starts a server and the service, registered; call `stop()` in `afterAll`. */
export async function startSuite(): Promise<Suite> {
  const root = mkdtempSync(join(inject("restateRunDir"), "suite-"));
  const storeDir = join(root, "store");
  mkdirSync(storeDir);
  let log = "";
  const keep = (chunk: string) => {
    log += chunk;
    if (log.length > 2_000_000) log = log.slice(-1_000_000);
  };
  const restate = await startLocalRestate({
    installDir: SUITE_DIR,
    parentDir: root,
    onOutput: keep,
    onSpawn: (pid) => recordPid(root, pid),
  });
  const servicePort = await freePort();
  let service: ChildProcess | undefined;

  const startService = async () => {
    const child = spawn(process.execPath, [SERVICE_JS, root], {
      env: {
        PATH: process.env.PATH,
        TOOLBOUND_STORE: storeDir,
        TOOLBOUND_SERVICE_PORT: String(servicePort),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    service = child;
    recordPid(root, child.pid);
    let ready = false;
    child.stdout?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      if (text.includes("durable-service ready")) ready = true;
      keep(text);
    });
    child.stderr?.on("data", (chunk: Buffer) => keep(chunk.toString("utf8")));
    await waitFor(() => {
      if (child.exitCode !== null) throw new Error(`durable-service exited: ${log.slice(-2000)}`);
      return ready;
    }, "the service to listen");
  };
  const killService = async () => {
    const child = service;
    service = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };

  try {
    await startService();
    await restate.register(`http://127.0.0.1:${servicePort}`);
  } catch (error) {
    await killService();
    await restate.stop();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const ingress = clients.connect({ url: restate.ingressUrl });
  const send = async (handler: string, body: unknown): Promise<string> => {
    const response = await fetch(`${restate.ingressUrl}/durable/${handler}/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`send failed: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { invocationId: string }).invocationId;
  };
  const read = (file: string) => {
    const path = join(storeDir, file);
    return existsSync(path)
      ? readFileSync(path, "utf8")
          .split("\n")
          .filter((line) => line !== "")
      : [];
  };

  return {
    restate,
    ingress,
    output: () => log,
    sendRound: (request) => send("round", request),
    sendSingle: (request) => send("single", request),
    async attach<T>(invocationId: string) {
      for (;;) {
        let response: Response;
        try {
          response = await fetch(`${restate.ingressUrl}/restate/invocation/${invocationId}/attach`);
        } catch {
          // The server is restarting: attach again.
          await sleep(100);
          continue;
        }
        const text = await response.text();
        if (response.ok) return { ok: true as const, value: JSON.parse(text) as T };
        const body = JSON.parse(text) as { code?: number; message?: string; source?: string };
        // Only the invocation's own failure is an outcome; anything else is the server's.
        if (body.source !== "invocation") {
          await sleep(100);
          continue;
        }
        return { ok: false as const, status: response.status, message: body.message ?? "" };
      }
    },
    async cancel(invocationId) {
      const response = await fetch(`${restate.adminUrl}/invocations/${invocationId}/cancel`, {
        method: "PATCH",
      });
      if (!response.ok) throw new Error(`cancel failed: ${response.status}`);
    },
    lines: read,
    effects: () => readdirSync(join(storeDir, "effects")).map((name) => decodeURIComponent(name)),
    async steps(invocationId) {
      const rows = await restate.query<JournalRow>(
        `SELECT id, index, entry_type, name, entry_json FROM sys_journal WHERE id = '${invocationId}' ORDER BY index`,
      );
      return journaledSteps(rows);
    },
    killService,
    startService,
    async stop() {
      try {
        await killService();
      } finally {
        await restate.stop();
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** Groups a journal's Run commands with their completion notifications (by completion id). */
export function journaledSteps(rows: readonly JournalRow[]): JournaledStep[] {
  const byCompletion = new Map<number, { name: string; completions: unknown[] }>();
  const steps: { name: string; completions: unknown[] }[] = [];
  for (const row of rows) {
    const entry = JSON.parse(row.entry_json) as {
      Command?: { Run?: { completion_id: number; name: string } };
      Notification?: { Completion?: { Run?: { completion_id: number; result: unknown } } };
    };
    const run = entry.Command?.Run;
    if (run !== undefined) {
      const step = { name: run.name, completions: [] as unknown[] };
      byCompletion.set(run.completion_id, step);
      steps.push(step);
    }
    const done = entry.Notification?.Completion?.Run;
    if (done !== undefined) byCompletion.get(done.completion_id)?.completions.push(done.result);
  }
  return steps;
}

/** The JSON value of a journaled success (`{ Success: [bytes] }`), or undefined for a failure. */
export function journaledValue(result: unknown): unknown {
  const success = (result as { Success?: number[] }).Success;
  return success === undefined ? undefined : JSON.parse(Buffer.from(success).toString("utf8"));
}

/** A Tool call the durable service knows. */
export const toolCall = (
  id: string,
  name: string,
  args: CourseJsonObject = {},
): CourseToolCall => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});
