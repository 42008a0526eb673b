/**
 * Scenario 3 at a 1,000,000-character output budget: the pathological
 * outputs again, under a budget 244 times the course's. Its claim: the cost is
 * bounded by the budget, not by the output. Each shape is serialized at two
 * sizes 10x apart, both past what the budget lets through (the large values
 * of rows 3a-3f, and ten times those), so a flat ratio means the extra
 * output cost nothing. The wide object cannot be flat (the engine's key
 * collection, see row 3b''), so it is compared with that floor instead, at the
 * sizes of row 3b. What the peers pay for the whole value is shown beside it,
 * for information.
 */

import { type SerializeOptions, serializeToolOutput } from "../course/src/index.ts";
import {
  check,
  figureOf,
  type GroupBudget,
  measureGroup,
  type TaskBudget,
  type TaskSpec,
} from "./harness.ts";
import { atMost, compareRow, type Row } from "./report.ts";
import {
  bigIntOfBits,
  longString,
  nestedChain,
  records,
  sparseArray,
  wideObject,
} from "./values.ts";

/** The budget of these rows. */
const ONE_MILLION: SerializeOptions = { outputBudget: { maxCharacters: 1_000_000 } };

/** Milliseconds per operation at this budget: few samples, no batching. */
const BUDGET: GroupBudget = {
  rounds: 3,
  timeMs: 200,
  iterations: 5,
  warmupMs: 0,
  warmupIterations: 1,
};

/** The sub-microsecond shapes (depth and BigInt bits keep their course budgets). */
const CHEAP: TaskBudget = { timeMs: 200, iterations: 10, warmupMs: 100, warmupIterations: 10 };

interface BudgetCase {
  readonly id: string;
  readonly kind: string;
  readonly smallLabel: string;
  readonly largeLabel: string;
  readonly build: (large: boolean) => unknown;
  /** What a peer runs on the small value; `JSON.stringify` unless it cannot run. */
  readonly baseline: { readonly label: string; readonly run: (value: unknown) => unknown };
  /** Operations per timed sample (for the cheap shapes). */
  readonly batch: number;
  /** A value of the same shape that fits the budget, written whole: what the budget's worth of output costs. */
  readonly reference?: { readonly label: string; readonly build: () => unknown };
  /** True for the wide object: measured against the engine's for…in floor too. */
  readonly forInFloor?: boolean;
  /** Why the row can or cannot be flat, shown as its note. */
  readonly note?: string;
}

const jsonStringify = { label: "JSON.stringify", run: (value: unknown) => JSON.stringify(value) };

let sink: unknown;

/** The floor: a bare `for…in` that stops at the first key. */
function forInFirstKey(value: object): string | undefined {
  for (const key in value) return key;
  return undefined;
}

const CASES: readonly BudgetCase[] = [
  {
    id: "3a-1M",
    kind: "string",
    smallLabel: "8 MB",
    largeLabel: "80 MB",
    build: (large) => longString(large ? 80_000_000 : 8_000_000),
    baseline: jsonStringify,
    batch: 1,
    reference: { label: "800 KB written whole", build: () => longString(800_000) },
    note: "Flat in the output's size. The cut measures the kept text's escaped length before copying it, so it costs about twice what writing an 800 KB string whole costs, and about what JSON.stringify costs for the whole 8 MB (see its figures).",
  },
  {
    id: "3b-1M",
    kind: "wide plain object",
    smallLabel: "25,000 keys",
    largeLabel: "250,000 keys",
    build: (large) => wideObject(large ? 250_000 : 25_000),
    baseline: jsonStringify,
    batch: 1,
    forInFloor: true,
    note: "Not flat, as row 3b: V8 collects every key when a for…in starts. At this budget the entry budget grows to 1,000,000, so every one of the 250,000 keys is also collected and sorted before the first is written; the 25,000-key object (about 390,000 characters) fits the budget and is written whole.",
  },
  {
    id: "3c-1M",
    kind: "sparse array",
    smallLabel: "1,000,000 slots",
    largeLabel: "10,000,000 slots",
    build: (large) => sparseArray(large ? 10_000_000 : 1_000_000),
    baseline: jsonStringify,
    batch: 1,
  },
  {
    id: "3d-1M",
    kind: "nested chain",
    smallLabel: "100,000 deep",
    largeLabel: "1,000,000 deep",
    build: (large) => nestedChain(large ? 1_000_000 : 100_000),
    // JSON.stringify overflows its stack on either size; nothing to compare.
    baseline: jsonStringify,
    batch: 20,
    note: "The character budget leaves the depth budget at the course's 32, so the walk stops there at any size.",
  },
  {
    id: "3e-1M",
    kind: "BigInt",
    smallLabel: "2,000,000 bits",
    largeLabel: "20,000,000 bits",
    build: (large) => bigIntOfBits(large ? 20_000_000 : 2_000_000),
    baseline: { label: "String(x)", run: (value: unknown) => String(value) },
    batch: 50,
    note: "The character budget leaves the BigInt budget at the course's 4,096 bits: the value is compared with 2^4096 and refused a decimal conversion at any size. JSON.stringify cannot write a BigInt; String(x) is shown instead.",
  },
  {
    id: "3f-1M",
    kind: "array of records",
    smallLabel: "100,000 records",
    largeLabel: "1,000,000 records",
    build: (large) => records(large ? 1_000_000 : 100_000),
    baseline: jsonStringify,
    batch: 1,
  },
];

function repeat(batch: number, run: () => unknown): () => void {
  return () => {
    for (let index = 0; index < batch; index += 1) sink = run();
  };
}

function checkBounded(entry: BudgetCase, value: unknown, label: string): void {
  const result = serializeToolOutput(value, ONE_MILLION);
  check(result.ok, `${entry.kind} ${label}: our serializer must accept it`);
  check([...result.content].length <= 1_000_000, `${entry.kind} ${label}: within the budget`);
}

async function measureCase(entry: BudgetCase): Promise<Row[]> {
  const small = entry.build(false);
  const large = entry.build(true);
  checkBounded(entry, small, entry.smallLabel);
  checkBounded(entry, large, entry.largeLabel);
  let baselineRuns = true;
  try {
    entry.baseline.run(small);
  } catch {
    baselineRuns = false;
  }
  const cheap = entry.batch > 1 ? { budget: CHEAP } : {};
  const tasks: TaskSpec[] = [
    {
      name: "ours small",
      opsPerSample: entry.batch,
      sample: repeat(entry.batch, () => serializeToolOutput(small, ONE_MILLION)),
      ...cheap,
    },
    {
      name: "ours large",
      opsPerSample: entry.batch,
      sample: repeat(entry.batch, () => serializeToolOutput(large, ONE_MILLION)),
      ...cheap,
    },
  ];
  if (baselineRuns) tasks.push({ name: "baseline", sample: () => entry.baseline.run(small) });
  const reference = entry.reference?.build();
  if (reference !== undefined) {
    const whole = serializeToolOutput(reference, ONE_MILLION);
    check(whole.ok && !whole.truncated, `${entry.kind}: the reference fits the budget`);
    tasks.push({ name: "reference", sample: () => serializeToolOutput(reference, ONE_MILLION) });
  }
  if (entry.forInFloor === true) {
    tasks.push({ name: "floor large", sample: () => forInFirstKey(large as object) });
  }
  const figures = await measureGroup(`3 at 1M · ${entry.kind}`, tasks, BUDGET);
  const smallNs = figureOf(figures, "ours small").nsPerOp;
  const largeNs = figureOf(figures, "ours large").nsPerOp;
  const baseline = baselineRuns
    ? [
        {
          label: `${entry.baseline.label} ${entry.smallLabel}`,
          value: figureOf(figures, "baseline").nsPerOp,
          unit: "ns" as const,
        },
      ]
    : [];
  const rows: Row[] = [
    compareRow({
      id: entry.id,
      scenario: 3,
      title: `${entry.kind}, ${entry.smallLabel} → ${entry.largeLabel}, at a 1,000,000-character budget: flat cost`,
      figures: [
        { label: `ours ${entry.smallLabel}`, value: smallNs, unit: "ns" },
        { label: `ours ${entry.largeLabel}`, value: largeNs, unit: "ns" },
        ...(reference === undefined
          ? []
          : [
              {
                label: `ours ${entry.reference?.label}`,
                value: figureOf(figures, "reference").nsPerOp,
                unit: "ns" as const,
              },
            ]),
        ...baseline,
      ],
      ratioLabel: "ours large / ours small",
      ratio: largeNs / smallNs,
      target: atMost(1.5),
      ...(entry.note === undefined ? {} : { note: entry.note }),
    }),
  ];
  if (entry.forInFloor === true) {
    const floorNs = figureOf(figures, "floor large").nsPerOp;
    rows.push(
      compareRow({
        id: `${entry.id}''`,
        scenario: 3,
        title: `${entry.kind}, ${entry.largeLabel}, at a 1,000,000-character budget: vs the engine floor`,
        figures: [
          { label: "ours", value: largeNs, unit: "ns" },
          { label: `floor ${entry.largeLabel}`, value: floorNs, unit: "ns" },
        ],
        ratioLabel: "ours / floor",
        ratio: largeNs / floorNs,
        target: atMost(1.5),
      }),
    );
  }
  return rows;
}

/**
 * Measures the six pathological shapes at a 1,000,000-character budget and
 * returns one row each (flat cost across a 10x larger output; target at most
 * 1.5), plus the wide object's comparison with the engine floor.
 *
 * @example
 * const rows = await pathologicalBudgetScenario();
 */
export async function pathologicalBudgetScenario(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const entry of CASES) rows.push(...(await measureCase(entry)));
  check(sink !== undefined, "the measured serializers must have run");
  return rows;
}
