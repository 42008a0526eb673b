/**
 * Scenario 6: a model's argument text. `readToolCalls` checks the length of
 * the text before reading any of it, so a 10 MB argument string costs what a
 * short one costs to refuse, while `JSON.parse` (what a hand-written loop
 * runs) reads all of it. And the cost of accepting ordinary arguments of
 * 1 KB, 100 KB and 900 KB: our bounded parser and the frozen snapshot against
 * `JSON.parse` (target: at most 3x).
 */

import { invalidArgumentsReason } from "../course/src/index.ts";
import { readToolCalls } from "../src/providers/index.ts";
import {
  check,
  figureOf,
  type GroupBudget,
  measureGroup,
  pairedRatio,
  type TaskBudget,
} from "./harness.ts";
import { atLeast, atMost, compareRow, type Row } from "./report.ts";
import { ordinaryArgumentText, ordinaryOneKb } from "./values.ts";

const BUDGET: GroupBudget = {
  rounds: 3,
  timeMs: 200,
  iterations: 20,
  warmupMs: 100,
  warmupIterations: 10,
};

/** Accepting arguments: five rounds, so that each ratio is the median of five paired ones. */
const ACCEPT_BUDGET: GroupBudget = { ...BUDGET, rounds: 5 };

/** JSON.parse of 10 MB takes milliseconds per operation. */
const SLOW: TaskBudget = { timeMs: 300, iterations: 5, warmupMs: 0, warmupIterations: 1 };

/** Reading 100 KB or 900 KB takes from a fraction of a millisecond to several. */
const LARGE: TaskBudget = { timeMs: 300, iterations: 10, warmupMs: 100, warmupIterations: 3 };

/** The ordinary argument texts whose acceptance is measured, one row each. */
const SIZES = [
  { id: "6'", label: "1 KB", text: () => JSON.stringify(ordinaryOneKb()), batch: 20 },
  { id: "6''", label: "100 KB", text: () => ordinaryArgumentText(100_000), batch: 1 },
  { id: "6'''", label: "900 KB", text: () => ordinaryArgumentText(900_000), batch: 1 },
] as const;

let sink: unknown;

function repeat(batch: number, run: () => unknown): () => void {
  return () => {
    for (let index = 0; index < batch; index += 1) sink = run();
  };
}

/** An OpenAI chat message with one call whose argument text is `text`. */
function messageWith(text: string): object {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "work", arguments: text } }],
  };
}

/** One row of accepting ordinary argument text: readToolCalls against JSON.parse, paired by round. */
async function acceptingRow(size: (typeof SIZES)[number]): Promise<Row> {
  const text = size.text();
  const message = messageWith(text);
  const [accepted] = readToolCalls("openai-chat", message);
  check(
    JSON.stringify(accepted?.arguments) === text,
    `readToolCalls must read the ${size.label} arguments as JSON.parse does`,
  );
  const own = size.batch === 1 ? { budget: LARGE } : {};
  const ours = `ours ${size.label}`;
  const parse = `JSON.parse ${size.label}`;
  const figures = await measureGroup(
    `6 arguments ${size.label}`,
    [
      {
        name: ours,
        opsPerSample: size.batch,
        sample: repeat(size.batch, () => readToolCalls("openai-chat", message)),
        ...own,
      },
      {
        name: parse,
        opsPerSample: size.batch,
        sample: repeat(size.batch, () => JSON.parse(text)),
        ...own,
      },
    ],
    ACCEPT_BUDGET,
  );
  check(sink !== undefined, "the measured readers must have run");
  return compareRow({
    id: size.id,
    scenario: 6,
    title: `ordinary arguments, ${text.length.toLocaleString("en-US")} characters: readToolCalls accepting them vs JSON.parse`,
    figures: [
      { label: "readToolCalls", value: figureOf(figures, ours).nsPerOp, unit: "ns" },
      { label: "JSON.parse", value: figureOf(figures, parse).nsPerOp, unit: "ns" },
    ],
    ratioLabel: "readToolCalls / JSON.parse, median of the rounds' own ratios",
    ratio: pairedRatio(
      figures,
      (at) => at(ours),
      (at) => at(parse),
    ),
    target: atMost(3),
  });
}

/**
 * Measures refusing a 10 MB argument string (row 6, target: at least 100x
 * below `JSON.parse` of it) and accepting ordinary arguments of 1 KB, 100 KB
 * and 900 KB (rows 6', 6'' and 6''', target: at most 3x `JSON.parse`, the
 * median of the rounds' own ratios).
 *
 * @example
 * const rows = await argumentsScenario();
 */
export async function argumentsScenario(): Promise<Row[]> {
  const huge = JSON.stringify({ text: "x".repeat(10_000_000 - 11) });
  check(huge.length === 10_000_000, "the large argument text must be 10,000,000 characters");
  const hugeMessage = messageWith(huge);
  const [refused] = readToolCalls("openai-chat", hugeMessage);
  check(
    invalidArgumentsReason(refused)?.startsWith("arguments are 10000000 characters long") === true,
    "readToolCalls must refuse the 10 MB text by its length",
  );
  const figures = await measureGroup(
    "6 arguments",
    [
      {
        name: "ours 10 MB",
        opsPerSample: 100,
        sample: repeat(100, () => readToolCalls("openai-chat", hugeMessage)),
      },
      { name: "JSON.parse 10 MB", sample: () => JSON.parse(huge), budget: SLOW },
    ],
    BUDGET,
  );
  const oursHuge = figureOf(figures, "ours 10 MB").nsPerOp;
  const parseHuge = figureOf(figures, "JSON.parse 10 MB").nsPerOp;
  check(sink !== undefined, "the measured readers must have run");
  const rows: Row[] = [
    compareRow({
      id: "6",
      scenario: 6,
      title: "a 10 MB argument string: readToolCalls refusing it vs JSON.parse reading it",
      figures: [
        { label: "readToolCalls", value: oursHuge, unit: "ns" },
        { label: "JSON.parse", value: parseHuge, unit: "ns" },
      ],
      ratioLabel: "JSON.parse / readToolCalls",
      ratio: parseHuge / oursHuge,
      target: atLeast(100),
      note: "readToolCalls reads the whole message and builds the refused call (answered TOOL_ARGUMENTS_INVALID); it compares the text's length with the limit (1,000,000 by default) before reading any character, so its cost does not grow with the text.",
    }),
  ];
  for (const size of SIZES) rows.push(await acceptingRow(size));
  return rows;
}
