/**
 * Scenario 1: the per-call overhead of the boundary. A trivial echo Tool with
 * small arguments and output, through `executeToolCall` (row 1), through
 * `prepareToolCall` + `runPreparedToolCall` (row 1'), and through the bare
 * path a hand-written agent would run.
 */

import {
  defineTool,
  executeToolCall,
  prepareToolCall,
  runPreparedToolCall,
  ToolRegistry,
} from "../course/src/index.ts";
import { createBarePath, echoCall, echoDefinition } from "./echo-tool.ts";
import { check, figureOf, type GroupBudget, measureGroup, pairedRatio } from "./harness.ts";
import { atMost, compareRow, type Row } from "./report.ts";

/** Sequential calls per timed sample: keeps each sample well above the timer's resolution. */
const CALLS_PER_SAMPLE = 100;

const BUDGET: GroupBudget = {
  rounds: 5,
  timeMs: 400,
  iterations: 50,
  warmupMs: 150,
  warmupIterations: 20,
};

/**
 * Measures one echo call through `executeToolCall`, and through
 * `prepareToolCall` + `runPreparedToolCall`, against the bare path and
 * returns the scenario's rows (target: at most 3x the bare path). The ratios
 * are the median of each round's own ratio (the three tasks of a round run
 * next to each other).
 *
 * @example
 * const rows = await overheadScenario();
 */
export async function overheadScenario(): Promise<Row[]> {
  const registry = new ToolRegistry([defineTool(echoDefinition)]);
  const bare = createBarePath([echoDefinition]);
  const signal = new AbortController().signal;
  const call = echoCall(1);

  const ours = await executeToolCall(registry, call, signal);
  const plain = await bare(call, signal);
  check(!ours.isError, "the echo call must succeed through executeToolCall");
  check(ours.content === '{"echo":"hello 1","slot":1}', "executeToolCall must echo the text");
  check(plain.content === ours.content, "the bare path must produce the same content");
  const prepared = await runPreparedToolCall(prepareToolCall(registry, call, signal));
  check(prepared.content === ours.content, "prepare + run must produce the same content");

  const figures = await measureGroup(
    "1 per-call overhead",
    [
      {
        name: "executeToolCall",
        async: true,
        opsPerSample: CALLS_PER_SAMPLE,
        sample: async () => {
          for (let index = 0; index < CALLS_PER_SAMPLE; index += 1) {
            await executeToolCall(registry, call, signal);
          }
        },
      },
      {
        name: "prepareToolCall + runPreparedToolCall",
        async: true,
        opsPerSample: CALLS_PER_SAMPLE,
        sample: async () => {
          for (let index = 0; index < CALLS_PER_SAMPLE; index += 1) {
            await runPreparedToolCall(prepareToolCall(registry, call, signal));
          }
        },
      },
      {
        name: "bare path",
        async: true,
        opsPerSample: CALLS_PER_SAMPLE,
        sample: async () => {
          for (let index = 0; index < CALLS_PER_SAMPLE; index += 1) await bare(call, signal);
        },
      },
    ],
    BUDGET,
  );
  const oursNs = figureOf(figures, "executeToolCall").nsPerOp;
  const preparedNs = figureOf(figures, "prepareToolCall + runPreparedToolCall").nsPerOp;
  const bareNs = figureOf(figures, "bare path").nsPerOp;
  const perRound = (name: string) =>
    pairedRatio(
      figures,
      (at) => at(name),
      (at) => at("bare path"),
    );
  return [
    compareRow({
      id: "1",
      scenario: 1,
      title: "per-call overhead: echo Tool, small arguments and output",
      figures: [
        { label: "executeToolCall", value: oursNs, unit: "ns" },
        { label: "bare path", value: bareNs, unit: "ns" },
      ],
      ratioLabel: "executeToolCall / bare path, median of the rounds' own ratios",
      ratio: perRound("executeToolCall"),
      target: atMost(3),
    }),
    compareRow({
      id: "1'",
      scenario: 1,
      title: "per-call overhead, in two steps: prepareToolCall + runPreparedToolCall",
      figures: [
        { label: "prepare + run", value: preparedNs, unit: "ns" },
        { label: "bare path", value: bareNs, unit: "ns" },
      ],
      ratioLabel: "prepare + run / bare path, median of the rounds' own ratios",
      ratio: perRound("prepareToolCall + runPreparedToolCall"),
      target: atMost(3),
    }),
  ];
}
