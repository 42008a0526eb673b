/**
 * One call per signal, as a server makes them (each request its own
 * AbortController): after the calls end, nothing the boundary made for a
 * signal may keep it reachable. Node keeps a signal made by `AbortSignal.any`
 * alive for as long as it has an abort listener, so a relay that kept its
 * listener after its last call held itself, its hub and the run's signal for
 * the life of the process: about 2.4 KB per call, 48 MB over this test.
 */
import { expect, test } from "vitest";
import { executeToolCall } from "../../course/src/index.ts";
import { exposeGc, settleHeap, soakCall, soakRegistry } from "./support.ts";

const CALLS = 20_000;
// 200 bytes a call at most: a tenth of what one retained relay, hub and signal cost.
const MAX_HEAP_GROWTH_BYTES = CALLS * 200;

test("20,000 calls, each on its own signal, grow the heap by under 200 bytes a call", async () => {
  const gc = exposeGc();
  const { registry } = soakRegistry();
  const kinds = ["echo", "fail", "refuse"] as const;
  for (let index = 0; index < 1_000; index += 1) {
    await executeToolCall(registry, soakCall("echo", index), new AbortController().signal);
  }
  const before = await settleHeap(gc);
  for (let index = 0; index < CALLS; index += 1) {
    const name = kinds[index % kinds.length] as string;
    await executeToolCall(registry, soakCall(name, index), new AbortController().signal);
  }
  const after = await settleHeap(gc);
  expect(after - before).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
}, 300_000);
