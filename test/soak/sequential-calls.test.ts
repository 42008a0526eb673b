import { expect, test } from "vitest";
import { executeToolCall } from "../../course/src/index.ts";
import { abortListeners, exposeGc, settleHeap, soakCall, soakRegistry } from "./support.ts";

const CALLS = 100_000;
const MAX_HEAP_GROWTH_BYTES = 5 * 1024 * 1024;
const KINDS = ["echo", "refuse", "fail", "echo"] as const;

test("100,000 sequential calls on one long-lived signal leave no abort listener and grow the heap by under 5 MB", async () => {
  const gc = exposeGc();
  const { registry } = soakRegistry();
  const run = new AbortController();
  const endings = { ok: 0, error: 0 };
  // Warm up first, so the baseline includes compiled code and interned strings.
  for (let index = 0; index < 2_000; index += 1) {
    await executeToolCall(registry, soakCall("echo", index, { index }), run.signal);
  }
  const before = await settleHeap(gc);
  let worstListeners = 0;
  for (let index = 0; index < CALLS; index += 1) {
    const name = KINDS[index % KINDS.length] as string;
    const pending = executeToolCall(registry, soakCall(name, index, { index }), run.signal);
    // While a Tool is running the call watches the signal through a private relay, never
    // through a listener on the run's signal itself.
    if (index % 997 === 0) worstListeners = Math.max(worstListeners, abortListeners(run.signal));
    const result = await pending;
    if (result.isError) endings.error += 1;
    else endings.ok += 1;
    if (index % 10_000 === 0) expect(abortListeners(run.signal)).toBe(0);
  }
  const after = await settleHeap(gc);
  expect(endings).toEqual({ ok: CALLS / 2, error: CALLS / 2 });
  expect(worstListeners).toBe(0);
  expect(abortListeners(run.signal)).toBe(0);
  expect(after - before).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
}, 300_000);
