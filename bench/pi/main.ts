/**
 * `npm run bench:pi`: scenario 5, on Node.js 22. Pi 0.85.0's agent loop runs
 * one assistant turn asking for 100 calls of a trivial Tool; we run the same
 * 100 calls through `executeToolCall`. Prints the rows (`--json` and
 * `--json=<path>` as for `npm run bench`); progress goes to stderr.
 */

import { check, figureOf, type GroupBudget, measureGroup, progress } from "../harness.ts";
import { atMost, compareRow, runInfo, writeReport } from "../report.ts";
import { loadPi } from "./pi-modules.ts";
import { oursBatch, piTurn, scriptedCalls, toolResults } from "./pi-turn.ts";

const CALLS = 100;
const BUDGET: GroupBudget = {
  rounds: 7,
  timeMs: 700,
  iterations: 50,
  warmupMs: 300,
  warmupIterations: 20,
};

function requireNode22(): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 19)) {
    throw new Error(
      `Pi needs Node.js 22.19 or newer, this is ${process.version}: run \`npm run bench:pi\``,
    );
  }
}

const startedAt = performance.now();
requireNode22();
const pi = await loadPi();
check(pi.versions.agentCore === "0.85.0", `Pi agent core 0.85.0, found ${pi.versions.agentCore}`);
progress(
  `scenario 5: Pi agent core ${pi.versions.agentCore} (AI ${pi.versions.ai}, TypeBox ${pi.versions.typebox}) on ${process.version}`,
);

const calls = scriptedCalls(CALLS);
const piFull = piTurn(pi, CALLS);
const piEmpty = piTurn(pi, 0);
const ours = oursBatch(calls);

// Sanity: both sides run every call, successfully, linked to its call.
const piResults = toolResults(await piFull());
check(piResults.length === CALLS, `Pi must return ${CALLS} Tool results, got ${piResults.length}`);
check(
  piResults.every(
    (result, slot) =>
      !result.isError &&
      result.toolCallId === `call-echo-${slot}` &&
      result.content[0]?.text === `hello ${slot}`,
  ),
  "every Pi Tool result must be a successful echo of its own call",
);
check(toolResults(await piEmpty()).length === 0, "the empty turn must run no Tool");
const ourResults = await ours();
check(
  ourResults.every(
    (result, slot) =>
      !result.isError &&
      result.toolCallId === `call-echo-${slot}` &&
      result.content === `{"echo":"hello ${slot}","slot":${slot}}`,
  ),
  "every executeToolCall result must be a successful echo of its own call",
);

const figures = await measureGroup(
  "5 against Pi",
  [
    { name: "ours: 100 calls", async: true, opsPerSample: CALLS, sample: ours },
    { name: "Pi: turn of 100 calls", async: true, opsPerSample: CALLS, sample: piFull },
    // Per "call" only so that the difference below is per call; it runs no Tool.
    { name: "Pi: turn of 0 calls", async: true, opsPerSample: CALLS, sample: piEmpty },
  ],
  BUDGET,
);
const oursNs = figureOf(figures, "ours: 100 calls").nsPerOp;
const piNs = figureOf(figures, "Pi: turn of 100 calls").nsPerOp;
const piFixedNs = figureOf(figures, "Pi: turn of 0 calls").nsPerOp;
const piMarginalNs = piNs - piFixedNs;

const rows = [
  compareRow({
    id: "5",
    scenario: 5,
    title: "against Pi 0.85.0: one assistant turn of 100 echo calls, per call",
    figures: [
      { label: "ours (executeToolCall)", value: oursNs, unit: "ns" },
      { label: "Pi (agent loop turn / 100)", value: piNs, unit: "ns" },
    ],
    ratioLabel: "ours / Pi",
    ratio: oursNs / piNs,
    target: atMost(1),
    note: "Pi's loop is driven by a scripted stream function that answers with the finished assistant message (start, done) through Pi's own event-stream class; both sides run the 100 calls concurrently (Pi's default mode) on one AbortSignal.",
  }),
  compareRow({
    id: "5'",
    scenario: 5,
    title: "against Pi 0.85.0: Pi's cost per extra call, its per-turn work removed",
    figures: [
      { label: "ours", value: oursNs, unit: "ns" },
      { label: "Pi marginal ((turn of 100 − turn of 0) / 100)", value: piMarginalNs, unit: "ns" },
      { label: "Pi turn of 0 calls", value: piFixedNs * CALLS, unit: "ns" },
    ],
    ratioLabel: "ours / Pi marginal",
    ratio: oursNs / piMarginalNs,
    target: atMost(1),
  }),
];

const info = runInfo(`toolbound bench:pi (scenario 5, Pi ${pi.versions.agentCore})`, startedAt);
writeReport(rows, info, process.argv.slice(2));
