/**
 * `npm run bench:frameworks -- --turn-sizes` (information, no target): how
 * OpenAI Agents' runner scales with the calls of one turn. One whole
 * `Runner.run` whose first turn asks for 10, 100, 250, 500 and 1,000 echo
 * calls, timed once per size (each run of the larger sizes takes seconds),
 * for the SDK's own function tool and for ours through the adapter. The
 * runner's cost per call grows with the turn's size, whatever the tool;
 * ours adds a constant per call (row 8').
 */

import type { EchoInput } from "../echo-tool.ts";
import { check, progress } from "../harness.ts";
import { agentsRun, nativeEchoTools, ourEchoTools } from "./agents-loop.ts";

/** The turn sizes timed, smallest first. */
export const TURN_SIZES = [10, 100, 250, 500, 1_000] as const;

const echo = ({ text, slot }: EchoInput) => ({ echo: text, slot });

/** Times one run of `count` calls after one untimed run of the same size; answers milliseconds. */
async function timeRun(run: () => Promise<unknown[]>, count: number, label: string) {
  check((await run()).length === count, `${label}: ${count} results`);
  const started = performance.now();
  const results = await run();
  const ms = performance.now() - started;
  check(results.length === count, `${label}: ${count} results`);
  return ms;
}

/**
 * Runs every turn size on both sides and answers the table (markdown) the
 * command prints.
 *
 * @example
 * process.stdout.write(await turnSizesTable());
 */
export async function turnSizesTable(): Promise<string> {
  const native = nativeEchoTools(echo);
  const ours = await ourEchoTools(echo);
  const lines = [
    "| calls in the turn | native run | native per call | ours run | ours per call |",
    "| ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const count of TURN_SIZES) {
    progress(`turn sizes: ${count} calls`);
    const nativeMs = await timeRun(agentsRun(native, count), count, `native, ${count} calls`);
    const oursMs = await timeRun(agentsRun(ours, count), count, `ours, ${count} calls`);
    const perCall = (ms: number) => `${((ms * 1000) / count).toFixed(0)} µs`;
    lines.push(
      `| ${count} | ${nativeMs.toFixed(0)} ms | ${perCall(nativeMs)} | ${oursMs.toFixed(0)} ms | ${perCall(oursMs)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
