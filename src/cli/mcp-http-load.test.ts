/**
 * `toolbound mcp --http` under load: 64 concurrent clients with SIGTERM in
 * the middle (every call answered or refused exactly once, exit 0), and two
 * stateless server processes behind a round-robin client.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXAMPLES, ensureBuilt } from "../../test/support/cli.ts";
import { useHttpServers } from "../../test/support/http-cli.ts";
import {
  connectHttpClient,
  initializeBody,
  openRawSession,
  rawRequest,
  toolCallBody,
} from "../../test/support/mcp-http.ts";

beforeAll(ensureBuilt, 180_000);
const startHttp = useHttpServers();

/** A tools module whose `nap` Tool says on stderr when each call starts, by the id it was given. */
const NAP_MODULE = `
const nap = {
  name: "nap",
  description: "Sleep ms milliseconds, saying on stderr when call id starts.",
  validate: (input) => ({ ok: true, value: input }),
  execute: ({ id, ms }, { signal }) => new Promise((resolve, reject) => {
    process.stderr.write("nap: started " + id + "\\n");
    const timer = setTimeout(() => resolve({ id }), ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  }),
};
export default [nap];
`;

let modules = "";
beforeAll(() => {
  modules = mkdtempSync(join(tmpdir(), "toolbound-load-"));
  writeFileSync(join(modules, "nap.mjs"), NAP_MODULE);
});
afterAll(() => rmSync(modules, { recursive: true, force: true }));

/** How one request ended, from the client's side: one answer (result or error), or refused. */
type Outcome = { readonly id: number; readonly kind: "result" | "error" | "refused" | "broken" };

/** One raw tools/call: exactly one JSON-RPC answer with its id, or a refusal (503, or no connection). */
async function callOnce(url: string, id: number, headers: Record<string, string>, ms: number) {
  let answer: Awaited<ReturnType<typeof rawRequest>>;
  try {
    answer = await rawRequest(url, { headers, body: toolCallBody(id, "nap", { id, ms }) });
  } catch {
    // Refused, or closed before a request was read; the server's log shows it never ran.
    return { id, kind: "refused" } as const;
  }
  if (answer.status === 503) return { id, kind: "refused" } as const;
  const mine = answer.messages.filter((message) => message.id === id);
  if (answer.status !== 200 || mine.length !== 1) return { id, kind: "broken" } as const;
  return { id, kind: mine[0]?.error === undefined ? "result" : "error" } as const;
}

async function initialize(url: string): Promise<Record<string, string>> {
  const body = initializeBody({}, { name: "load", version: "1.0.0" });
  return { "mcp-session-id": await openRawSession(url, body) };
}

/** The ids of the calls that outlast the grace period: every fourth client's second call. */
const LONG_CALLS = Array.from({ length: 16 }, (_, index) => index * 4 * 1_000 + 2);

describe.each([
  ["sessions", []],
  ["stateless", ["--stateless"]],
])("64 concurrent clients (%s) and SIGTERM in the middle", (_mode, flags) => {
  test("every call that ran is answered exactly once, every other one is refused, and the server exits 0", {
    timeout: 120_000,
  }, async () => {
    const server = await startHttp([
      ...flags,
      "--shutdown-grace-ms",
      "1500",
      join(modules, "nap.mjs"),
    ]);
    const started = new Set<number>();
    let stopped = false;
    // SIGTERM once 128 calls, the long ones among them, have started: the middle of the run,
    // whatever the machine's speed.
    server.child.stderr.on("data", (chunk: Buffer | string) => {
      for (const [, id] of String(chunk).matchAll(/^nap: started (\d+)$/gm))
        started.add(Number(id));
      const longOnesRunning = LONG_CALLS.every((id) => started.has(id));
      if (!stopped && started.size >= 128 && longOnesRunning) {
        stopped = true;
        server.child.kill("SIGTERM");
      }
    });
    const clients = Array.from({ length: 64 }, async (_, client) => {
      const headers = flags.length > 0 ? {} : await initialize(server.url);
      const outcomes: Outcome[] = [];
      for (let call = 1; ; call += 1) {
        // Every fourth client makes one call that is still running when the grace period ends.
        const ms = client % 4 === 0 && call === 2 ? 60_000 : 20;
        const outcome = await callOnce(server.url, client * 1_000 + call, headers, ms);
        outcomes.push(outcome);
        if (outcome.kind === "refused") return outcomes;
      }
    });
    const outcomes = (await Promise.all(clients)).flat();
    const { code } = await server.done;
    expect(code).toBe(0);
    expect(started.size).toBeGreaterThanOrEqual(128);
    const ids = (kind: Outcome["kind"]) =>
      outcomes.filter((outcome) => outcome.kind === kind).map((outcome) => outcome.id);
    expect(ids("broken")).toEqual([]);
    // Each call that started got exactly one answer; each refused one never ran.
    expect([...ids("result"), ...ids("error")].sort()).toEqual([...started].sort());
    expect(ids("refused").filter((id) => started.has(id))).toEqual([]);
    expect(ids("refused")).toHaveLength(64);
    // The 16 long calls were aborted after the grace period and answered with an error.
    expect(ids("error")).toHaveLength(16);
  });
});

test("two stateless server processes behind a round-robin client serve one SDK client", {
  timeout: 60_000,
}, async () => {
  const [first, second] = await Promise.all([
    startHttp(["--stateless", EXAMPLES]),
    startHttp(["--stateless", EXAMPLES]),
  ]);
  const targets = [first.url, second.url];
  const served = [0, 0];
  let next = 0;
  // A load balancer in front of both: each HTTP request goes to the next instance in turn.
  const roundRobin: typeof fetch = (input, init) => {
    const index = next++ % targets.length;
    served[index] = (served[index] ?? 0) + 1;
    const url = new URL(String(input instanceof Request ? input.url : input));
    const target = new URL(targets[index] ?? "");
    url.host = target.host;
    return fetch(url, init);
  };
  const client = await connectHttpClient(first.url, { fetch: roundRobin });
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain("add");
  const sums = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      client.callTool({ name: "add", arguments: { left: index, right: 1 } }),
    ),
  );
  expect(sums.map((result) => result.content)).toEqual(
    Array.from({ length: 10 }, (_, index) => [{ type: "text", text: `{"sum":${index + 1}}` }]),
  );
  await client.close();
  expect(served[0]).toBeGreaterThan(3);
  expect(served[1]).toBeGreaterThan(3);
  first.child.kill("SIGTERM");
  second.child.kill("SIGTERM");
  expect((await first.done).code).toBe(0);
  expect((await second.done).code).toBe(0);
});
