/**
 * The documentation's OpenAI Agents example, compiled by `tsc` against
 * `@openai/agents` 0.20.0 and run as written: `new OpenAI()` talks to a
 * stand-in `fetch` that answers the Responses API, so the test reads the very
 * requests the model would receive. The block that mirrors this file must
 * show exactly the marked lines.
 */

// The example's imports first, as the documentation shows them (import sorting is off for this file).
// doc:begin
import { Agent, OpenAIResponsesModel, run } from "@openai/agents";
import OpenAI from "openai";
import { ToolRegistry } from "toolbound";
import { repairOpenAIAgentsModel, toOpenAIAgentsTools } from "toolbound/openai-agents";
// doc:end
import { setTracingDisabled } from "@openai/agents";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { ToolDefinition } from "../../course/src/index.ts";
import { mirroredExample, readmeTools } from "../setup/doc-example.ts";

async function example(echo: ToolDefinition, add: ToolDefinition) {
  // doc:begin
  const registry = new ToolRegistry([echo, add]);
  const tools = await toOpenAIAgentsTools(registry, { timeoutMs: 5_000 });
  const agent = new Agent({
    name: "Assistant",
    instructions: "Use the tools.",
    model: repairOpenAIAgentsModel(new OpenAIResponsesModel(new OpenAI(), "gpt-5"), tools),
    tools,
  });
  const result = await run(agent, "Add 20 and 22.");
  // doc:end
  return result;
}

const usage = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

/** A Responses API answer with `output`. */
const response = (id: string, output: unknown[]) => ({
  id,
  object: "response",
  created_at: 0,
  status: "completed",
  model: "gpt-5",
  output,
  usage,
});

const functionCall = (callId: string, name: string, args: string) => ({
  type: "function_call",
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: args,
  status: "completed",
});

const closing = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "done", annotations: [] }],
};

/** The request bodies the stand-in received, and its answers in order. */
function answerWith(answers: unknown[]) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    expect(String(url)).toMatch(/\/responses$/);
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const answer = answers[bodies.length - 1];
    if (answer === undefined) throw new Error("the model was asked more often than scripted");
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetch);
  return bodies;
}

describe("the documentation's OpenAI Agents example", () => {
  beforeEach(() => {
    setTracingDisabled(true);
    vi.stubEnv("OPENAI_API_KEY", "test-key");
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  test("is the documentation's text, line for line", () => {
    const { shown, marked } = mirroredExample(new URL(import.meta.url));
    expect(shown).toBe(marked);
  });

  test("runs: the model reads 42 for add, and our reason for a broken call, never its text", async () => {
    const { echo, add, sum } = readmeTools();
    const broken = `{"left":"${"x".repeat(10_000)}`;
    const bodies = answerWith([
      response("resp_1", [
        functionCall("call-1", "add", '{"left":20,"right":22}'),
        functionCall("call-2", "add", broken),
      ]),
      response("resp_2", [closing]),
    ]);
    const result = await example(echo, add);
    expect(result.finalOutput).toBe("done");
    expect(sum).toHaveBeenCalledTimes(1);
    expect(bodies).toHaveLength(2);
    const input = (bodies[1]?.input ?? []) as {
      type?: string;
      call_id?: string;
      output?: unknown;
    }[];
    const outputs = input
      .filter((item) => item.type === "function_call_output")
      .map((item) => [item.call_id, item.output]);
    expect(outputs).toEqual([
      ["call-1", '{"sum":42}'],
      [
        "call-2",
        JSON.stringify({
          error: {
            code: "TOOL_ARGUMENTS_INVALID",
            message: "arguments are not valid JSON at position 10009: unexpected end of input",
          },
        }),
      ],
    ]);
    // The second request holds neither the broken text nor anything near its size.
    expect(JSON.stringify(bodies[1]).length).toBeLessThan(5_000);
  });
});
