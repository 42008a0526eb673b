/**
 * kill -9 of restate-server itself in the middle of a round, then the same
 * binary on the same data directory: the round completes with every result
 * exactly once, in call order, and every effect done once by its key.
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

describe("kill -9 of restate-server", () => {
  test("mid-round: after a restart on the same data the round completes, every result once and in order", async () => {
    const ids = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];
    const calls = ids.map((id) => toolCall(id, "effect", { before: 100, after: 250, value: id }));
    const invocationId = await suite.sendRound({ calls, concurrency: 2 });
    const keys = ids.map((id) => `${invocationId}/${id}`);
    // Some effects done, some steps journaled, some Tools running.
    await waitFor(() => suite.effects().length >= 3, "three effects");
    expect(suite.effects().length).toBeLessThan(ids.length);
    await suite.restate.kill();
    await sleep(500);
    await suite.restate.restart();

    const outcome = await suite.attach(invocationId);
    if (!outcome.ok) throw new Error(outcome.message);
    const { results, events } = outcome.value;
    expect(results.map((result) => result.toolCallId)).toEqual(ids);
    expect(results.map((result) => JSON.parse(result.content))).toEqual(
      ids.map((id, index) => ({ done: id, key: keys[index] })),
    );
    // The events of the attempt that returned: each call started and finished once, in order.
    expect(events.filter((event) => event.startsWith("tool.finished"))).toEqual(
      ids.map((id) => `tool.finished ${id}`),
    );
    const steps = await suite.steps(invocationId);
    expect(steps.map((step) => step.name)).toEqual(ids.map((id) => `toolCall:${id}`));
    for (const [index, step] of steps.entries()) {
      expect(step.completions).toHaveLength(1);
      expect(journaledValue(step.completions[0])).toEqual(results[index]);
    }
    expect(suite.effects().sort()).toEqual([...keys].sort());
    // The Tool whose effect was the last before the kill was still answering: cut off by the
    // crash (its attempt ended), it ran again under the same key, and found its effect done.
    const attempts = suite.lines("attempts.log");
    expect(new Set(attempts)).toEqual(new Set(keys));
    const repeated = keys.filter((key) => attempts.filter((line) => line === key).length > 1);
    expect(repeated.length).toBeGreaterThan(0);
  });
});
