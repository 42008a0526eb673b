/**
 * One memory measurement, in a process of its own (started by
 * `scenario-argument-memory.ts` or `scenario-retained-memory.ts` with
 * `--expose-gc`): builds the argument text of a shape (or sets up a subject of
 * `retained-subjects.ts`), collects the garbage, runs one subject once while V8's GC
 * profiler records every collection, and prints its figures in bytes
 * on stdout. `peak` is the most heap in use at any moment of the run (before
 * each collection, and at its end) above what was in use before it;
 * `retained` is what stays in use, after a full collection, while the result
 * is still held; `held` is what a full collection frees once the result is
 * dropped (what the result alone keeps reachable). Printed as
 * `{ peak, retained, held }`.
 */

import { GCProfiler, type GCProfilerResult } from "node:v8";
import { readToolCalls } from "../src/providers/index.ts";
import { argumentText, type MemoryShape, type MemorySubject } from "./memory-shapes.ts";
import { isRetainedSubject, prepareRetained } from "./retained-subjects.ts";

/**
 * The most heap in use before any collection the profile recorded, or `atEnd`.
 * A function of its own, so that the profile (an entry per collection, each
 * with the statistics of every heap space) is garbage before the heap left in
 * use is read: held, it would be counted as retained, more for a run with
 * more collections.
 */
function highestOf(profile: GCProfilerResult | undefined, atEnd: number): number {
  let highest = atEnd;
  for (const event of profile?.statistics ?? []) {
    highest = Math.max(highest, event.beforeGC.heapStatistics.usedHeapSize);
  }
  return highest;
}

const [subject, shape] = process.argv.slice(2) as [MemorySubject | string, MemoryShape];
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error("the memory child needs --expose-gc");

const retainedRun = isRetainedSubject(subject) ? await prepareRetained(subject) : undefined;
const text = retainedRun === undefined ? argumentText(shape) : "";
const calls = subject === "ours-response" || subject === "JSON.parse-response" ? 16 : 1;
const texts = Array.from({ length: calls }, () => text);
const chatMessage = {
  role: "assistant",
  content: null,
  tool_calls: texts.map((one, index) => ({
    id: `call_${index}`,
    type: "function",
    function: { name: "work", arguments: one },
  })),
};
// What the Anthropic SDK hands over: input already parsed, before the measurement starts.
const anthropicMessage =
  subject === "ours-value"
    ? {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_1", name: "work", input: JSON.parse(text) }],
      }
    : undefined;

/** What the subject answers, held here so that dropping it is the measurement's own act. */
const box: { kept: unknown } = { kept: undefined };

/**
 * Runs the subject once and answers the most heap in use meanwhile, above
 * `before`. The heap left in use is read by the caller once this function has
 * returned: a running frame keeps what its registers last held reachable (the
 * subject's garbage among it), which a collection made inside it would count
 * as held (row 13' read 28% too high that way).
 */
async function measure(before: number): Promise<number> {
  const profiler = new GCProfiler();
  profiler.start();
  if (retainedRun !== undefined) box.kept = await retainedRun();
  switch (subject) {
    case "JSON.parse":
      box.kept = JSON.parse(text);
      break;
    case "JSON.parse-response":
      box.kept = texts.map((one) => JSON.parse(one));
      break;
    case "ours-text":
    case "ours-response":
      box.kept = readToolCalls("openai-chat", chatMessage);
      break;
    case "ours-value":
      box.kept = readToolCalls("anthropic", anthropicMessage);
      break;
  }
  const atEnd = process.memoryUsage().heapUsed;
  return highestOf(profiler.stop(), atEnd) - before;
}

/** Whether the subject answered something (asked in a frame of its own, which keeps nothing). */
const answered = (): boolean => box.kept !== undefined;

collect();
collect();
const before = process.memoryUsage().heapUsed;
const peak = await measure(before);
collect();
collect();
const holding = process.memoryUsage().heapUsed;
// The result was held throughout; now it is dropped, and what goes with it is what it held.
if (!answered()) throw new Error("the subject produced nothing");
box.kept = undefined;
collect();
collect();
const held = holding - process.memoryUsage().heapUsed;
process.stdout.write(`${JSON.stringify({ peak, retained: holding - before, held })}\n`);
