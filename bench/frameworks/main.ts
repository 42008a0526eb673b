/**
 * `npm run bench:frameworks`: scenarios 7 (the AI SDK 7.0.173) and 8 (OpenAI
 * Agents JS 0.20.0), on Node.js 22. Each framework's own loop runs an echo
 * Tool written the framework's way and the same Tool of ours through our
 * adapter, in the same run: a step of calls (100 for the AI SDK, 10 for
 * OpenAI Agents), a step of none (to take the per-step work out) and one call
 * returning an oversized output. Prints the rows (or, with `--json`, one JSON
 * document) on stdout; progress on stderr. With `--turn-sizes`, prints instead
 * how OpenAI Agents' runner scales with the calls of one turn (turn-sizes.ts).
 */

import { readFileSync } from "node:fs";
import { COURSE_TOOL_OUTPUT_CAP_CHARACTERS } from "../../course/src/index.ts";
import type { EchoInput } from "../echo-tool.ts";
import {
  check,
  figureOf,
  type GroupBudget,
  measureGroup,
  pairedRatio,
  progress,
} from "../harness.ts";
import { atMost, compareRow, type Row, runInfo, writeReport } from "../report.ts";
import {
  agentsRun,
  nativeEchoTools as nativeAgentsTools,
  ourEchoTools as ourAgentsTools,
} from "./agents-loop.ts";
import {
  aiSdkRun,
  nativeEchoTools as nativeAiSdkTools,
  ourEchoTools as ourAiSdkTools,
} from "./ai-sdk-loop.ts";
import { turnSizesTable } from "./turn-sizes.ts";

const BIG_CHARACTERS = 1_000_000;
const BUDGET: GroupBudget = {
  rounds: 11,
  timeMs: 700,
  iterations: 50,
  warmupMs: 300,
  warmupIterations: 20,
};
// One oversized call per run costs milliseconds natively: fewer samples suffice.
const BIG_BUDGET = { timeMs: 700, iterations: 10, warmupMs: 200, warmupIterations: 3 };

const echo = ({ text, slot }: EchoInput) => ({ echo: text, slot });
const big = () => ({ data: "x".repeat(BIG_CHARACTERS) });

function installedVersion(name: string): string {
  const manifest = new URL(`../../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

function requireNode22(): void {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 22) {
    throw new Error(
      `the frameworks need Node.js 22 or newer, this is ${process.version}: run \`npm run bench:frameworks\``,
    );
  }
}

/** The text the model reads for one Tool result, whatever shape the framework gives it. */
function textOf(output: unknown): string {
  const { type, value, text } = output as { type?: string; value?: unknown; text?: unknown };
  if (type === "text" && typeof value === "string") return value;
  if (type === "text" && typeof text === "string") return text;
  return JSON.stringify(value);
}

interface Loop {
  readonly id: string;
  /** Calls in the scripted step: OpenAI Agents' cost per call grows with the step, so its step is smaller. */
  readonly calls: number;
  readonly scenario: number;
  readonly label: string;
  readonly run: (tools: never, count: number) => () => Promise<unknown[]>;
  readonly native: (output: (input: EchoInput) => unknown) => unknown;
  readonly ours: (output: (input: EchoInput) => unknown) => Promise<unknown>;
}

async function scenario(loop: Loop): Promise<Row[]> {
  progress(`scenario ${loop.scenario}: ${loop.label}`);
  const calls = loop.calls;
  const run = (tools: unknown, count: number) => loop.run(tools as never, count);
  const native = loop.native(echo);
  const ours = await loop.ours(echo);
  const nativeFull = run(native, calls);
  const oursFull = run(ours, calls);
  const nativeBig = run(loop.native(big), 1);
  const oursBig = run(await loop.ours(big), 1);

  // Sanity: each side runs every call, successfully, and the model reads its echo.
  for (const [side, runner] of [
    ["native", nativeFull],
    ["ours", oursFull],
  ] as const) {
    const texts = (await runner()).map(textOf);
    check(texts.length === calls, `${loop.label} ${side}: ${calls} results, got ${texts.length}`);
    check(
      texts.every((text, slot) => text === `{"echo":"hello ${slot}","slot":${slot}}`),
      `${loop.label} ${side}: every result must be the echo of its own call`,
    );
  }
  check((await run(native, 0)()).length === 0, `${loop.label}: the empty step runs no Tool`);
  const nativeBigText = textOf((await nativeBig())[0]);
  const oursBigText = textOf((await oursBig())[0]);
  check(
    nativeBigText.length > BIG_CHARACTERS,
    `${loop.label}: the native path writes the whole output`,
  );
  check(
    [...oursBigText].length <= COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
    `${loop.label}: ours writes at most the cap`,
  );

  const figures = await measureGroup(
    `${loop.scenario} ${loop.label}`,
    [
      { name: "native: full step", async: true, opsPerSample: calls, sample: nativeFull },
      { name: "ours: full step", async: true, opsPerSample: calls, sample: oursFull },
      // Per "call" only so that the differences below are per call; they run no Tool.
      { name: "native: 0 calls", async: true, opsPerSample: calls, sample: run(native, 0) },
      { name: "ours: 0 calls", async: true, opsPerSample: calls, sample: run(ours, 0) },
      { name: "native: oversized", async: true, sample: nativeBig, budget: BIG_BUDGET },
      { name: "ours: oversized", async: true, sample: oursBig, budget: BIG_BUDGET },
    ],
    BUDGET,
  );
  const ns = (name: string) => figureOf(figures, name).nsPerOp;
  const nativeMarginal = ns("native: full step") - ns("native: 0 calls");
  const oursMarginal = ns("ours: full step") - ns("ours: 0 calls");
  return [
    compareRow({
      id: loop.id,
      scenario: loop.scenario,
      title: `${loop.label}: one step of ${calls} echo calls, per call`,
      figures: [
        { label: "ours (adapter)", value: ns("ours: full step"), unit: "ns" },
        { label: "native tool", value: ns("native: full step"), unit: "ns" },
      ],
      ratioLabel: "ours / native, median of the rounds' own ratios",
      ratio: pairedRatio(
        figures,
        (at) => at("ours: full step"),
        (at) => at("native: full step"),
      ),
      target: atMost(1.1),
    }),
    compareRow({
      id: `${loop.id}'`,
      scenario: loop.scenario,
      title: `${loop.label}: cost per extra call, the step's own work removed`,
      figures: [
        { label: "ours marginal", value: oursMarginal, unit: "ns" },
        {
          label: `native marginal ((step of ${calls} − step of 0) / ${calls})`,
          value: nativeMarginal,
          unit: "ns",
        },
      ],
      ratioLabel: "ours / native marginal, median of the rounds' own ratios",
      ratio: pairedRatio(
        figures,
        (at) => at("ours: full step") - at("ours: 0 calls"),
        (at) => at("native: full step") - at("native: 0 calls"),
      ),
      target: atMost(1.25),
    }),
    compareRow({
      id: `${loop.id}''`,
      scenario: loop.scenario,
      title: `${loop.label}: one call returning ${BIG_CHARACTERS.toLocaleString("en-US")} characters, what the model reads`,
      figures: [
        { label: "ours, run", value: ns("ours: oversized"), unit: "ns" },
        { label: "native, run", value: ns("native: oversized"), unit: "ns" },
      ],
      ratioLabel: `characters written, native ${nativeBigText.length.toLocaleString("en-US")} / ours ${[...oursBigText].length.toLocaleString("en-US")}`,
      ratio: nativeBigText.length / [...oursBigText].length,
      target: null,
    }),
  ];
}

const startedAt = performance.now();
requireNode22();
const versions = { ai: installedVersion("ai"), agents: installedVersion("@openai/agents-core") };
check(versions.ai === "7.0.173", `ai 7.0.173, found ${versions.ai}`);
check(versions.agents === "0.20.0", `@openai/agents-core 0.20.0, found ${versions.agents}`);

async function frameworkRows(): Promise<Row[]> {
  return [
    ...(await scenario({
      id: "7",
      calls: 100,
      scenario: 7,
      label: `AI SDK ${versions.ai} (generateText)`,
      run: aiSdkRun as Loop["run"],
      native: nativeAiSdkTools,
      ours: ourAiSdkTools,
    })),
    ...(await scenario({
      id: "8",
      calls: 10,
      scenario: 8,
      label: `OpenAI Agents ${versions.agents} (Runner.run)`,
      run: agentsRun as Loop["run"],
      native: nativeAgentsTools,
      ours: ourAgentsTools,
    })),
  ];
}

// `--turn-sizes` prints only the turn-size table (see turn-sizes.ts), not the rows.
if (process.argv.includes("--turn-sizes")) {
  process.stdout.write(`OpenAI Agents ${versions.agents}, ${process.version}\n\n`);
  process.stdout.write(await turnSizesTable());
} else {
  const rows = await frameworkRows();
  const info = runInfo(
    `toolbound bench:frameworks (scenarios 7-8: ai ${versions.ai}, @openai/agents-core ${versions.agents})`,
    startedAt,
  );
  writeReport(rows, info, process.argv.slice(2));
}
