/**
 * `npm run example:durable`: the durable agent end to end. Starts the npm
 * registry's restate-server on loopback (ports chosen now, data in a temporary
 * folder), starts the agent's endpoint in a child process and registers it
 * through the admin API, sends the agent a task, and kills the endpoint with
 * SIGKILL while the payments API is still answering the refund. Restate starts
 * the handler again on a new endpoint process: the lookup is not repeated, the
 * refund Tool runs again with the same idempotency key, and the payments API
 * refunds once. Prints the transcript, what the payments API saw, and the
 * journal; removes everything it made.
 *
 * Usage: node dist/examples/durable-agent/main.js [folder where restate-server is installed]
 */

import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as clients from "@restatedev/restate-sdk-clients";
import type { agent, Message } from "./agent-service.ts";
import { freePort, startLocalRestate } from "./local-restate.ts";

const installDir = resolve(process.argv[2] ?? ".");
const endpointScript = join(dirname(fileURLToPath(import.meta.url)), "endpoint.js");
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const say = (line: string) => process.stdout.write(`${line}\n`);

const paymentsDir = mkdtempSync(join(tmpdir(), "toolbound-durable-agent-"));
let endpoint: ChildProcess | undefined;
process.once("exit", () => {
  endpoint?.kill("SIGKILL");
  rmSync(paymentsDir, { recursive: true, force: true });
});

async function startEndpoint(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [endpointScript, String(port)], {
    env: { PATH: process.env.PATH, PAYMENTS_DIR: paymentsDir, RESTATE_LOGGING: "ERROR" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((ready, fail) => {
    child.once("exit", (code) => fail(new Error(`the endpoint exited (${code})`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString("utf8").includes("agent endpoint ready")) ready();
    });
  });
  return child;
}

async function killEndpoint(): Promise<void> {
  const child = endpoint;
  endpoint = undefined;
  if (child === undefined || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGKILL");
  await exited;
}

const requestsLog = join(paymentsDir, "requests.log");
const requests = () =>
  existsSync(requestsLog) ? readFileSync(requestsLog, "utf8").split("\n").filter(Boolean) : [];

const restate = await startLocalRestate({ installDir });
try {
  say(`restate-server on ${restate.ingressUrl} (admin ${restate.adminUrl})`);
  const port = await freePort();
  endpoint = await startEndpoint(port);
  await restate.register(`http://127.0.0.1:${port}`);
  say(`agent endpoint on http://127.0.0.1:${port}, registered`);

  const ingress = clients.connect({ url: restate.ingressUrl });
  const send = await ingress
    .serviceSendClient<typeof agent>({ name: "agent" })
    // With an idempotency key the ingress keeps the result, so `result()` can fetch it.
    .run(
      "My order A-42 arrived broken. Please refund it.",
      clients.rpc.sendOpts({ idempotencyKey: randomUUID() }),
    );
  say(`sent the task: invocation ${send.invocationId}`);

  while (requests().length === 0) await sleep(20);
  await killEndpoint();
  say("killed the endpoint (SIGKILL) while the payments API was answering the refund");
  endpoint = await startEndpoint(port);
  say("started a new endpoint process; Restate retries the invocation on it");

  const transcript: Message[] = await ingress.result(send);
  say("\ntranscript:");
  for (const message of transcript) say(`  ${JSON.stringify(message)}`);

  const refunds = readdirSync(paymentsDir).filter((name) => name.startsWith("refund-"));
  say(
    `\npayments API: ${requests().length} refund requests, all with key ${requests()[0]}; refunds made: ${refunds.length}`,
  );

  const journal = await restate.query<{ index: number; entry_type: string; name: string | null }>(
    `SELECT index, entry_type, name FROM sys_journal WHERE id = '${send.invocationId}' ORDER BY index`,
  );
  say("\njournal:");
  for (const entry of journal) say(`  ${entry.index} ${entry.entry_type} ${entry.name ?? ""}`);
} finally {
  await killEndpoint();
  await restate.stop();
  rmSync(paymentsDir, { recursive: true, force: true });
}
