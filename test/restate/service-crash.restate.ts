/**
 * kill -9 of the service process at the points that matter, against a real
 * restate-server: inside `execute` after the effect, after the step was
 * journaled but before the handler returned, and while a deadline passes.
 * Also: a non-recoverable error is not retried, and cancelling the invocation
 * aborts the Tool's signal.
 */

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  journaledValue,
  type Suite,
  sleep,
  startSuite,
  toolCall,
  waitFor,
} from "./support/suite.ts";

let suite: Suite;
beforeAll(async () => {
  suite = await startSuite();
});
afterAll(async () => {
  await suite?.stop();
});

const keyOf = (invocationId: string, callId: string) => `${invocationId}/${callId}`;
const attempts = (key: string) => suite.lines("attempts.log").filter((line) => line === key);
const errorOf = (content: string | undefined) =>
  (JSON.parse(content ?? "") as { error: { code: string; message: string } }).error;

describe("kill -9 of the service", () => {
  test("inside execute, after its effect: the caller gets one result, the journal one entry, the key one effect", async () => {
    // A caller waiting on the ingress for the whole crash.
    const caller = fetch(`${suite.restate.ingressUrl}/durable/round`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "crash-inside-execute" },
      body: JSON.stringify({ calls: [toolCall("pay", "effect", { after: 60_000, value: 42 })] }),
    });
    await waitFor(() => suite.effects().length > 0, "the first attempt's effect");
    const key = suite.effects()[0] as string;
    const invocationId = key.slice(0, key.indexOf("/"));
    expect(key).toBe(keyOf(invocationId, "pay"));
    expect(attempts(key)).toHaveLength(1);

    await suite.killService();
    // The engine retries: the Tool runs again with the same key and finds its effect done.
    await suite.startService();
    const response = await caller;
    expect(response.status).toBe(200);
    const reply = (await response.json()) as { results: { content: string }[] };
    expect(reply.results).toHaveLength(1);
    expect(attempts(key)).toHaveLength(2);
    expect(suite.effects()).toEqual([key]);
    const steps = await suite.steps(invocationId);
    expect(steps.map((step) => [step.name, step.completions.length])).toEqual([
      ["toolCall:pay", 1],
    ]);
    expect(journaledValue(steps[0]?.completions[0])).toMatchObject({
      toolCallId: "pay",
      content: JSON.stringify({ done: 42, key }),
    });
  });

  test("after the step was journaled, before the handler returned: the Tool is not run again", async () => {
    const id = await suite.sendRound({
      calls: [toolCall("once", "effect", { value: "x" })],
      holdMs: 60_000,
    });
    // The handler records the round's end, then holds in a durable sleep.
    await waitFor(() => suite.lines("rounds.log").some((line) => line.startsWith(id)), "the round");
    const steps = await suite.steps(id);
    expect(steps.map((step) => [step.name, step.completions.length])).toEqual([
      ["toolCall:once", 1],
    ]);
    await suite.killService();
    await suite.startService();
    // The invocation is replayed (its round again, from the journal); the Tool is not.
    await waitFor(
      () => suite.lines("rounds.log").filter((line) => line.startsWith(id)).length === 2,
      "the replayed round",
    );
    await suite.cancel(id);
    const outcome = await suite.attach(id);
    expect(outcome).toMatchObject({ ok: false, status: 409 });
    expect(attempts(keyOf(id, "once"))).toHaveLength(1);
    expect(suite.effects()).toContain(keyOf(id, "once"));
  });

  test("a deadline that passes while the service is down gives the timeout result, and the Tool does not run again", async () => {
    const id = await suite.sendSingle({ call: toolCall("slow", "hang"), timeoutMs: 1_500 });
    const key = keyOf(id, "slow");
    await waitFor(() => attempts(key).length === 1, "the Tool to start");
    await suite.killService();
    await sleep(2_500);
    await suite.startService();
    const outcome = await suite.attach<{ content: string; isError: boolean }>(id);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.value.isError).toBe(true);
    expect(errorOf(outcome.value.content)).toEqual({
      code: "TOOL_TIMEOUT",
      message:
        'Tool "hang" did not finish within 1500 ms and was asked to stop; it may still be running, and its effects are unknown',
    });
    expect(attempts(key)).toHaveLength(1);
    // Its step never completed: the journaled timer decided the call.
    const steps = await suite.steps(id);
    expect(steps.map((step) => [step.name, step.completions.length])).toEqual([
      ["toolCall:slow", 0],
    ]);
  });
});

describe("kill -9 of the service with approvals and concurrency", () => {
  test("the replay issues the journal's commands in the same order, and no call's gate is asked twice", async () => {
    const timings: Record<string, number> = {
      c1: 60_000,
      c2: 200,
      c3: 100,
      c4: 50,
      c5: 80,
      c6: 30,
    };
    const ids = Object.keys(timings);
    const id = await suite.sendRound({
      calls: ids.map((call) =>
        toolCall(call, "effect", { after: timings[call] ?? 0, value: call }),
      ),
      concurrency: 3,
      gate: true,
    });
    // Every call but c1 done (and journaled); c1 still inside execute.
    await waitFor(
      () => suite.effects().filter((key) => key.startsWith(id)).length === 6,
      "6 effects",
    );
    await waitFor(async () => {
      const steps = await suite.steps(id);
      return steps.filter((step) => step.completions.length === 1).length === 11;
    }, "every approval and five steps journaled");
    await suite.killService();
    await suite.startService();
    const outcome = await suite.attach(id);
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.value.results.map((result) => JSON.parse(result.content).done)).toEqual(ids);
    const approvals = suite.lines("approvals.log").filter((line) => ids.includes(line));
    expect(approvals.sort()).toEqual([...ids].sort());
    expect(attempts(keyOf(id, "c1"))).toHaveLength(2);
    for (const call of ids.slice(1)) expect(attempts(keyOf(id, call))).toHaveLength(1);
  });
});

describe("terminal errors and cancellation", () => {
  test("a registered NonRecoverableToolError becomes a terminal error and is not retried", async () => {
    const id = await suite.sendRound({ calls: [toolCall("bad", "fatal")] });
    const outcome = await suite.attach(id);
    expect(outcome).toEqual({ ok: false, status: 500, message: "ledger checksum mismatch" });
    const steps = await suite.steps(id);
    expect(steps.map((step) => step.name)).toEqual(["toolCall:bad"]);
    expect(steps[0]?.completions).toEqual([
      {
        Failure: expect.objectContaining({ code: 500, message: "ledger checksum mismatch" }),
      },
    ]);
    // A retry would have run it again within the retry policy's half second.
    await sleep(1_000);
    expect(attempts(keyOf(id, "bad"))).toHaveLength(1);
  });

  test("cancelling the invocation aborts the running Tool's signal with Restate's CancelledError", async () => {
    const id = await suite.sendRound({
      calls: [toolCall("wait", "hang"), toolCall("never", "effect")],
    });
    await waitFor(() => attempts(keyOf(id, "wait")).length === 1, "the Tool to start");
    await suite.cancel(id);
    const outcome = await suite.attach(id);
    expect(outcome).toMatchObject({ ok: false, status: 409 });
    await waitFor(() => suite.lines("aborts.log").length > 0, "the Tool to see the abort");
    expect(suite.lines("aborts.log")).toContain(`${keyOf(id, "wait")} CancelledError`);
    expect(attempts(keyOf(id, "never"))).toHaveLength(0);
  });
});
