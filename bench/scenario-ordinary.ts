/**
 * Scenario 2: ordinary outputs. Our bounded serializer against
 * `JSON.stringify` and against `safe-stable-stringify` (sorted keys,
 * cycle-safe: what a careful user would pick) on everyday Tool outputs, under
 * the course's budgets and under a 50,000-character output budget.
 */

import stringify from "safe-stable-stringify";
import { type SerializeOptions, serializeToolOutput } from "../course/src/index.ts";
import { check, figureOf, type GroupBudget, measureGroup } from "./harness.ts";
import { atMost, compareRow, type Row } from "./report.ts";
import { ordinaryFourKb, ordinaryOneKb, records } from "./values.ts";

const BUDGET: GroupBudget = {
  rounds: 3,
  timeMs: 200,
  iterations: 50,
  warmupMs: 150,
  warmupIterations: 20,
};

interface OrdinaryCase {
  readonly id: string;
  readonly title: string;
  readonly value: unknown;
  /** Serializations per timed sample. */
  readonly batch: number;
}

/** The configured serialization of rows 2a-50K to 2c-50K: a coding agent's budget. */
const FIFTY_KB: SerializeOptions = { outputBudget: { maxCharacters: 50_000 } };

let sink: unknown;

function repeat(batch: number, run: () => unknown): () => void {
  return () => {
    for (let index = 0; index < batch; index += 1) sink = run();
  };
}

function sizeOf(value: unknown): string {
  return `${(stringify(value) ?? "").length.toLocaleString("en-US")} characters of JSON`;
}

async function measureCase(entry: OrdinaryCase): Promise<Row[]> {
  const { value, batch } = entry;
  const ours = serializeToolOutput(value);
  check(ours.ok, `${entry.title}: our serializer must accept the value`);
  const complete = !ours.truncated;
  if (complete) {
    check(ours.content === stringify(value), `${entry.title}: same text as safe-stable-stringify`);
  }
  // Under the raised budget every ordinary output is written whole: equal work on both sides.
  const budgeted = serializeToolOutput(value, FIFTY_KB);
  check(
    budgeted.ok && !budgeted.truncated && budgeted.content === stringify(value),
    `${entry.title}: at a 50 KB budget, the same text as safe-stable-stringify`,
  );

  const figures = await measureGroup(
    `2 ordinary · ${entry.title}`,
    [
      {
        name: "serializeToolOutput",
        opsPerSample: batch,
        sample: repeat(batch, () => serializeToolOutput(value)),
      },
      {
        name: "serializeToolOutput 50 KB",
        opsPerSample: batch,
        sample: repeat(batch, () => serializeToolOutput(value, FIFTY_KB)),
      },
      {
        name: "JSON.stringify",
        opsPerSample: batch,
        sample: repeat(batch, () => JSON.stringify(value)),
      },
      {
        name: "safe-stable-stringify",
        opsPerSample: batch,
        sample: repeat(batch, () => stringify(value)),
      },
    ],
    BUDGET,
  );
  const oursNs = figureOf(figures, "serializeToolOutput").nsPerOp;
  const jsonNs = figureOf(figures, "JSON.stringify").nsPerOp;
  const safeNs = figureOf(figures, "safe-stable-stringify").nsPerOp;
  const budgetedNs = figureOf(figures, "serializeToolOutput 50 KB").nsPerOp;
  const truncatedNote = complete
    ? undefined
    : `${entry.title}: the value is over a serializer budget, so our serializer writes the first ${ours.content.length.toLocaleString("en-US")} characters and the truncation marker, while the others write all ${sizeOf(value)}. The row compares what each path costs a real Tool result, not equal work.`;
  return [
    compareRow({
      id: `${entry.id}`,
      scenario: 2,
      title: `ordinary output, ${entry.title} (${sizeOf(value)}${complete ? "" : ", truncated by us"}): vs safe-stable-stringify`,
      figures: [
        { label: "ours", value: oursNs, unit: "ns" },
        { label: "safe-stable-stringify", value: safeNs, unit: "ns" },
      ],
      ratioLabel: "ours / safe-stable-stringify",
      ratio: oursNs / safeNs,
      target: atMost(2),
      ...(truncatedNote === undefined ? {} : { note: truncatedNote }),
    }),
    compareRow({
      id: `${entry.id}'`,
      scenario: 2,
      title: `ordinary output, ${entry.title}: vs JSON.stringify (information)`,
      figures: [
        { label: "ours", value: oursNs, unit: "ns" },
        { label: "JSON.stringify", value: jsonNs, unit: "ns" },
      ],
      ratioLabel: "ours / JSON.stringify",
      ratio: oursNs / jsonNs,
      target: null,
    }),
    compareRow({
      id: `${entry.id}-50K`,
      scenario: 2,
      title: `ordinary output, ${entry.title}, at a 50,000-character budget (written whole): vs safe-stable-stringify`,
      figures: [
        { label: "ours", value: budgetedNs, unit: "ns" },
        { label: "safe-stable-stringify", value: safeNs, unit: "ns" },
        { label: "ours, course budget", value: oursNs, unit: "ns" },
      ],
      ratioLabel: "ours / safe-stable-stringify",
      ratio: budgetedNs / safeNs,
      target: atMost(2),
    }),
  ];
}

/**
 * Measures the three ordinary outputs (a 1 KB and a 4 KB object, an array of
 * 100 small records) and returns three rows each: against
 * safe-stable-stringify (target: at most 2x) and against JSON.stringify
 * (information) under the course's budgets, and against
 * safe-stable-stringify under a 50,000-character budget (target: at most 2x).
 *
 * @example
 * const rows = await ordinaryScenario();
 */
export async function ordinaryScenario(): Promise<Row[]> {
  const cases: OrdinaryCase[] = [
    { id: "2a", title: "1 KB object", value: ordinaryOneKb(), batch: 20 },
    { id: "2b", title: "4 KB object", value: ordinaryFourKb(), batch: 10 },
    // 100 records are 401 values: over the node budget (128), so ours truncates.
    { id: "2c", title: "100 small records", value: records(100), batch: 10 },
  ];
  const rows: Row[] = [];
  for (const entry of cases) rows.push(...(await measureCase(entry)));
  check(sink !== undefined, "the measured serializers must have run");
  return rows;
}
