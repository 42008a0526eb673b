/**
 * `npm run bench:mcp-http`: MCP over Streamable HTTP, toolbound's
 * `serveToolRegistryHttp` against the SDK's own bare `McpServer` serving the
 * same `echo` Tool, each server in a child process of its own. For each mode
 * (sessions, stateless) and 1, 16 and 64 concurrent SDK clients: calls per
 * second and p50/p99 latency, in rounds that alternate which server goes
 * first; the ratio is the median across rounds of each round's time per call,
 * ours over bare (target at most 1.25). Then the heap of each server, after a
 * full collection, before and after 10,000 calls. Not part of CI: machines
 * are shared and noisy, so the figures are for reading, not for asserting.
 */

import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median, progress } from "../harness.ts";
import { atMost, compareRow, type Row, runInfo, writeReport } from "../report.ts";
import { connectClients, type LoadResult, runLoad } from "./load.ts";

type Variant = "toolbound" | "bare";
type Mode = "sessions" | "stateless";

const SERVER = fileURLToPath(new URL("./server.js", import.meta.url));
const CONCURRENCY = [1, 16, 64] as const;
const ROUNDS = 3;
const WARMUP_MS = 300;
const MEASURE_MS = 2_000;
const MEMORY_CALLS = 10_000;

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
}

async function startServer(variant: Variant, mode: Mode): Promise<Running> {
  const child = fork(SERVER, [variant, mode], { execArgv: ["--expose-gc"], stdio: "inherit" });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`the ${variant} server exited with ${code}`)));
  });
  return { child, url };
}

function heapOf(server: Running): Promise<{ heapUsed: number; rss: number }> {
  return new Promise((resolve) => {
    server.child.once("message", (message) =>
      resolve(message as { heapUsed: number; rss: number }),
    );
    server.child.send("memory");
  });
}

async function measure(server: Running, clients: number): Promise<LoadResult> {
  const connected = await connectClients(server.url, clients);
  try {
    await runLoad(connected, WARMUP_MS);
    return await runLoad(connected, MEASURE_MS);
  } finally {
    await Promise.all(connected.map((client) => client.close()));
  }
}

const msToNs = (ms: number): number => ms * 1e6;

async function compareMode(mode: Mode): Promise<Row[]> {
  const servers = {
    toolbound: await startServer("toolbound", mode),
    bare: await startServer("bare", mode),
  };
  const rows: Row[] = [];
  try {
    for (const clients of CONCURRENCY) {
      const results: Record<Variant, LoadResult[]> = { toolbound: [], bare: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const order: Variant[] = round % 2 === 0 ? ["toolbound", "bare"] : ["bare", "toolbound"];
        for (const variant of order) {
          progress(`${mode}, ${clients} client(s), round ${round + 1}: ${variant}`);
          results[variant].push(await measure(servers[variant], clients));
        }
      }
      const ratios = results.toolbound.map(
        (ours, index) => (results.bare[index]?.callsPerSecond ?? Number.NaN) / ours.callsPerSecond,
      );
      const pick = (variant: Variant, field: keyof LoadResult) =>
        median(results[variant].map((result) => result[field]));
      rows.push(
        compareRow({
          id: `12-${mode === "sessions" ? "s" : "x"}${clients}`,
          scenario: 12,
          title: `MCP over HTTP (${mode}), ${clients} concurrent client${clients === 1 ? "" : "s"}: echo, toolbound vs the SDK's bare McpServer`,
          figures: [
            { label: "ours", value: pick("toolbound", "callsPerSecond"), unit: "calls/s" },
            { label: "bare", value: pick("bare", "callsPerSecond"), unit: "calls/s" },
            { label: "ours p50", value: msToNs(pick("toolbound", "p50Ms")), unit: "ns" },
            { label: "ours p99", value: msToNs(pick("toolbound", "p99Ms")), unit: "ns" },
            { label: "bare p50", value: msToNs(pick("bare", "p50Ms")), unit: "ns" },
            { label: "bare p99", value: msToNs(pick("bare", "p99Ms")), unit: "ns" },
          ],
          ratioLabel: "time per call, ours / bare",
          ratio: median(ratios),
          target: atMost(1.25),
        }),
      );
    }
  } finally {
    servers.toolbound.child.kill();
    servers.bare.child.kill();
  }
  return rows;
}

async function memoryRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const variant of ["toolbound", "bare"] as const) {
    const server = await startServer(variant, "sessions");
    try {
      const clients = await connectClients(server.url, 16);
      await runLoad(clients, 200);
      const before = await heapOf(server);
      progress(`memory: ${variant}, ${MEMORY_CALLS} calls`);
      const load = await runLoad(clients, Number.POSITIVE_INFINITY, MEMORY_CALLS);
      const after = await heapOf(server);
      await Promise.all(clients.map((client) => client.close()));
      const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
      rows.push(
        compareRow({
          id: `12-m-${variant}`,
          scenario: 12,
          title: `MCP over HTTP (sessions), heap of the ${variant} server before and after ${load.calls} calls from 16 clients`,
          figures: [],
          ratioLabel: "heap after / before",
          ratio: after.heapUsed / before.heapUsed,
          target: null,
          note: `${variant}: heap ${mb(before.heapUsed)} before, ${mb(after.heapUsed)} after (rss ${mb(before.rss)} → ${mb(after.rss)}), each after a full collection, the 16 sessions still open.`,
        }),
      );
    } finally {
      server.child.kill();
    }
  }
  return rows;
}

const startedAt = performance.now();
const rows = [
  ...(await compareMode("sessions")),
  ...(await compareMode("stateless")),
  ...(await memoryRows()),
];
writeReport(
  rows,
  {
    ...runInfo("toolbound bench:mcp-http (scenario 12)", startedAt),
    statistic: `each figure is the median across ${ROUNDS} rounds of ${MEASURE_MS} ms (after ${WARMUP_MS} ms of warm-up); the ratio is the median of the rounds' own ratios`,
  },
  process.argv.slice(2),
);
