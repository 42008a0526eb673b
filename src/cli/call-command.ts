/**
 * `toolbound call <tools-module> [call-json]`: one call from the command line,
 * or JSON Lines of calls from standard input, each result printed as one JSON
 * line. Ctrl-C cancels the call in flight through the boundary.
 */

import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import {
  type CourseToolCall,
  executeToolCall,
  NonRecoverableToolError,
  type ToolCallOptions,
  ToolContractError,
  type ToolRegistry,
} from "../../course/src/index.ts";
import { snapshotWithFormat } from "../../course/src/internal.ts";
import { parseCall } from "./call-input.ts";
import { CliError, oneLine } from "./cli-error.ts";
import { type Interrupts, watchInterrupts } from "./interrupts.ts";
import { signalExitCode } from "./process-exit.ts";

/** Writes one line to standard output, waiting when the pipe is full. */
function printLine(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(`${text}\n`)) resolve();
    else process.stdout.once("drain", resolve);
  });
}

function label(call: CourseToolCall): string {
  const id = typeof call.id === "string" ? ` ${JSON.stringify(call.id)}` : "";
  const name = typeof call.name === "string" ? ` (${call.name})` : "";
  return `call${id}${name}`;
}

/** What every call of one run shares: the registry, its options and the interrupt watch. */
interface CallRun {
  readonly registry: ToolRegistry;
  readonly callOptions: ToolCallOptions | undefined;
  readonly interrupts: Interrupts;
}

/** Runs one parsed call and prints its result line; every way it can fail becomes a CliError. */
async function runOne(run: CallRun, call: CourseToolCall, where: string): Promise<void> {
  const { registry, callOptions, interrupts } = run;
  // A Tool whose promise can never settle (nothing left to wait for) would end the process silently.
  const onStuck = (): void => {
    process.stderr.write(
      `toolbound: ${label(call)} never settled: the Tool's promise is pending with nothing left to wait for\n`,
    );
    process.exit(1);
  };
  process.once("beforeExit", onStuck);
  let result: Awaited<ReturnType<typeof executeToolCall>>;
  try {
    result = await executeToolCall(registry, call, interrupts.signal, callOptions);
  } catch (thrown) {
    const received = interrupts.received();
    if (received !== undefined) {
      throw new CliError(
        `cancelled ${label(call)}: interrupted by ${received}; no result was produced`,
        signalExitCode(received),
      );
    }
    if (thrown instanceof ToolContractError) {
      throw new CliError(`${where}: invalid Tool call: ${oneLine(thrown)}`);
    }
    const kind = thrown instanceof NonRecoverableToolError ? "a non-recoverable error" : "an error";
    throw new CliError(`${where}: ${label(call)} stopped with ${kind}: ${oneLine(thrown)}`);
  } finally {
    process.off("beforeExit", onStuck);
  }
  await printLine(JSON.stringify(result));
}

/** Reads JSON Lines from `input` and runs each call in order; blank lines are skipped. */
async function runLines(run: CallRun, input: Readable): Promise<void> {
  const { interrupts } = run;
  if ((input as { isTTY?: boolean }).isTTY === true) {
    process.stderr.write(
      "toolbound: reading Tool calls from the terminal, one JSON object per line (Ctrl-D to finish)\n",
    );
  }
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false });
  // An interrupt while waiting for input ends the loop below.
  const stop = (): void => lines.close();
  interrupts.signal.addEventListener("abort", stop, { once: true });
  try {
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === "") continue;
      const where = `line ${lineNumber}`;
      await runOne(run, parseCall(line, where, `call-${lineNumber}`), where);
    }
  } finally {
    interrupts.signal.removeEventListener("abort", stop);
    lines.close();
  }
  const received = interrupts.received();
  if (received !== undefined) {
    throw new CliError(`interrupted by ${received}`, signalExitCode(received));
  }
}

/**
 * Runs `toolbound call`: with `callJson`, that one call (its id defaults to
 * "call-1"); without it, one call per line of `input` (ids default to
 * `call-<line number>`). Prints each linked result message as one JSON line,
 * including `isError: true` results, which are data for the model rather than
 * failures of the command. The output format defaults to `"text"` (a string
 * result's content is its own text) unless the tools module (its registry
 * options or a Tool's definition) sets one; a Tool's `toolContent` adds the
 * message's `parts` (base64 data) to its line. Throws CliError (the command
 * stops there) for invalid JSON or a malformed call, a NonRecoverableToolError,
 * and an interrupt (exit code 130 for SIGINT). `callOptions` (default none)
 * are passed to every `executeToolCall`: the command line's output flags
 * (`--format json` among them).
 *
 * @example
 * await runCallCommand(registry, '{"name":"add","arguments":{"left":1,"right":2}}');
 * // prints {"id":"tool-result-call-1","role":"toolResult","toolCallId":"call-1","toolName":"add","content":"{\"sum\":3}","isError":false}
 * await runCallCommand(registry, undefined, process.stdin, { outputBudget: { maxCharacters: 50_000 } });
 */
export async function runCallCommand(
  registry: ToolRegistry,
  callJson: string | undefined,
  input: Readable = process.stdin,
  callOptions?: ToolCallOptions,
): Promise<void> {
  const interrupts = watchInterrupts();
  // The command shows results to a person or a script as text, unless the module says otherwise.
  const run: CallRun = { registry: snapshotWithFormat(registry, "text"), callOptions, interrupts };
  try {
    if (callJson === undefined) {
      await runLines(run, input);
    } else {
      const where = "call argument";
      await runOne(run, parseCall(callJson, where, "call-1"), where);
    }
  } finally {
    interrupts.dispose();
  }
}
