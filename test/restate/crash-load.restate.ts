/**
 * 1,000 Tool calls across 50 concurrent invocations, with the service killed
 * (kill -9) three times at random points: every call ends in exactly one
 * journaled result, every invocation returns its calls' results in order,
 * and the effects counted by idempotency key equal the calls, however many
 * times a Tool ran. The seed is printed; `TOOLBOUND_SEED=<seed>` replays it.
 */

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type JournalRow,
  journaledSteps,
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

/** A small seeded generator (mulberry32): the same seed, the same run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const INVOCATIONS = 50;
const CALLS_EACH = 20;
const KILLS = 3;

describe("crashes under load", () => {
  test("1,000 calls, 50 invocations, 3 kills: one journaled result per call, one effect per key", async () => {
    const seed = Number(process.env.TOOLBOUND_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`crash-load seed: ${seed}`);
    const random = generator(seed);
    const callIds = Array.from({ length: CALLS_EACH }, (_, index) => `call-${index}`);
    expect(callIds.length * INVOCATIONS).toBe(1_000);

    const invocations = await Promise.all(
      Array.from({ length: INVOCATIONS }, () =>
        suite.sendRound({
          concurrency: 4,
          calls: callIds.map((id) =>
            toolCall(id, "effect", {
              before: Math.floor(random() * 40),
              after: Math.floor(random() * 40),
              value: id,
            }),
          ),
        }),
      ),
    );
    expect(new Set(invocations).size).toBe(INVOCATIONS);

    // Three kills, each once a random share of the effects is done, while Tools are running.
    const thresholds = Array.from({ length: KILLS }, () => 100 + Math.floor(random() * 800)).sort(
      (left, right) => left - right,
    );
    for (const threshold of thresholds) {
      await waitFor(() => suite.effects().length >= threshold, `${threshold} effects`, 120_000);
      await suite.killService();
      await sleep(Math.floor(random() * 300));
      await suite.startService();
    }

    const outcomes = await Promise.all(invocations.map((id) => suite.attach(id)));
    for (const [index, outcome] of outcomes.entries()) {
      if (!outcome.ok) throw new Error(`${invocations[index]}: ${outcome.message}`);
      const id = invocations[index] as string;
      expect(outcome.value.results.map((result) => result.toolCallId)).toEqual(callIds);
      expect(outcome.value.results.map((result) => JSON.parse(result.content))).toEqual(
        callIds.map((call) => ({ done: call, key: `${id}/${call}` })),
      );
    }

    // The journals: per invocation, one step per call, each with exactly one result.
    const rows = await suite.restate.query<JournalRow>(
      `SELECT id, index, entry_type, name, entry_json FROM sys_journal WHERE id IN (${invocations
        .map((id) => `'${id}'`)
        .join(", ")}) ORDER BY id, index`,
    );
    for (const [index, id] of invocations.entries()) {
      const steps = journaledSteps(rows.filter((row) => row.id === id));
      expect(steps.map((step) => step.name)).toEqual(callIds.map((call) => `toolCall:${call}`));
      for (const [position, step] of steps.entries()) {
        expect(step.completions).toHaveLength(1);
        const outcome = outcomes[index];
        expect(journaledValue(step.completions[0])).toEqual(
          outcome?.ok === true ? outcome.value.results[position] : undefined,
        );
      }
    }

    // Effects by idempotency key: exactly one per call, whatever ran twice.
    const expected = invocations.flatMap((id) => callIds.map((call) => `${id}/${call}`));
    const effects = suite.effects();
    expect(effects).toHaveLength(1_000);
    expect(new Set(effects)).toEqual(new Set(expected));
    const attempts = suite.lines("attempts.log");
    const repeated = attempts.length - 1_000;
    console.log(`crash-load: ${attempts.length} executions for 1,000 calls (${repeated} repeated)`);
    expect(new Set(attempts)).toEqual(new Set(expected));
    expect(repeated).toBeGreaterThan(0);
  });
});
