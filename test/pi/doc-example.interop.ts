/**
 * The documentation's `toPiTools` example, compiled by `tsc` against Pi agent
 * core 0.85.0 and run in Pi's own `Agent` with a scripted stream function;
 * the block that mirrors this file must show exactly the marked lines.
 */

// The example's imports first, as the documentation shows them (import sorting is off for this file).
// doc:begin
import { Agent } from "@earendil-works/pi-agent-core";
import { ToolRegistry } from "toolbound";
import { toPiTools } from "toolbound/pi";
// doc:end
import type { StreamFn } from "@earendil-works/pi-agent-core";
import type { Model } from "@earendil-works/pi-ai";
import { describe, expect, test } from "vitest";
import type { ToolDefinition } from "../../course/src/index.ts";
import { mirroredExample, readmeTools } from "../setup/doc-example.ts";
import {
  assistant,
  scriptedModel,
  scriptedStream,
  textOf,
  toolCall,
  toolResults,
} from "./support/scripted-model.ts";

function example(
  streamFn: StreamFn,
  model: Model<"scripted">,
  echo: ToolDefinition,
  add: ToolDefinition,
) {
  // doc:begin
  const registry = new ToolRegistry([echo, add]);
  const agent = new Agent({
    streamFn,
    initialState: { model, tools: toPiTools(registry, { timeoutMs: 5_000 }) },
  });
  // doc:end
  return agent;
}

describe("the documentation's toPiTools example", () => {
  test("is the documentation's text, line for line", () => {
    const { shown, marked } = mirroredExample(new URL(import.meta.url));
    expect(shown).toBe(marked);
  });

  test("runs: Pi's loop calls add through our boundary and the model reads 42", async () => {
    const { echo, add, sum } = readmeTools();
    const { streamFn, requests } = scriptedStream([
      assistant([toolCall("call-1", "add", { left: 20, right: 22 })]),
    ]);
    const agent = example(streamFn, scriptedModel, echo, add);
    await agent.prompt("Add 20 and 22.");
    expect(sum).toHaveBeenCalledTimes(1);
    const results = toolResults(agent.state.messages);
    expect(results.map(textOf)).toEqual(['{"sum":42}']);
    expect(requests).toHaveLength(2);
  });
});
