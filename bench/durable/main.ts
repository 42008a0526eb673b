/**
 * `npm run bench:durable` (scenario 11, information only, not in CI): what a
 * durable Tool call adds to `executeToolCall` on the same machine, with the
 * engine's own round trip shown apart. Starts the npm registry's
 * restate-server on loopback and a Restate endpoint in this process, then
 * times, inside the handler (so no ingress request is counted), a sequence of
 * calls of an echo Tool through `durableToolCalls`, and the same number of
 * bare `ctx.run` steps journaling a result message of the same size; in
 * process, the same calls through `executeToolCall`. Each figure is the
 * median, across rounds, of one round's time per call.
 *
 * Usage: node build/bench/bench/durable/main.js [folder where restate-server is installed] [--json[=path]]
 */

import { createServer } from "node:http2";
import { resolve } from "node:path";
import * as restate from "@restatedev/restate-sdk";
import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { freePort, startLocalRestate } from "../../examples/durable-agent/local-restate.ts";
import { durableToolCalls } from "../../src/restate/index.ts";
import { progress } from "../harness.ts";
import { compareRow, runInfo, writeReport } from "../report.ts";

const startedAt = performance.now();
const args = process.argv.slice(2);
const installDir = resolve(args.find((arg) => !arg.startsWith("--")) ?? ".");
const CALLS = 100;
const ROUNDS = 7;

const registry = new ToolRegistry([
  defineTool({
    name: "echo",
    description: "Echoes its text.",
    validate: (input) => ({ ok: true as const, value: input as { text: string } }),
    execute: async ({ text }) => ({ text }),
  }),
]);
const calls = (round: number): CourseToolCall[] =>
  Array.from({ length: CALLS }, (_, index) => ({
    type: "toolCall",
    id: `r${round}-c${index}`,
    name: "echo",
    arguments: { text: `call ${index}` },
  }));

const bench = restate.service({
  name: "bench",
  handlers: {
    durable: async (ctx: restate.Context, round: number): Promise<number> => {
      const started = performance.now();
      await durableToolCalls(ctx, registry, calls(round));
      return performance.now() - started;
    },
    bare: async (ctx: restate.Context): Promise<number> => {
      const started = performance.now();
      for (let index = 0; index < CALLS; index += 1) {
        // A journal entry the size of an echo call's result message.
        await ctx.run(`step ${index}`, () => ({
          id: `tool-result-c${index}`,
          role: "toolResult",
          toolCallId: `c${index}`,
          toolName: "echo",
          content: `{"text":"call ${index}"}`,
          isError: false,
        }));
      }
      return performance.now() - started;
    },
  },
});

async function inProcess(round: number): Promise<number> {
  const signal = new AbortController().signal;
  const started = performance.now();
  for (const call of calls(round)) await executeToolCall(registry, call, signal);
  return performance.now() - started;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const server = createServer(restate.createEndpointHandler({ services: [bench] }));
const port = await freePort();
await new Promise<void>((ready) => server.listen(port, "127.0.0.1", ready));
const engine = await startLocalRestate({ installDir });
try {
  await engine.register(`http://127.0.0.1:${port}`);
  const invoke = async (handler: string, body: unknown): Promise<number> => {
    const response = await fetch(`${engine.ingressUrl}/bench/${handler}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${handler}: ${response.status} ${await response.text()}`);
    return (await response.json()) as number;
  };
  const plain: number[] = [];
  const bare: number[] = [];
  const durable: number[] = [];
  // One warm-up round, then ROUNDS measured rounds of each, interleaved.
  for (let round = 0; round <= ROUNDS; round += 1) {
    progress(`durable bench: round ${round} of ${ROUNDS}`);
    const times = [
      await inProcess(round),
      await invoke("bare", null),
      await invoke("durable", round),
    ];
    if (round === 0) continue;
    plain.push(times[0] as number);
    bare.push(times[1] as number);
    durable.push(times[2] as number);
  }
  const perCall = (values: number[]) => (median(values) / CALLS) * 1e6;
  const [plainNs, bareNs, durableNs] = [perCall(plain), perCall(bare), perCall(durable)];
  const rows = [
    compareRow({
      id: "11a",
      scenario: 11,
      title: `a durable call against executeToolCall: ${CALLS} echo calls in sequence, one invocation`,
      figures: [
        { label: "executeToolCall", value: plainNs, unit: "ns" },
        { label: "durableToolCalls", value: durableNs, unit: "ns" },
      ],
      ratioLabel: "per call, durable / in process",
      ratio: durableNs / plainNs,
      target: null,
    }),
    compareRow({
      id: "11b",
      scenario: 11,
      title: "the same durable calls against the engine's own round trip (a bare ctx.run per step)",
      figures: [
        { label: "bare ctx.run step", value: bareNs, unit: "ns" },
        { label: "durable call", value: durableNs, unit: "ns" },
        { label: "added by toolbound", value: Math.max(durableNs - bareNs, 0), unit: "ns" },
      ],
      ratioLabel: "per call, durable / bare step",
      ratio: durableNs / bareNs,
      target: null,
      note: "The bare step journals a result message of the same size; the difference is the boundary's own work (the calls and options read once, validation, the idempotency key, serialization, the result checked on its way back from the journal).",
    }),
  ];
  writeReport(rows, runInfo("toolbound durable bench (scenario 11)", startedAt), args);
} finally {
  await engine.stop();
  server.close();
}
process.exit(0);
