/**
 * Scenario 3d-cut: what a cut costs beyond the work it keeps. A nested chain
 * far deeper than the depth budget is cut where the budget runs out; the
 * chain that ends exactly there is written whole. Both walks visit the same
 * kept levels, so the cut one may cost only its marker and the one container
 * it stops at more: target at most 1.2x, at every depth measured (the
 * course's 32, and configured budgets from 1 to 128).
 */

import { type SerializeOptions, serializeToolOutput } from "../course/src/index.ts";
import { check, figureOf, type GroupBudget, measureGroup, pairedRatio } from "./harness.ts";
import { atMost, compareRow, type Row } from "./report.ts";
import { nestedChain } from "./values.ts";

/** Depth budgets measured; 32 is the course's own (no options given). */
export const CUT_DEPTHS: readonly number[] = [1, 4, 16, 32, 64, 128];

/** Levels the cut chain has beyond the budget: enough that only a cut can end the walk. */
const BEYOND = 1_000;

const BUDGET: GroupBudget = {
  rounds: 5,
  timeMs: 150,
  iterations: 20,
  warmupMs: 100,
  warmupIterations: 10,
};

/** Serializations per timed sample: microseconds each, so batched. */
const BATCH = 20;

let sink: unknown;

function optionsFor(depth: number): SerializeOptions | undefined {
  return depth === 32 ? undefined : { outputBudget: { maxDepth: depth } };
}

async function measureDepth(depth: number): Promise<Row> {
  const options = optionsFor(depth);
  const whole = nestedChain(depth);
  const deeper = nestedChain(depth + BEYOND);
  const kept = serializeToolOutput(whole, options);
  const cut = serializeToolOutput(deeper, options);
  check(kept.ok && !kept.truncated, `a chain ${depth} deep must be written whole`);
  check(cut.ok && cut.truncated, `a chain ${depth + BEYOND} deep must be cut at ${depth}`);
  // The cut keeps exactly the whole chain's opening levels.
  const opening = '{"next":'.repeat(depth);
  check(
    kept.ok && cut.ok && kept.content.startsWith(opening) && cut.content.startsWith(opening),
    "both walks must keep the same levels",
  );
  const run = (value: unknown) => () => {
    for (let index = 0; index < BATCH; index += 1) sink = serializeToolOutput(value, options);
  };
  const figures = await measureGroup(
    `3d-cut · depth ${depth}`,
    [
      { name: "cut", opsPerSample: BATCH, sample: run(deeper) },
      { name: "whole", opsPerSample: BATCH, sample: run(whole) },
    ],
    BUDGET,
  );
  const cutNs = figureOf(figures, "cut").nsPerOp;
  const wholeNs = figureOf(figures, "whole").nsPerOp;
  return compareRow({
    id: `3d-cut-${depth}`,
    scenario: 3,
    title: `nested chain cut at depth ${depth}${depth === 32 ? " (the course's budget)" : ` (maxDepth: ${depth})`}: vs the chain ${depth} deep written whole`,
    figures: [
      { label: `cut (${depth + BEYOND} deep)`, value: cutNs, unit: "ns" },
      { label: `whole (${depth} deep)`, value: wholeNs, unit: "ns" },
    ],
    ratioLabel: "cut / whole, median of the rounds' own ratios",
    ratio: pairedRatio(
      figures,
      (at) => at("cut"),
      (at) => at("whole"),
    ),
    target: atMost(1.2),
  });
}

/**
 * Measures the cut against the whole walk at each of {@link CUT_DEPTHS} and
 * returns one row per depth.
 *
 * @example
 * const rows = await cutScenario();
 */
export async function cutScenario(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const depth of CUT_DEPTHS) rows.push(await measureDepth(depth));
  check(sink !== undefined, "the measured serializations must have run");
  return rows;
}
