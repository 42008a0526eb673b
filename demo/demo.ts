/**
 * `npm start`: a scripted sequence of Tool calls goes through a ToolRegistry
 * and executeToolCall, and each call is printed beside its linked result.
 */

import {
  type CourseJsonObject,
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  ToolRegistry,
} from "../course/src/index.ts";
import tools, { add } from "../examples/tools.ts";
import { executeToolCalls } from "../src/rounds/index.ts";

const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
const paint = (code: number, text: string): string =>
  color ? `\u001b[${code}m${text}\u001b[0m` : text;
const dim = (text: string): string => paint(2, text);
const bold = (text: string): string => paint(1, text);

/** One line for the terminal: long text keeps its head and its tail (where a marker would be). */
function shorten(text: string, limit = 160): string {
  const oneLine = text.replace(/\n/g, "\\n");
  if (oneLine.length <= limit) return oneLine;
  const omitted = dim(` … (${[...text].length} code points in all) … `);
  return `${oneLine.slice(0, limit - 40)}${omitted}${oneLine.slice(-40)}`;
}

function printCall(call: CourseToolCall): void {
  console.log(
    `  ${bold("call")}    ${call.id}  ${call.name} ${shorten(JSON.stringify(call.arguments))}`,
  );
}

function printResult(result: CourseToolResultMessage): void {
  const mark = result.isError ? paint(33, "isError") : paint(32, "ok     ");
  console.log(`  ${bold("result")}  ${result.id}  ${mark}  ${shorten(result.content)}`);
}

let sequence = 0;
function call(name: string, args: CourseJsonObject): CourseToolCall {
  sequence += 1;
  return {
    type: "toolCall",
    id: `call-${name}-${String(sequence).padStart(3, "0")}`,
    name,
    arguments: args,
  };
}

async function step(
  title: string,
  registry: ToolRegistry,
  toolCall: CourseToolCall,
  signal: AbortSignal,
): Promise<void> {
  console.log(`\n${bold(title)}`);
  printCall(toolCall);
  try {
    printResult(await executeToolCall(registry, toolCall, signal));
  } catch (reason) {
    const name = reason instanceof Error || reason instanceof DOMException ? reason.name : "value";
    const message =
      reason instanceof Error || reason instanceof DOMException ? reason.message : String(reason);
    console.log(
      `  ${bold("rejected")} ${paint(31, `${name}: ${message}`)} ${dim("(no result is appended)")}`,
    );
  }
}

async function main(): Promise<void> {
  // The failure experiment's spy: it counts executions of a Tool whose validator rejects.
  let spyExecutions = 0;
  let spyAccepts = false;
  const spy = defineTool({
    name: "add_spy",
    description: "Add numbers (counts its executions).",
    // Exactly the checkpoint's experiment: reject, then accept a fixed valid value.
    validate: () =>
      spyAccepts
        ? { ok: true, value: { left: 20, right: 22 } }
        : { ok: false, error: "left must be a number" },
    execute: async (input, context) => {
      spyExecutions += 1;
      return add.execute(input as { left: number; right: number }, context);
    },
  });
  const registry = new ToolRegistry([...tools, spy]);
  const run = new AbortController();

  console.log(bold("toolbound demo: untrusted Tool calls through the boundary"));
  console.log(dim(`registered Tools: ${registry.names.join(", ")}`));

  await step(
    "1. A valid call succeeds",
    registry,
    call("add", { left: 20, right: 22 }),
    run.signal,
  );

  await step(
    "2. Failure experiment: invalid arguments never reach the Tool",
    registry,
    call("add_spy", { left: "twenty", right: 22 }),
    run.signal,
  );
  console.log(`  ${dim(`executions of add_spy so far: ${spyExecutions}`)}`);
  spyAccepts = true;
  await step(
    "   ...then the same call again, its validator now answering { left: 20, right: 22 }",
    registry,
    call("add_spy", { left: "twenty", right: 22 }),
    run.signal,
  );
  console.log(`  ${dim(`executions of add_spy so far: ${spyExecutions}`)}`);

  await step(
    "3. An unknown Tool is a result, not a crash",
    registry,
    call("delete_everything", {}),
    run.signal,
  );
  await step(
    "4. A throwing Tool becomes a recoverable error result",
    registry,
    call("read_file", { path: "notes/missing.txt" }),
    run.signal,
  );
  await step(
    "5. Oversized output is truncated to 4096 code points with one marker",
    registry,
    call("repeat", { text: "all work and no play ", times: 2_000_000 }),
    run.signal,
  );
  await step(
    "6. A Date output is refused, not stringified",
    registry,
    call("today", {}),
    run.signal,
  );

  const cancel = new AbortController();
  setTimeout(() => cancel.abort(new Error("the user pressed stop")), 50);
  await step(
    "7. A call cancelled mid-execution rejects; no result is invented",
    registry,
    call("sleep", { ms: 10_000 }),
    cancel.signal,
  );

  await round(registry, run.signal);
  console.log("");
}

/** A model turn asking for four calls at once: run in parallel, with a deadline and approval. */
async function round(registry: ToolRegistry, signal: AbortSignal): Promise<void> {
  console.log(
    `\n${bold("8. A round of parallel calls with a 200 ms deadline and an approval gate")}`,
  );
  const calls = [
    call("add", { left: 1, right: 2 }),
    call("sleep", { ms: 60_000 }),
    call("read_file", { path: "notes/secrets.txt" }),
    call("repeat", { text: "ok ", times: 3 }),
  ];
  for (const each of calls) printCall(each);
  const started = Date.now();
  const results = await executeToolCalls(registry, calls, signal, {
    concurrency: Number.POSITIVE_INFINITY,
    timeoutMs: 200,
    // The host's policy: no file reads in this run.
    approve: (toolCall) => toolCall.name !== "read_file",
    onEvent: (event) => {
      const at = `${String(Date.now() - started).padStart(4)} ms`;
      console.log(`  ${dim(`${at}  ${event.type.padEnd(13)} ${event.call.id}`)}`);
    },
  });
  for (const result of results) printResult(result);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
