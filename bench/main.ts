/**
 * `npm run bench`: runs scenarios 1 to 4 (2 and 3 also under raised output
 * budgets), 6, 9 (text and parts), 10 (tracing) and 13 (retained memory) on this Node.js and prints the table on stdout (see
 * `writeReport` for `--json` and `--json=<path>`); progress goes to stderr.
 * Scenario 5, the comparison with Pi, needs Node.js 22 and runs with
 * `npm run bench:pi`; scenarios 7 and 8, the AI SDK and OpenAI Agents, with
 * `npm run bench:frameworks`; scenario 11, a durable call on Restate, with
 * `npm run bench:durable`.
 */

import { progress } from "./harness.ts";
import { compareRow, type Row, runInfo, writeReport } from "./report.ts";
import { argumentMemoryScenario } from "./scenario-argument-memory.ts";
import { argumentsScenario } from "./scenario-arguments.ts";
import { concurrencyScenario } from "./scenario-concurrency.ts";
import { cutScenario } from "./scenario-cut.ts";
import { ordinaryScenario } from "./scenario-ordinary.ts";
import { overheadScenario } from "./scenario-overhead.ts";
import { partsScenario } from "./scenario-parts.ts";
import { pathologicalScenario } from "./scenario-pathological.ts";
import { pathologicalBudgetScenario } from "./scenario-pathological-budget.ts";
import { retainedMemoryScenario } from "./scenario-retained-memory.ts";
import { tracingScenario } from "./scenario-tracing.ts";

const startedAt = performance.now();
const rows: Row[] = [];

progress("scenario 1: per-call overhead");
rows.push(...(await overheadScenario()));
progress("scenario 2: ordinary outputs");
rows.push(...(await ordinaryScenario()));
progress("scenario 3: pathological outputs");
rows.push(...(await pathologicalScenario()));
progress("scenario 3d-cut: a cut walk against the kept part written whole");
rows.push(...(await cutScenario()));
progress("scenario 3 at a 1,000,000-character budget");
rows.push(...(await pathologicalBudgetScenario()));
progress("scenario 4: throughput under concurrency");
rows.push(...(await concurrencyScenario()));
rows.push(
  compareRow({
    id: "5",
    scenario: 5,
    title: "against Pi 0.85.0: one assistant turn of 100 Tool calls",
    figures: [],
    ratioLabel: "per call, ours / Pi",
    ratio: null,
    target: null,
    note: "Pi needs Node.js 22.19 or newer; run `npm run bench:pi` for this row.",
  }),
  compareRow({
    id: "7-8",
    scenario: 7,
    title:
      "against the AI SDK 7 and OpenAI Agents JS 0.20: native tool and our adapter in each loop",
    figures: [],
    ratioLabel: "per call, ours / native",
    ratio: null,
    target: null,
    note: "The frameworks need Node.js 22; run `npm run bench:frameworks` for these rows.",
  }),
  compareRow({
    id: "11",
    scenario: 11,
    title: "a durable Tool call on Restate against executeToolCall (information)",
    figures: [],
    ratioLabel: "per call, durable / in process",
    ratio: null,
    target: null,
    note: "The Restate SDK needs Node.js 22 and a local restate-server; run `npm run bench:durable` for this row.",
  }),
);

progress("scenario 6: a model's argument text");
rows.push(...(await argumentsScenario()));
progress("scenario 6: memory of a model's arguments");
rows.push(...argumentMemoryScenario());
progress("scenario 9: what the model reads (text and parts)");
rows.push(...(await partsScenario()));
progress("scenario 10: tracing");
rows.push(...(await tracingScenario()));
progress("scenario 13: retained memory");
rows.push(...retainedMemoryScenario());

const info = runInfo("toolbound bench (scenarios 1-4, 6, 9, 10 and 13)", startedAt);
writeReport(rows, info, process.argv.slice(2));
