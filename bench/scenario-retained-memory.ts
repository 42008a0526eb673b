/**
 * Scenario 13, memory (information): what the boundary keeps. The heap still
 * in use after 10,000 echo calls have finished and their results were
 * dropped, through `executeToolCall` and through the bare path; and the heap a
 * registry of 1,000 Tools holds (what dropping it frees), against the 1,000
 * definitions it is built from. Each figure comes from processes of their
 * own (`memory-child.ts`) and is the median of five.
 */

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { check, progress } from "./harness.ts";
import { compareRow, type Row } from "./report.ts";
import { FINISHED_CALLS, REGISTRY_TOOLS, type RetainedSubject } from "./retained-subjects.ts";

const CHILD = fileURLToPath(new URL("./memory-child.js", import.meta.url));
const RUNS = 5;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** What a memory child reports: see memory-child.ts. */
interface ChildFigures {
  readonly retained: number;
  readonly held: number;
}

/**
 * The median over five processes of what `subject` leaves in use (`retained`:
 * the heap after it, against before it, while its result is held) or of what
 * its result holds (`held`: the heap its result frees when dropped), in
 * bytes. The children run single-threaded: with the engine's helper threads
 * compiling and sweeping at moments of their own, the registry's figure moved
 * by about 15% from process to process; single-threaded it is the same byte
 * count in every run.
 */
function measured(subject: RetainedSubject, figure: keyof ChildFigures): number {
  const values: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const output = execFileSync(
      process.execPath,
      ["--expose-gc", "--single-threaded", CHILD, subject],
      { encoding: "utf8" },
    );
    const figures = JSON.parse(output) as ChildFigures;
    check(typeof figures[figure] === "number", `${subject} must report its ${figure} heap`);
    values.push(figures[figure]);
  }
  return median(values);
}

const bytes = (label: string, value: number) => ({ label, value, unit: "bytes" as const });
const perOne = (value: number, count: number) => `${Math.round(value / count)} bytes`;

/**
 * Measures rows 13 (heap retained after 10,000 finished calls) and 13' (heap
 * held by a registry of 1,000 Tools). Information: no target.
 *
 * @example
 * const memoryRows = retainedMemoryScenario();
 */
export function retainedMemoryScenario(): Row[] {
  progress("  10,000 finished calls");
  const oursCalls = measured("calls-ours", "retained");
  const bareCalls = measured("calls-bare", "retained");
  progress("  a registry of 1,000 Tools");
  const registry = measured("registry-ours", "held");
  const definitions = measured("registry-definitions", "held");
  check(registry > 0 && definitions > 0, "a registry and its definitions must hold memory");
  const calls = FINISHED_CALLS.toLocaleString("en-US");
  const tools = REGISTRY_TOOLS.toLocaleString("en-US");
  return [
    compareRow({
      id: "13",
      scenario: 13,
      title: `heap still in use after ${calls} finished echo calls, their results dropped (information)`,
      figures: [bytes("executeToolCall", oursCalls), bytes("bare path", bareCalls)],
      ratioLabel: "retained, executeToolCall / bare path",
      ratio: null,
      target: null,
      note: `Per call: executeToolCall ${perOne(oursCalls, FINISHED_CALLS)}, the bare path ${perOne(bareCalls, FINISHED_CALLS)} (after 2,000 warm-up calls, so compiled code is not counted; a figure near 0 means nothing a finished call used stays reachable).`,
    }),
    compareRow({
      id: "13'",
      scenario: 13,
      title: `heap held by a registry of ${tools} Tools (each with a JSON Schema and its own execute), vs the ${tools} definitions it is built from (information)`,
      figures: [bytes("ToolRegistry", registry), bytes("definitions alone", definitions)],
      ratioLabel: "ToolRegistry / definitions",
      ratio: registry / definitions,
      target: null,
      note: `Per Tool: the registry ${perOne(registry, REGISTRY_TOOLS)}, a definition ${perOne(definitions, REGISTRY_TOOLS)}. The registry keeps frozen copies of each definition's fields and schema; the definitions are garbage once it is built.`,
    }),
  ];
}
