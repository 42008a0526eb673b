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
});
