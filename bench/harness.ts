/**
 * The measuring harness: runs groups of tinybench tasks in several rounds and
 * reduces them to one robust figure per task (the median across rounds of each
 * round's median sample), so that the tasks of one comparison share the same
 * moments of a noisy machine.
 */

import { Bench } from "tinybench";

/**
 * One task of a group: `sample` is one timed tinybench iteration that performs
 * `opsPerSample` operations (batching keeps sub-microsecond work above the
 * timer's resolution; reported figures are per operation).
 *
 * @example
 * const task: TaskSpec = { name: "JSON.stringify", sample: () => JSON.stringify(value), opsPerSample: 1 };
 */
export interface TaskSpec {
  readonly name: string;
  readonly sample: () => unknown;
  /** Operations performed by one call of `sample`; default 1. */
  readonly opsPerSample?: number;
  /** True when `sample` returns a promise that tinybench must await; default false. */
  readonly async?: boolean;
  /** This task's own time and iteration budget, instead of the group's. */
  readonly budget?: TaskBudget;
}

/**
 * Time and iteration budgets for one task in one round, passed to tinybench,
 * which runs (and warms up) until both the time and the iteration count are reached.
 *
 * @example
 * const slow: TaskBudget = { timeMs: 200, iterations: 5, warmupMs: 0, warmupIterations: 1 };
 */
export interface TaskBudget {
  readonly timeMs: number;
  readonly iterations: number;
  readonly warmupMs: number;
  readonly warmupIterations: number;
}

/**
 * A group's budget: how many rounds, and the tasks' default budget per round.
 *
 * @example
 * const quick: GroupBudget = { rounds: 3, timeMs: 300, iterations: 20, warmupMs: 60, warmupIterations: 5 };
 */
export interface GroupBudget extends TaskBudget {
  readonly rounds: number;
}

/** The figure kept for one task: nanoseconds per operation, plus how it was obtained. */
export interface Measured {
  /** Median across rounds of each round's median sample, per operation. */
  readonly nsPerOp: number;
  /** Every round's median, per operation, in round order (for information). */
  readonly roundNs: readonly number[];
  /** Samples taken over all rounds. */
  readonly samples: number;
}

const loadedAt = performance.now();

/** Writes one progress line to stderr, stamped with the seconds since start (stdout is reserved for the report). */
export function progress(line: string): void {
  const seconds = ((performance.now() - loadedAt) / 1000).toFixed(1);
  process.stderr.write(`[${seconds.padStart(5)} s] ${line}\n`);
}

/**
 * The median of `values`; throws for none.
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

function formatMs(ms: number): string {
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  if (ms >= 0.001) return `${(ms * 1000).toFixed(2)} µs`;
  return `${(ms * 1e6).toFixed(0)} ns`;
}

/** Frees the previous task's garbage when the process runs with --expose-gc, so it is not billed to the next. */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === "function") gc();
}

/**
 * Measures every task of a group with tinybench, `budget.rounds` times; odd
 * rounds run the tasks in reverse order so that no task always goes first.
 * Throws when a task fails: a benchmark of an error path would be meaningless.
 *
 * @example
 * const figures = await measureGroup("ordinary 1 KB", tasks, budget);
 * figures.get("JSON.stringify")?.nsPerOp;
 */
export async function measureGroup(
  label: string,
  tasks: readonly TaskSpec[],
  budget: GroupBudget,
): Promise<Map<string, Measured>> {
  const perRound = new Map<string, number[]>();
  const samples = new Map<string, number>();
  for (const task of tasks) {
    perRound.set(task.name, []);
    samples.set(task.name, 0);
  }
  for (let round = 0; round < budget.rounds; round += 1) {
    const ordered = round % 2 === 0 ? tasks : [...tasks].reverse();
    for (const task of ordered) {
      // One tinybench instance per task, so that each task can have its own budget.
      const own = task.budget ?? budget;
      const bench = new Bench({
        time: own.timeMs,
        iterations: own.iterations,
        warmupTime: own.warmupMs,
        warmupIterations: own.warmupIterations,
        throws: true,
      });
      bench.add(task.name, task.sample, { async: task.async === true, beforeAll: collectGarbage });
      await bench.run();
      const result = bench.getTask(task.name)?.result;
      if (result === undefined || result.state !== "completed") {
        throw new Error(`${label} / ${task.name}: tinybench did not complete the task`);
      }
      const ops = task.opsPerSample ?? 1;
      const perOpMs = result.latency.p50 / ops;
      perRound.get(task.name)?.push(perOpMs * 1e6);
      samples.set(task.name, (samples.get(task.name) ?? 0) + result.latency.samplesCount);
      progress(
        `  ${label} · ${task.name} · round ${round + 1}/${budget.rounds}: ${formatMs(perOpMs)} per op (${result.latency.samplesCount} samples)`,
      );
    }
  }
  const figures = new Map<string, Measured>();
  for (const task of tasks) {
    const rounds = perRound.get(task.name) ?? [];
    figures.set(task.name, {
      nsPerOp: median(rounds),
      roundNs: rounds,
      samples: samples.get(task.name) ?? 0,
    });
  }
  return figures;
}

/**
 * The median across rounds of each round's own ratio `numerator(round) /
 * denominator(round)`, from the per-round figures of one group: the tasks of a
 * round ran next to each other, so load that drifts between rounds cancels
 * out of each round's ratio.
 *
 * @example
 * pairedRatio(figures, (at) => at("ours"), (at) => at("native"));
 */
export function pairedRatio(
  figures: ReadonlyMap<string, Measured>,
  numerator: (at: (name: string) => number) => number,
  denominator: (at: (name: string) => number) => number,
): number {
  const rounds = [...figures.values()][0]?.roundNs.length ?? 0;
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const at = (name: string): number => {
      const value = figureOf(figures, name).roundNs[round];
      if (value === undefined) throw new Error(`no round ${round + 1} for ${name}`);
      return value;
    };
    ratios.push(numerator(at) / denominator(at));
  }
  return median(ratios);
}

/**
 * Reads one task's figure from a group's results; throws when it is missing,
 * which would be a defect in the scenario that asked for it.
 *
 * @example
 * const ours = figureOf(figures, "serializeToolOutput");
 */
export function figureOf(figures: ReadonlyMap<string, Measured>, name: string): Measured {
  const figure = figures.get(name);
  if (figure === undefined) throw new Error(`no figure for task "${name}"`);
  return figure;
}

/**
 * Fails the run unless `condition` holds: scenarios check, before timing
 * anything, that each task really does what its row claims.
 *
 * @example
 * check(result.isError === false, "the echo call must succeed");
 */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`bench sanity check failed: ${message}`);
}
