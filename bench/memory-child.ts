/**
 * One memory measurement, in a process of its own (started by
 * `scenario-argument-memory.ts` with `--expose-gc`): builds the argument text
 * of a shape, collects the garbage, runs one subject once while V8's GC
 * profiler records every collection, and prints `{ peak, retained }` in bytes
 * on stdout. `peak` is the most heap in use at any moment of the run (before
 * each collection, and at its end) above what was in use before it;
 * `retained` is what stays in use, after a full collection, while the result
 * is still held.
 */

import { GCProfiler } from "node:v8";
import { readToolCalls } from "../src/providers/index.ts";
import { argumentText, type MemoryShape, type MemorySubject } from "./memory-shapes.ts";

const [subject, shape] = process.argv.slice(2) as [MemorySubject, MemoryShape];
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error("the memory child needs --expose-gc");

const text = argumentText(shape);
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

collect();
collect();
const before = process.memoryUsage().heapUsed;
const profiler = new GCProfiler();
profiler.start();
let kept: unknown;
switch (subject) {
  case "JSON.parse":
    kept = JSON.parse(text);
    break;
  case "JSON.parse-response":
    kept = texts.map((one) => JSON.parse(one));
    break;
  case "ours-text":
  case "ours-response":
    kept = readToolCalls("openai-chat", chatMessage);
    break;
  case "ours-value":
    kept = readToolCalls("anthropic", anthropicMessage);
    break;
}
const atEnd = process.memoryUsage().heapUsed;
const profile = profiler.stop();
let peak = atEnd;
for (const event of profile?.statistics ?? []) {
  peak = Math.max(peak, event.beforeGC.heapStatistics.usedHeapSize);
}
collect();
collect();
const retained = process.memoryUsage().heapUsed - before;
// The result is used after the measurement, so it was held throughout.
if (kept === undefined) throw new Error("the subject produced nothing");
process.stdout.write(`${JSON.stringify({ peak: peak - before, retained })}\n`);
