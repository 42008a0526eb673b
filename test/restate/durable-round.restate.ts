/**
 * Durable rounds against a real restate-server, with no crash: results,
 * events and order as `executeToolCalls` gives them, one journal entry per
 * call that ran (its bounded result, not the raw output), none for a call
 * validation decided, a journaled approval, and recoverable errors journaled
 * rather than retried.
 */

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RoundBudget } from "../../src/rounds/index.ts";
import { journaledValue, type Suite, startSuite, toolCall } from "./support/suite.ts";

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite();
});
afterAll(async () => {
  await suite?.stop();
});

const attemptsOf = (invocationId: string, callId: string) =>
  suite.lines("attempts.log").filter((key) => key === `${invocationId}/${callId}`).length;

describe("a round without crashes", () => {
  test("results and events come in call order with concurrency 2, each call one journaled step", async () => {
    const calls = [
      toolCall("a", "effect", { after: 150, value: "A" }),
      toolCall("b", "effect", { after: 10, value: "B" }),
      toolCall("c", "picky", {}),
      toolCall("d", "failing"),
    ];
    const id = await suite.sendRound({ calls, concurrency: 2 });
    const outcome = await suite.attach(id);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const { results, events } = outcome.value;
    expect(results.map((result) => result.toolCallId)).toEqual(["a", "b", "c", "d"]);
    expect(results[0]).toEqual({
      id: "tool-result-a",
      role: "toolResult",
      toolCallId: "a",
      toolName: "effect",
      content: JSON.stringify({ done: "A", key: `${id}/a` }),
      isError: false,
    });
    expect(JSON.parse(results[2]?.content ?? "")).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "value must be a string" },
    });
    expect(JSON.parse(results[3]?.content ?? "")).toEqual({
      error: { code: "TOOL_EXECUTION_FAILED", message: "the upstream API answered 503" },
    });
    // b finishes first and frees its slot for c (decided by validation at once), then d;
    // every result is reported in call order, once a has finished.
    expect(events).toEqual([
      "tool.started a",
      "tool.started b",
      "tool.started c",
      "tool.started d",
      "tool.finished a",
      "tool.finished b",
      "tool.finished c",
      "tool.finished d",
    ]);
    const steps = await suite.steps(id);
    // Validation decided c: no step. The failing Tool's result is journaled once, not retried.
    expect(steps.map((step) => step.name)).toEqual(["toolCall:a", "toolCall:b", "toolCall:d"]);
    for (const step of steps) expect(step.completions).toHaveLength(1);
    expect(steps.map((step) => journaledValue(step.completions[0]))).toEqual([
      results[0],
      results[1],
      results[3],
    ]);
    expect(attemptsOf(id, "d")).toBe(1);
    expect(attemptsOf(id, "c")).toBe(0);
  });

  test("the approval gate runs in a journaled step before the call's own; a refused call never runs", async () => {
    const calls = [
      toolCall("yes", "effect", { value: 1 }),
      toolCall("no", "effect", { value: 2, allow: false }),
    ];
    const id = await suite.sendRound({ calls, gate: true });
    const outcome = await suite.attach(id);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.value.results.map((result) => result.isError)).toEqual([false, true]);
    expect(JSON.parse(outcome.value.results[1]?.content ?? "")).toEqual({
      error: {
        code: "TOOL_APPROVAL_DENIED",
        message: "The host did not approve this Tool call; it did not run",
      },
    });
    const steps = await suite.steps(id);
    expect(steps.map((step) => [step.name, journaledValue(step.completions[0])])).toEqual([
      ["toolApproval:yes", { answer: true }],
      ["toolCall:yes", outcome.value.results[0]],
      ["toolApproval:no", { answer: false }],
    ]);
    expect(attemptsOf(id, "no")).toBe(0);
  });

  test("the journal holds each call's whole result; maxRoundCharacters cuts them on the way out, as executeToolCalls does", async () => {
    const calls = ["x", "y", "z"].map((id) => toolCall(id, "effect", { value: id.repeat(30) }));
    const id = await suite.sendRound({ calls, maxRoundCharacters: 150 });
    const outcome = await suite.attach(id);
    if (!outcome.ok) throw new Error(outcome.message);
    const journaled = (await suite.steps(id)).map((step) => journaledValue(step.completions[0]));
    expect(journaled).toHaveLength(3);
    const budget = new RoundBudget(150);
    const expected = journaled.map((entry) => budget.take(entry as never));
    expect(outcome.value.results).toEqual(expected);
    // The budget did cut: the second result ends with the marker, the third is empty.
    expect(outcome.value.results.map((result) => result.content.length)).not.toEqual(
      journaled.map((entry) => (entry as { content: string }).content.length),
    );
    expect(outcome.value.results[2]?.content).toBe("");
  });

  test("a result's image comes back with its parts, from the journal as from executeToolCall", async () => {
    const id = await suite.sendRound({ calls: [toolCall("shot", "screenshot", {})] });
    const outcome = await suite.attach(id);
    if (!outcome.ok) throw new Error(outcome.message);
    const [result] = outcome.value.results;
    expect(result?.isError).toBe(false);
    expect(result?.parts).toEqual([
      { type: "text", text: "The screen:" },
      { type: "image", data: expect.stringMatching(/^iVBORw0KGgo/), mimeType: "image/png" },
    ]);
    const [step] = await suite.steps(id);
    expect((journaledValue(step?.completions[0]) as { parts?: unknown[] }).parts).toHaveLength(2);
  });

  test("a result over the journal's limit keeps what fits: the Tool runs once, the rest is left out with a line", async () => {
    const id = await suite.sendRound({
      calls: [toolCall("big", "shots", { count: 2, bytes: 600_000 })],
      maxJournalBytes: 1_048_576,
    });
    const outcome = await suite.attach(id);
    if (!outcome.ok) throw new Error(outcome.message);
    const [result] = outcome.value.results;
    expect(result?.isError).toBe(false);
    const lines = result?.content.split("\n") ?? [];
    expect(lines.slice(0, 2)).toEqual(["The screens:", "[image: image/png, 600000 bytes]"]);
    expect(lines[2]).toMatch(/^\[image omitted: 600000 bytes, over the \d+-byte total limit\]$/);
    expect(result?.parts?.map((part) => part.type)).toEqual(["text", "image", "text"]);
    // Journaled once, as it was delivered; the Tool ran once.
    const [step] = await suite.steps(id);
    expect(step?.completions).toHaveLength(1);
    expect(JSON.stringify(journaledValue(step?.completions[0])).length).toBeLessThan(1_048_576);
    expect(attemptsOf(id, "big")).toBe(1);
  });

  test("an output that cannot fit the journal is TOOL_OUTPUT_SERIALIZATION_FAILED, journaled; the Tool runs once", async () => {
    const id = await suite.sendRound({
      calls: [toolCall("esc", "controls", { count: 200_000 })],
      maxJournalBytes: 1_048_576,
    });
    const outcome = await suite.attach(id);
    if (!outcome.ok) throw new Error(outcome.message);
    const [result] = outcome.value.results;
    expect(result?.isError).toBe(true);
    expect(JSON.parse(result?.content ?? "{}").error.code).toBe("TOOL_OUTPUT_SERIALIZATION_FAILED");
    const [step] = await suite.steps(id);
    expect(step?.completions).toHaveLength(1);
    expect(attemptsOf(id, "esc")).toBe(1);
  });

  test("a call whose id alone cannot fit the journal ends the round before any Tool runs", async () => {
    const longId = "x".repeat(100_000);
    const id = await suite.sendRound({
      calls: [
        toolCall("first", "effect", { value: "A" }),
        toolCall(longId, "effect", { value: "B" }),
      ],
      maxJournalBytes: 1_048_576,
    });
    const outcome = await suite.attach(id);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.message).toContain("no result of this call could be journaled");
    expect(attemptsOf(id, "first") + attemptsOf(id, longId)).toBe(0);
    expect(await suite.steps(id)).toEqual([]);
  });

  test("misuse is refused before any step: duplicate and reused ids, bad options, a look-alike registry, a fatal validator", async () => {
    const response = await fetch(`${suite.restate.ingressUrl}/durable/misuse`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "null",
    });
    expect(response.status).toBe(200);
    const refusals = await response.json();
    const contract = (message: string) => ({
      name: "ToolContractError",
      code: "INVALID_TOOL_CALL",
      message,
      nonRecoverable: false,
    });
    expect(refusals).toEqual({
      duplicateInRound: contract('Duplicate Tool call id "twin" at calls[0] and calls[1]'),
      first: "resolved",
      reused: contract(
        'Tool call id "first" was already used by a durable call of this invocation; its idempotency key would repeat',
      ),
      badOption: contract("concurrency must be a positive integer or Infinity"),
      notARegistry: contract("durableToolCall needs a ToolRegistry"),
      fatalValidator: {
        name: "TerminalError",
        code: 500,
        message: "poisoned arguments reached the validator",
        nonRecoverable: true,
      },
    });
    // Only the one valid call left a step in the journal, and only it ran.
    const invocation = (
      await suite.restate.query<{ id: string }>(
        "SELECT id FROM sys_invocation WHERE target_handler_name = 'misuse'",
      )
    )[0]?.id as string;
    const steps = await suite.steps(invocation);
    expect(steps.map((step) => step.name)).toEqual(["toolCall:first"]);
    expect(attemptsOf(invocation, "first")).toBe(1);
    expect(attemptsOf(invocation, "poison")).toBe(0);
  });
});
