/**
 * The process `npm run bench:instructions` runs under callgrind: row 1's echo
 * call, made `count` times one after another through one path (`bare`,
 * `executeToolCall` or `prepare+run`).
 */

import {
  defineTool,
  executeToolCall,
  prepareToolCall,
  runPreparedToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { createBarePath, echoCall, echoDefinition } from "../echo-tool.ts";
import { type CallPath, PATHS } from "./paths.ts";

const [path, countText] = process.argv.slice(2);
const count = Number(countText);
if (!PATHS.includes(path as CallPath) || !Number.isSafeInteger(count) || count < 1) {
  throw new Error(`usage: child.js <${PATHS.join("|")}> <calls>`);
}

const registry = new ToolRegistry([defineTool(echoDefinition)]);
const bare = createBarePath([echoDefinition]);
const signal = new AbortController().signal;
const call = echoCall(1);
const once =
  path === "bare"
    ? () => bare(call, signal)
    : path === "executeToolCall"
      ? () => executeToolCall(registry, call, signal)
      : () => runPreparedToolCall(prepareToolCall(registry, call, signal));

const first = await once();
if (first.content !== '{"echo":"hello 1","slot":1}') {
  throw new Error(`the ${path} path answered ${JSON.stringify(first.content)}`);
}
for (let index = 1; index < count; index += 1) await once();
