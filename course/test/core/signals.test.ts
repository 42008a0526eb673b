/**
 * Cancellation plumbing under attack: impostor signals, signals whose public
 * `aborted` lies, a host listener that silences the abort event, and the
 * shared watch that must forget a call once it has settled.
 */
import { queryObjects } from "node:v8";
import { describe, expect, test } from "vitest";
import { exposeGc, settleHeap } from "../../../test/soak/support.ts";
import { executeToolCall } from "../../src/index.ts";
import { isAbortSignal } from "../../src/signals.ts";
import { countingHandler } from "./support/hostile.ts";
import { nextTurn } from "./support/turns.ts";
import { workCall as call, workRegistry as registryWith } from "./support/work-tool.ts";

describe("isAbortSignal", () => {
  test("refuses a Proxy around a genuine AbortSignal without running a trap", () => {
    const { handler: counting, traps } = countingHandler();
    const proxy = new Proxy(new AbortController().signal, counting as ProxyHandler<AbortSignal>);
    expect(isAbortSignal(proxy)).toBe(false);
    expect(traps()).toBe(0);
  });

  test.each([
    ["undefined", undefined],
    ["null", null],
    ["a string", "signal"],
    ["a look-alike object", { aborted: false, reason: undefined }],
    ["AbortSignal.prototype itself", AbortSignal.prototype],
  ])("refuses %s", (_label, value) => {
    expect(isAbortSignal(value)).toBe(false);
  });

  test("accepts genuine signals, aborted or not", () => {
    expect(isAbortSignal(new AbortController().signal)).toBe(true);
    expect(isAbortSignal(AbortSignal.abort())).toBe(true);
  });
});

describe("a signal whose public `aborted` lies", () => {
  test.each([
    [
      "an own `aborted` getter answering true",
      (signal: AbortSignal) => Object.defineProperty(signal, "aborted", { get: () => true }),
    ],
    [
      "a swapped prototype whose `aborted` answers true",
      (signal: AbortSignal) =>
        Object.setPrototypeOf(
          signal,
          Object.create(AbortSignal.prototype, { aborted: { get: () => true } }),
        ),
    ],
  ])("with %s, a real abort still cancels a pending call", async (_label, tamper) => {
    const controller = new AbortController();
    tamper(controller.signal);
    const reason = new Error("stop");
    const registry = registryWith(() => new Promise(() => {}));
    const pending = executeToolCall(registry, call(), controller.signal).then(
      () => "resolved",
      (error: unknown) => error,
    );
    await nextTurn();
    controller.abort(reason);
    const first = await Promise.race([pending, nextTurn().then(() => "still waiting")]);
    expect(first).toBe(reason);
  });
});

describe("a host listener that silences the abort event on a tampered signal", () => {
  // Added before the first call, on a signal carrying an own `aborted`: the
  // boundary's own listener sits on that signal after it and never hears the
  // event. The checks at each later step must still turn the call into the rejection.
  function silencedSignal() {
    const controller = new AbortController();
    Object.defineProperty(controller.signal, "aborted", { value: false, configurable: true });
    controller.signal.addEventListener("abort", (event) => event.stopImmediatePropagation());
    return controller;
  }

  test.each([
    ["answers", (finish: Settle) => finish.resolve("finished anyway")],
    ["fails", (finish: Settle) => finish.reject(new Error("failed anyway"))],
  ])("a Tool that %s after the abort still yields the abort's reason", async (_label, end) => {
    const controller = silencedSignal();
    const finish: Settle = { resolve: () => {}, reject: () => {} };
    const registry = registryWith(
      () =>
        new Promise((resolve, reject) => {
          finish.resolve = resolve;
          finish.reject = reject;
        }),
    );
    const reason = new Error("stop");
    const pending = executeToolCall(registry, call(), controller.signal);
    await nextTurn();
    controller.abort(reason);
    end(finish);
    await expect(pending).rejects.toBe(reason);
  });

  test.each([
    ["answers yes", (gate: Settle) => gate.resolve(true)],
    ["fails", (gate: Settle) => gate.reject(new Error("gate broke"))],
  ])(
    "an approval gate that %s after the abort yields the reason; the Tool never runs",
    async (_label, end) => {
      const controller = silencedSignal();
      const gate: Settle = { resolve: () => {}, reject: () => {} };
      let runs = 0;
      const registry = registryWith(() => {
        runs += 1;
        return "ran";
      });
      const approve = () =>
        new Promise<boolean>((resolve, reject) => {
          gate.resolve = resolve as (value: unknown) => void;
          gate.reject = reject;
        });
      const reason = new Error("stop");
      const pending = executeToolCall(registry, call(), controller.signal, { approve });
      await nextTurn();
      controller.abort(reason);
      end(gate);
      await expect(pending).rejects.toBe(reason);
      expect(runs).toBe(0);
    },
  );
});

interface Settle {
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

describe("the shared watch forgets a settled call", () => {
  test("a settled call's promise can be collected while the run's signal lives on", async () => {
    const gc = exposeGc();
    const controller = new AbortController();
    const registry = registryWith(() => "done");
    // In a function of its own, so that no variable of this test holds a promise.
    const runCalls = async (): Promise<WeakRef<object>[]> => {
      const refs: WeakRef<object>[] = [];
      for (let index = 0; index < 20; index += 1) {
        const pending = executeToolCall(registry, call(`call-${index}`), controller.signal);
        refs.push(new WeakRef(pending));
        await pending;
      }
      return refs;
    };
    const handles = await runCalls();
    expect(handles).toHaveLength(20);
    await settleHeap(gc);
    const alive = handles.filter((handle) => handle.deref() !== undefined).length;
    expect(alive).toBe(0);
    // The signal is still in use here: what was collected was not kept by it.
    expect(controller.signal.aborted).toBe(false);
  });
});

describe("the relay of a signal goes with it", () => {
  // How one fresh signal's calls end: aborted while one waits, or two in flight at once.
  const endings: readonly (readonly [
    string,
    (registry: ReturnType<typeof registryWith>) => Promise<unknown>,
  ])[] = [
    [
      "aborted while its call waits",
      async (registry) => {
        const controller = new AbortController();
        const pending = executeToolCall(registry, call("waits", { wait: true }), controller.signal);
        controller.abort(new Error("stop"));
        return pending.catch((error: unknown) => error);
      },
    ],
    [
      "with two calls in flight",
      (registry) => {
        const signal = new AbortController().signal;
        return Promise.all([
          executeToolCall(registry, call("one"), signal),
          executeToolCall(registry, call("two"), signal),
        ]);
      },
    ],
  ];

  test("the table of endings is not empty", () => {
    expect(endings.length).toBeGreaterThan(0);
  });

  test.each(endings)(
    "40 signals, each %s, leave no relay alive once they are dropped",
    async (_label, end) => {
      const gc = exposeGc();
      // Counts live AbortSignals after a full collection (the relays are AbortSignals too).
      const liveSignals = () => queryObjects(AbortSignal, { format: "count" }) as number;
      // Answered a turn later, so that two calls started together are both in flight.
      const registry = registryWith((input) =>
        (input as { wait?: boolean }).wait === true
          ? new Promise<string>(() => {})
          : Promise.resolve("done"),
      );
      await end(registry);
      await settleHeap(gc);
      const before = liveSignals();
      for (let index = 0; index < 40; index += 1) await end(registry);
      await settleHeap(gc);
      // A relay kept by its listener (and so its hub) would add one a signal: 40.
      expect(liveSignals() - before).toBeLessThan(10);
    },
  );
});

describe("the relay listens only while a call waits", () => {
  test("after every call on a signal settles, a new call on it is still cancelled by its abort", async () => {
    const controller = new AbortController();
    let release: () => void = () => {};
    let runs = 0;
    const registry = registryWith(() => {
      runs += 1;
      // The first two calls end at once; the third waits to be cancelled.
      return runs <= 2
        ? "done"
        : new Promise<string>((resolve) => (release = () => resolve("late")));
    });
    await executeToolCall(registry, call("first"), controller.signal);
    await executeToolCall(registry, call("second"), controller.signal);
    const reason = new Error("stop");
    const pending = executeToolCall(registry, call("third"), controller.signal);
    await nextTurn();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    release();
    expect(runs).toBe(3);
  });
});
