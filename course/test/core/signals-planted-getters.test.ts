/**
 * A getter planted on AbortSignal.prototype's `aborted` (the attribute is
 * configurable, so a Tool can replace it for the whole process). The boundary
 * reads signals through the intrinsic getter, but Node's own code reads the
 * public one: `AbortSignal.any` on the run's signal when the abort relay is
 * made, and the relay's each time a listener is added to it. Neither may run
 * a planted getter: it could lie the relay into starting out aborted, or start
 * and end calls on the watch while it is being changed.
 */
import { afterEach, expect, test } from "vitest";
import { executeToolCall } from "../../src/index.ts";
import { abortAndWatch } from "./support/turns.ts";
import { workCall as call, workRegistry as registryWith } from "./support/work-tool.ts";

const intrinsic = Object.getOwnPropertyDescriptor(
  AbortSignal.prototype,
  "aborted",
) as PropertyDescriptor;

afterEach(() => {
  Object.defineProperty(AbortSignal.prototype, "aborted", intrinsic);
});

/** Plants a getter that counts its runs and answers `lie(run)` instead of the truth when that is defined. */
function plantAborted(lie: (run: number) => boolean | undefined = () => undefined) {
  const runs = { count: 0 };
  Object.defineProperty(AbortSignal.prototype, "aborted", {
    ...intrinsic,
    get(this: AbortSignal) {
      runs.count += 1;
      return lie(runs.count) ?? (intrinsic.get as () => boolean).call(this);
    },
  });
  return runs;
}

test("a getter planted before a signal's first call, lying that it aborted, never runs, and the call is still cancelled", async () => {
  const registry = registryWith(() => new Promise<string>(() => {}));
  const runs = plantAborted((run) => (run === 1 ? true : undefined));
  const controller = new AbortController();
  const pending = executeToolCall(registry, call("waits"), controller.signal);
  const { reason, outcome } = await abortAndWatch(controller, pending);
  expect(outcome).toBe(reason);
  expect(runs.count).toBe(0);
});

test("a getter planted after a signal's relay was made never runs when a later call on it watches again", async () => {
  let runsOfTool = 0;
  const registry = registryWith(() => {
    runsOfTool += 1;
    // The first two calls end at once; the third waits to be cancelled.
    return runsOfTool <= 2 ? "done" : new Promise<string>(() => {});
  });
  const reused = new AbortController();
  const other = new AbortController();
  await executeToolCall(registry, call("first"), reused.signal);
  // Another signal parks: the reused signal's relay loses its listener, to get it back below.
  await executeToolCall(registry, call("elsewhere"), other.signal);
  const runs = plantAborted();
  const pending = executeToolCall(registry, call("waits"), reused.signal);
  const { reason, outcome } = await abortAndWatch(reused, pending);
  expect(outcome).toBe(reason);
  expect(runs.count).toBe(0);
  expect(runsOfTool).toBe(3);
});

test("the prototype's aborted made data, with a `get` planted on Object.prototype: nothing planted runs, the call is still cancelled", async () => {
  const registry = registryWith(() => new Promise<string>(() => {}));
  let getReads = 0;
  Object.defineProperty(AbortSignal.prototype, "aborted", {
    value: false,
    writable: true,
    configurable: true,
  });
  const controller = new AbortController();
  let pending: Promise<unknown>;
  // Planted only while the call starts (its watch is set up synchronously): an inherited `get`
  // breaks every descriptor literal in the process, the test runner's included.
  Object.defineProperty(Object.prototype, "get", {
    get() {
      getReads += 1;
      return undefined;
    },
    configurable: true,
  });
  try {
    pending = executeToolCall(registry, call("waits"), controller.signal);
  } finally {
    delete (Object.prototype as { get?: unknown }).get;
  }
  const { reason, outcome } = await abortAndWatch(controller, pending);
  expect(outcome).toBe(reason);
  expect(getReads).toBe(0);
});

test("the prototype's aborted deleted: the signal is watched without a relay, and the call is still cancelled", async () => {
  const registry = registryWith(() => new Promise<string>(() => {}));
  delete (AbortSignal.prototype as { aborted?: boolean }).aborted;
  const controller = new AbortController();
  const pending = executeToolCall(registry, call("waits"), controller.signal);
  const { reason, outcome } = await abortAndWatch(controller, pending);
  expect(outcome).toBe(reason);
});
