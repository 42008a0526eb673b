/**
 * Scenario 6, memory: what reading a model's arguments holds in memory, next
 * to what `JSON.parse` of the same text holds. Each figure comes from a
 * process of its own (`memory-child.ts`), so one measurement's garbage never
 * lands in another's; each is the median of three processes (one for the
 * 16-call response). The ratios are
 * ours over `JSON.parse`'s, for the peak of heap in use during the read and
 * for what stays in use while the result is held.
 */

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { check, progress } from "./harness.ts";
import { argumentText, type MemoryShape, type MemorySubject } from "./memory-shapes.ts";
import { atMost, compareRow, type Row } from "./report.ts";

const CHILD = fileURLToPath(new URL("./memory-child.js", import.meta.url));
const RUNS = 3;

/** Heap figures of one subject on one shape, in bytes. */
interface Heap {
  readonly peak: number;
  readonly retained: number;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** Runs the child `runs` times and answers the median of each figure. */
function measure(subject: MemorySubject, shape: MemoryShape, runs = RUNS): Heap {
  const peaks: number[] = [];
  const retained: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const output = execFileSync(process.execPath, ["--expose-gc", CHILD, subject, shape], {
      encoding: "utf8",
    });
    const figures = JSON.parse(output) as Heap;
    check(figures.peak > 0 && figures.retained > 0, `${subject} on ${shape} must hold memory`);
    peaks.push(figures.peak);
    retained.push(figures.retained);
  }
  return { peak: median(peaks), retained: median(retained) };
}

const MB = (bytes: number) => ({ value: bytes, unit: "bytes" as const });

/** The peak and retained rows comparing `ours` with `JSON.parse` on one shape. */
function rows(id: string, what: string, ours: Heap, parse: Heap, note?: string): Row[] {
  const base = { scenario: 6, target: atMost(3) };
  return [
    compareRow({
      ...base,
      id,
      title: `${what}: peak heap in use while reading, vs JSON.parse of the same text`,
      figures: [
        { label: "ours", ...MB(ours.peak) },
        { label: "JSON.parse", ...MB(parse.peak) },
      ],
      ratioLabel: "peak, ours / JSON.parse",
      ratio: ours.peak / parse.peak,
      ...(note === undefined ? {} : { note }),
    }),
    compareRow({
      ...base,
      id: `${id}'`,
      title: `${what}: heap retained by the result, vs JSON.parse of the same text`,
      figures: [
        { label: "ours", ...MB(ours.retained) },
        { label: "JSON.parse", ...MB(parse.retained) },
      ],
      ratioLabel: "retained, ours / JSON.parse",
      ratio: ours.retained / parse.retained,
    }),
  ];
}

/**
 * Measures rows 6m to 6p (each with a primed row for the retained heap):
 * 1,000,000 characters of nested empty arrays and of small records, read as
 * text by `readToolCalls("openai-chat")` and as a value already parsed by
 * `readToolCalls("anthropic")`; and a response of 16 such calls against
 * `JSON.parse` of all 16 texts. Target: at most 3x.
 *
 * @example
 * const memoryRows = argumentMemoryScenario();
 */
export function argumentMemoryScenario(): Row[] {
  for (const shape of ["nested-arrays", "records"] as const) {
    check(
      argumentText(shape).length === 1_000_000,
      `the ${shape} text must be 1,000,000 characters`,
    );
  }
  const result: Row[] = [];
  progress("  nested empty arrays");
  const nestedParse = measure("JSON.parse", "nested-arrays");
  result.push(
    ...rows(
      "6m",
      "1,000,000 characters of nested empty arrays, as text",
      measure("ours-text", "nested-arrays"),
      nestedParse,
    ),
    ...rows(
      "6n",
      "the same, as a value the SDK parsed (Anthropic)",
      measure("ours-value", "nested-arrays"),
      nestedParse,
      "The value path copies the SDK's value (the snapshot keeps shared parts shared, so it records each container it copies) after one walk that checks it; JSON.parse's figure is for building the same value from text.",
    ),
  );
  progress("  small records");
  const recordsParse = measure("JSON.parse", "records");
  result.push(
    ...rows(
      "6o",
      "1,000,000 characters of small records, as text",
      measure("ours-text", "records"),
      recordsParse,
    ),
  );
  progress("  a response of 16 calls");
  result.push(
    ...rows(
      "6p",
      "a response of 16 calls of 1,000,000 characters (nested arrays)",
      // One process each: 16 million characters take seconds, and the ratio is far from its bound.
      measure("ours-response", "nested-arrays", 1),
      measure("JSON.parse-response", "nested-arrays", 1),
      "readToolCalls reads the first four (maxResponseArgumentCharacters, 4,000,000 by default) and refuses the rest unread; JSON.parse reads all 16.",
    ),
  );
  return result;
}
