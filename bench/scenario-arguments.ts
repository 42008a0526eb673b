/**
 * Scenario 6: a model's argument text. `readToolCalls` checks the length of
 * the text before reading any of it, so a 10 MB argument string costs what a
 * short one costs to refuse, while `JSON.parse` (what a hand-written loop
 * runs) reads all of it. For information, the cost of accepting ordinary
 * arguments: our bounded parser and the frozen snapshot against `JSON.parse`.
 */

import { invalidArgumentsReason } from "../course/src/index.ts";
import { readToolCalls } from "../src/providers/index.ts";
import { check, figureOf, type GroupBudget, measureGroup, type TaskBudget } from "./harness.ts";
import { atLeast, compareRow, type Row } from "./report.ts";
import { ordinaryOneKb } from "./values.ts";

const BUDGET: GroupBudget = {
  rounds: 3,
  timeMs: 200,
  iterations: 20,
  warmupMs: 100,
  warmupIterations: 10,
};

/** JSON.parse of 10 MB takes milliseconds per operation. */
const SLOW: TaskBudget = { timeMs: 300, iterations: 5, warmupMs: 0, warmupIterations: 1 };

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

/**
 * Measures refusing a 10 MB argument string (row 6, target: at least 100x
 * below `JSON.parse` of it) and accepting 1 KB of ordinary arguments (row 6',
 * information).
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
  const ordinary = JSON.stringify(ordinaryOneKb());
  const ordinaryMessage = messageWith(ordinary);
  const [accepted] = readToolCalls("openai-chat", ordinaryMessage);
  check(
    JSON.stringify(accepted?.arguments) === ordinary,
    "readToolCalls must read the ordinary arguments as JSON.parse does",
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
      {
        name: "ours 1 KB",
        opsPerSample: 20,
        sample: repeat(20, () => readToolCalls("openai-chat", ordinaryMessage)),
      },
      { name: "JSON.parse 1 KB", opsPerSample: 20, sample: repeat(20, () => JSON.parse(ordinary)) },
    ],
    BUDGET,
  );
  const oursHuge = figureOf(figures, "ours 10 MB").nsPerOp;
  const parseHuge = figureOf(figures, "JSON.parse 10 MB").nsPerOp;
  const oursOrdinary = figureOf(figures, "ours 1 KB").nsPerOp;
  const parseOrdinary = figureOf(figures, "JSON.parse 1 KB").nsPerOp;
  check(sink !== undefined, "the measured readers must have run");
  return [
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
    compareRow({
      id: "6'",
      scenario: 6,
      title: `ordinary arguments, ${ordinary.length.toLocaleString("en-US")} characters: readToolCalls accepting them vs JSON.parse (information)`,
      figures: [
        { label: "readToolCalls", value: oursOrdinary, unit: "ns" },
        { label: "JSON.parse", value: parseOrdinary, unit: "ns" },
      ],
      ratioLabel: "readToolCalls / JSON.parse",
      ratio: oursOrdinary / parseOrdinary,
      target: null,
    }),
  ];
}
