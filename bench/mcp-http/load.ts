/**
 * The load side of the MCP HTTP benchmark: `clients` official SDK clients
 * over Streamable HTTP, each calling `echo` back to back for a while, every
 * call's latency recorded.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** What one load run measured. */
export interface LoadResult {
  readonly calls: number;
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** The `q` quantile of sorted values (nearest rank). */
function quantile(sorted: readonly number[], q: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN
  );
}

/** Connects `count` clients to `url`. */
export async function connectClients(url: string, count: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      return client;
    }),
  );
}

/**
 * Every client calls `echo` until `durationMs` has passed (or, with
 * `maxCalls`, until that many calls were made in all); a failed call stops
 * the run, since a benchmark of errors would mean nothing.
 *
 * @example
 * const result = await runLoad(clients, 2_000);
 */
export async function runLoad(
  clients: readonly Client[],
  durationMs: number,
  maxCalls = Number.POSITIVE_INFINITY,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + durationMs;
  let issued = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until && issued < maxCalls) {
        issued += 1;
        const before = performance.now();
        const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
        latencies.push(performance.now() - before);
        if (result.isError === true)
          throw new Error(`echo failed: ${JSON.stringify(result.content)}`);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const sorted = latencies.sort((left, right) => left - right);
  return {
    calls: sorted.length,
    callsPerSecond: (sorted.length / elapsed) * 1000,
    p50Ms: quantile(sorted, 0.5),
    p99Ms: quantile(sorted, 0.99),
  };
}
