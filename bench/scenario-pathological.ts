/**
 * Scenario 3: pathological outputs at two sizes, 10x apart. Our serializer's
 * cost must stay flat (large / small at most 1.5) and, at the large size, be
 * at least 100x below what the peers' `JSON.stringify` costs. Where the engine
 * itself does O(n) work before any code sees the value (V8 collects all keys
 * of a dictionary-mode object when a `for…in` starts), that floor is measured
 * too, and our cost is compared with it.
 */

import { serializeToolOutput } from "../course/src/index.ts";
import {
  check,
  figureOf,
  type GroupBudget,
  measureGroup,
  type TaskBudget,
  type TaskSpec,
} from "./harness.ts";
import { atLeast, atMost, compareRow, type Figure, type Row } from "./report.ts";
import {
  bigIntOfBits,
  longString,
  nestedChain,
  records,
  sparseArray,
  wideObject,
} from "./values.ts";

/** Our side: cheap, so a longer warm-up absorbs the garbage a previous baseline left behind. */
const BUDGET: GroupBudget = {
  rounds: 3,
  timeMs: 200,
  iterations: 10,
  warmupMs: 150,
  warmupIterations: 10,
};

/** The peers' side and the floor: tens or hundreds of milliseconds per operation. */
const SLOW: TaskBudget = { timeMs: 200, iterations: 5, warmupMs: 0, warmupIterations: 1 };

interface PathologicalCase {
  readonly id: string;
  readonly kind: string;
  readonly smallLabel: string;
  readonly largeLabel: string;
  readonly build: (large: boolean) => unknown;
  /** What a peer runs on the value; `JSON.stringify` unless it cannot run at all. */
  readonly baseline: { readonly label: string; readonly run: (value: unknown) => unknown };
  /** Serializations per timed sample for our (cheap) side. */
  readonly batch: number;
  /** True when a bare `for…in` on the value is the engine's O(n) floor (then our side is slow too). */
  readonly forInFloor?: boolean;
}

let sink: unknown;

const jsonStringify = { label: "JSON.stringify", run: (value: unknown) => JSON.stringify(value) };

/** The floor: a bare `for…in` that stops at the first key. */
function forInFirstKey(value: object): string | undefined {
  for (const key in value) return key;
  return undefined;
}

const CASES: readonly PathologicalCase[] = [
  {
    id: "3a",
    kind: "string",
    smallLabel: "800 KB",
    largeLabel: "8 MB",
    build: (large) => longString(large ? 8_000_000 : 800_000),
    baseline: jsonStringify,
    batch: 4,
  },
  {
    id: "3b",
    kind: "wide plain object",
    smallLabel: "25,000 keys",
    largeLabel: "250,000 keys",
    build: (large) => wideObject(large ? 250_000 : 25_000),
    baseline: jsonStringify,
    batch: 1,
    forInFloor: true,
  },
  {
    id: "3c",
    kind: "sparse array",
    smallLabel: "100,000 slots",
    largeLabel: "1,000,000 slots",
    build: (large) => sparseArray(large ? 1_000_000 : 100_000),
    baseline: jsonStringify,
    batch: 20,
  },
  {
    id: "3d",
    kind: "nested chain",
    smallLabel: "10,000 deep",
    largeLabel: "100,000 deep",
    build: (large) => nestedChain(large ? 100_000 : 10_000),
    baseline: jsonStringify,
    batch: 20,
  },
  {
    id: "3e",
    kind: "BigInt",
    smallLabel: "200,000 bits",
    largeLabel: "2,000,000 bits",
    build: (large) => bigIntOfBits(large ? 2_000_000 : 200_000),
    // JSON.stringify throws a TypeError on any BigInt; peers fall back to String(x).
    baseline: { label: "String(x)", run: (value: unknown) => String(value) },
    batch: 50,
  },
  {
    id: "3f",
    kind: "array of records",
    smallLabel: "10,000 records",
    largeLabel: "100,000 records",
    build: (large) => records(large ? 100_000 : 10_000),
    baseline: jsonStringify,
    batch: 20,
  },
];

function repeat(batch: number, run: () => unknown): () => void {
  return () => {
    for (let index = 0; index < batch; index += 1) sink = run();
  };
}

function checkBounded(entry: PathologicalCase, value: unknown, label: string): void {
  const result = serializeToolOutput(value);
  check(result.ok && result.truncated, `${entry.kind} ${label}: our serializer must truncate it`);
  check([...result.content].length <= 4096, `${entry.kind} ${label}: within the output cap`);
}

async function measureCase(entry: PathologicalCase): Promise<Row[]> {
  const small = entry.build(false);
  const large = entry.build(true);
  checkBounded(entry, small, entry.smallLabel);
  checkBounded(entry, large, entry.largeLabel);
  let baselineError: string | undefined;
  try {
    entry.baseline.run(large);
  } catch (thrown) {
    baselineError = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  }

  // Behind the engine's floor our side costs milliseconds too: it gets the slow budget.
  const oursBudget = entry.forInFloor === true ? { budget: SLOW } : {};
  const tasks: TaskSpec[] = [
    {
      name: "ours small",
      opsPerSample: entry.batch,
      sample: repeat(entry.batch, () => serializeToolOutput(small)),
      ...oursBudget,
    },
    {
      name: "ours large",
      opsPerSample: entry.batch,
      sample: repeat(entry.batch, () => serializeToolOutput(large)),
      ...oursBudget,
    },
  ];
  if (baselineError === undefined) {
    tasks.push({ name: "baseline large", sample: () => entry.baseline.run(large), budget: SLOW });
  }
  if (entry.forInFloor === true) {
    tasks.push({ name: "floor small", sample: () => forInFirstKey(small as object), budget: SLOW });
    tasks.push({ name: "floor large", sample: () => forInFirstKey(large as object), budget: SLOW });
  }
  const figures = await measureGroup(`3 pathological · ${entry.kind}`, tasks, BUDGET);
  const smallNs = figureOf(figures, "ours small").nsPerOp;
  const largeNs = figureOf(figures, "ours large").nsPerOp;
  const title = `${entry.kind}, ${entry.smallLabel} → ${entry.largeLabel}`;
  const oursFigures: Figure[] = [
    { label: `ours ${entry.smallLabel}`, value: smallNs, unit: "ns" },
    { label: `ours ${entry.largeLabel}`, value: largeNs, unit: "ns" },
  ];
  const rows: Row[] = [];
  const floorNote =
    "V8 collects every key of a dictionary-mode object when a for…in starts, before the loop body can run: no JavaScript can look at such an object for less. Our cost grows with that floor, not with our own work; see the floor row.";
  rows.push(
    compareRow({
      id: `${entry.id}`,
      scenario: 3,
      title: `${title}: flat cost`,
      figures: oursFigures,
      ratioLabel: "ours large / ours small",
      ratio: largeNs / smallNs,
      target: atMost(1.5),
      ...(entry.forInFloor === true ? { note: floorNote } : {}),
    }),
  );
  if (baselineError === undefined) {
    const baselineNs = figureOf(figures, "baseline large").nsPerOp;
    rows.push(
      compareRow({
        id: `${entry.id}'`,
        scenario: 3,
        title: `${entry.kind}, ${entry.largeLabel}: vs ${entry.baseline.label}`,
        figures: [
          { label: "ours", value: largeNs, unit: "ns" },
          { label: entry.baseline.label, value: baselineNs, unit: "ns" },
        ],
        ratioLabel: `${entry.baseline.label} / ours`,
        ratio: baselineNs / largeNs,
        target: atLeast(100),
        ...(entry.baseline === jsonStringify
          ? {}
          : {
              note: "JSON.stringify throws a TypeError on any BigInt, so it cannot run; String(x), the peers' fallback, is measured instead.",
            }),
      }),
    );
  } else {
    rows.push(
      compareRow({
        id: `${entry.id}'`,
        scenario: 3,
        title: `${entry.kind}, ${entry.largeLabel}: vs ${entry.baseline.label}`,
        figures: [{ label: "ours", value: largeNs, unit: "ns" }],
        ratioLabel: `${entry.baseline.label} / ours`,
        ratio: null,
        target: atLeast(100),
        note: `${entry.baseline.label} cannot run on this value (${baselineError}).`,
      }),
    );
  }
  if (entry.forInFloor === true) {
    const floorSmall = figureOf(figures, "floor small").nsPerOp;
    const floorLarge = figureOf(figures, "floor large").nsPerOp;
    rows.push(
      compareRow({
        id: `${entry.id}''`,
        scenario: 3,
        title: `${entry.kind}, ${entry.largeLabel}: vs the engine floor (bare for…in that breaks at once)`,
        figures: [
          { label: "ours", value: largeNs, unit: "ns" },
          { label: `floor ${entry.smallLabel}`, value: floorSmall, unit: "ns" },
          { label: `floor ${entry.largeLabel}`, value: floorLarge, unit: "ns" },
        ],
        ratioLabel: "ours / floor",
        ratio: largeNs / floorLarge,
        target: atMost(1.5),
      }),
    );
  }
  return rows;
}

/**
 * Measures the six pathological outputs at both sizes and returns their rows:
 * flatness, the speed-up over the peers' serialization, and (for the wide
 * object) the comparison with the engine's floor.
 *
 * @example
 * const rows = await pathologicalScenario();
 */
export async function pathologicalScenario(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const entry of CASES) rows.push(...(await measureCase(entry)));
  check(sink !== undefined, "the measured serializers must have run");
  return rows;
}
