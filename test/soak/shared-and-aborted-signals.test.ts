/**
 * Signals that do not see one call at a time: a signal aborted while its call
 * waits (a server cancelling a request), and a signal with two calls in flight
 * (a model's parallel Tool calls). After the calls end, nothing the boundary
 * made for a signal may keep it reachable. A relay that kept its listener
 * after an abort held itself and its hub for the life of the process (about
 * 1.7 KB per aborted signal); a watch whose count of calls in flight never fell
 * back to zero would do the same for every signal that ever had two.
 */
import { expect, test } from "vitest";
import { executeToolCall } from "../../course/src/index.ts";
import { exposeGc, settleHeap, soakCall, soakRegistry } from "./support.ts";

const SIGNALS = 10_000;
// 200 bytes a signal at most: about a tenth of what one retained relay and hub cost.
const MAX_HEAP_GROWTH_BYTES = SIGNALS * 200;

type Endings = (
  registry: ReturnType<typeof soakRegistry>["registry"],
  index: number,
) => Promise<unknown>;

/** How one signal's calls end, for each kind of signal. */
const endings: readonly (readonly [string, Endings])[] = [
  [
    "aborted while its call waits",
    async (registry, index) => {
      const controller = new AbortController();
      const reason = new Error("stop");
      const pending = executeToolCall(registry, soakCall("echo", index), controller.signal);
      controller.abort(reason);
      // Checked by hand: the test runner's assertions keep a record of each one made.
      const outcome = await pending.then(
        () => "resolved",
        (error: unknown) => error,
      );
      if (outcome !== reason) throw new Error(`call ${index} was not cancelled by its abort`);
    },
  ],
  [
    "with two calls in flight",
    (registry, index) => {
      const signal = new AbortController().signal;
      return Promise.all([
        executeToolCall(registry, soakCall("echo", index), signal),
        executeToolCall(registry, soakCall("echo", index + 1), signal),
      ]);
    },
  ],
];

test("the table of signal endings is not empty", () => {
  expect(endings.length).toBeGreaterThan(0);
});

test.each(endings)(
  "10,000 signals, each %s, grow the heap by under 200 bytes a signal",
  async (_label, end) => {
    const gc = exposeGc();
    const { registry } = soakRegistry();
    for (let index = 0; index < 500; index += 1) await end(registry, index);
    const before = await settleHeap(gc);
    for (let index = 0; index < SIGNALS; index += 1) await end(registry, index);
    const after = await settleHeap(gc);
    expect(after - before).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
  },
  300_000,
);
