/**
 * The abort relay of the last idle signal stays parked (keeps its listener)
 * until another signal's relay parks: which hubs may park, and that calls
 * waiting on a signal hear its abort whatever other signals do meanwhile.
 */
import { describe, expect, test } from "vitest";
import { exposeGc, settleHeap } from "../../../test/soak/support.ts";
import { executeToolCall } from "../../src/index.ts";
import { nextTurn, outcomeWithinTurn } from "./support/turns.ts";
import { workCall as call, workRegistry as registryWith } from "./support/work-tool.ts";

describe("the relay of the last idle signal stays parked", () => {
  test("calls alternating between two signals stay cancellable on each", async () => {
    const first = new AbortController();
    const second = new AbortController();
    let runs = 0;
    const registry = registryWith(() => {
      runs += 1;
      return runs <= 3 ? "done" : new Promise<string>(() => {});
    });
    // first parks, second parks (first's listener goes), first again (re-armed).
    await executeToolCall(registry, call("a"), first.signal);
    await executeToolCall(registry, call("b"), second.signal);
    await executeToolCall(registry, call("c"), first.signal);
    const onFirst = executeToolCall(registry, call("d"), first.signal);
    const onSecond = executeToolCall(registry, call("e"), second.signal);
    await nextTurn();
    const reasons = [new Error("first"), new Error("second")] as const;
    first.abort(reasons[0]);
    await expect(onFirst).rejects.toBe(reasons[0]);
    second.abort(reasons[1]);
    await expect(onSecond).rejects.toBe(reasons[1]);
    expect(runs).toBe(5);
  });

  test("a parked signal that aborts cancels nothing, and its next call rejects before the Tool runs", async () => {
    const controller = new AbortController();
    let runs = 0;
    const registry = registryWith(() => {
      runs += 1;
      return "done";
    });
    await executeToolCall(registry, call("a"), controller.signal);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(executeToolCall(registry, call("b"), controller.signal)).rejects.toBe(reason);
    expect(runs).toBe(1);
  });

  test("the parked relay keeps neither the last signal nor its controller alive", async () => {
    const gc = exposeGc();
    const registry = registryWith(() => "done");
    // In a function of its own, so that no variable of this test holds the signal.
    const runOnFreshSignal = async (): Promise<WeakRef<object>> => {
      const controller = new AbortController();
      await executeToolCall(registry, call("last"), controller.signal);
      return new WeakRef(controller.signal);
    };
    const handle = await runOnFreshSignal();
    await settleHeap(gc);
    expect(handle.deref()).toBeUndefined();
  });

  test("a signal with a call still waiting is never parked: a later signal's park leaves it listening", async () => {
    const busy = new AbortController();
    const other = new AbortController();
    let runs = 0;
    const registry = registryWith(() => {
      runs += 1;
      // The first call waits to be cancelled; every later one ends at once.
      return runs === 1 ? new Promise<string>(() => {}) : "done";
    });
    const waiting = executeToolCall(registry, call("waiting"), busy.signal);
    // A call on the busy signal ends while the first still waits: its hub must not park.
    await executeToolCall(registry, call("quick"), busy.signal);
    // Another signal goes idle and parks; were the busy hub parked, it would lose its listener now.
    await executeToolCall(registry, call("elsewhere"), other.signal);
    const reason = new Error("stop");
    busy.abort(reason);
    const first = await outcomeWithinTurn(waiting);
    expect(first).toBe(reason);
    expect(runs).toBe(3);
  });

  // Which calls on one signal settle (by the order they came) before another signal parks;
  // every call left must still hear the abort. The watch counts the calls that share its set,
  // and a count that fell short (or to zero) too early would park a hub with a call waiting.
  const settleOrders: readonly (readonly [string, number, readonly number[]])[] = [
    ["the oldest of two", 2, [0]],
    ["the second of two", 2, [1]],
    ["the oldest, then the second of three", 3, [0, 1]],
    ["the second, then the oldest of three", 3, [1, 0]],
    ["the second and third of four, then the oldest", 4, [1, 2, 0]],
  ];

  test("the settle-order table is not empty", () => {
    expect(settleOrders.length).toBeGreaterThan(0);
  });

  test.each(settleOrders)(
    "calls in flight on one signal, %s settled, another signal parks: every call left hears the abort",
    async (_label, inFlight, settled) => {
      const busy = new AbortController();
      const other = new AbortController();
      const releases: (() => void)[] = [];
      const registry = registryWith((input) =>
        (input as { quick?: boolean }).quick === true
          ? "done"
          : new Promise<string>((resolve) => releases.push(() => resolve("done"))),
      );
      const calls = Array.from({ length: inFlight }, (_, index) =>
        executeToolCall(registry, call(`busy-${index}`), busy.signal),
      );
      await nextTurn();
      for (const index of settled) {
        releases[index]?.();
        await expect(calls[index]).resolves.toMatchObject({ isError: false });
      }
      // Another signal goes idle and parks: a busy hub wrongly parked loses its listener here.
      await executeToolCall(registry, call("elsewhere", { quick: true }), other.signal);
      const reason = new Error("stop");
      busy.abort(reason);
      const left = calls.filter((_, index) => !settled.includes(index));
      expect(left).toHaveLength(inFlight - settled.length);
      for (const pending of left) expect(await outcomeWithinTurn(pending)).toBe(reason);
    },
  );

  test("a tampered signal, which has no relay, is never parked: calls on another signal still settle", async () => {
    const tampered = new AbortController();
    Object.defineProperty(tampered.signal, "aborted", { value: false, configurable: true });
    const plain = new AbortController();
    let runs = 0;
    const registry = registryWith(() => {
      runs += 1;
      return runs <= 3 ? "done" : new Promise<string>(() => {});
    });
    await executeToolCall(registry, call("a"), tampered.signal);
    // Were the tampered hub parked, this call's park would try to unhook a relay it never had.
    await expect(executeToolCall(registry, call("b"), plain.signal)).resolves.toMatchObject({
      isError: false,
    });
    await executeToolCall(registry, call("c"), plain.signal);
    const pending = executeToolCall(registry, call("d"), tampered.signal);
    await nextTurn();
    const reason = new Error("stop");
    tampered.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(runs).toBe(4);
  });

  test("a parked signal that gets a waiting call again is unparked: another signal's park leaves it listening", async () => {
    const reused = new AbortController();
    const other = new AbortController();
    let runs = 0;
    const registry = registryWith(() => {
      runs += 1;
      // The second call waits to be cancelled; the others end at once.
      return runs === 2 ? new Promise<string>(() => {}) : "done";
    });
    await executeToolCall(registry, call("parks"), reused.signal);
    const waiting = executeToolCall(registry, call("waits"), reused.signal);
    // The other signal parks now; the reused one, no longer parked, must keep its listener.
    await executeToolCall(registry, call("elsewhere"), other.signal);
    const reason = new Error("stop");
    reused.abort(reason);
    const first = await outcomeWithinTurn(waiting);
    expect(first).toBe(reason);
    expect(runs).toBe(3);
  });

  test("an abort event dispatched on a signal that has not aborted cancels nothing", async () => {
    // A tampered signal carries the boundary's listener itself, so anyone can dispatch to it.
    const controller = new AbortController();
    Object.defineProperty(controller.signal, "aborted", { value: false, configurable: true });
    let release: () => void = () => {};
    const registry = registryWith(
      () => new Promise<string>((resolve) => (release = () => resolve("done"))),
    );
    const pending = executeToolCall(registry, call(), controller.signal);
    await nextTurn();
    controller.signal.dispatchEvent(new Event("abort"));
    release();
    await expect(pending).resolves.toMatchObject({ isError: false, content: '"done"' });
  });

  test("calls that settle while an older one waits are forgotten: their inputs can be collected", async () => {
    const gc = exposeGc();
    const controller = new AbortController();
    const refs: WeakRef<object>[] = [];
    const registry = registryWith((input) => {
      // The first call waits for good, so every later one joins the watch's set, not its first slot.
      if (refs.length === 0) {
        refs.push(new WeakRef({}));
        return new Promise<string>(() => {});
      }
      refs.push(new WeakRef(input as object));
      return "done";
    });
    const waiting = executeToolCall(registry, call("waiting"), controller.signal).catch(
      (error: unknown) => error,
    );
    // In a function of its own, so that no variable of this test holds a call's input.
    const runCalls = async (): Promise<void> => {
      for (let index = 0; index < 20; index += 1) {
        await executeToolCall(registry, call(`call-${index}`, { index }), controller.signal);
      }
    };
    await runCalls();
    const inputs = refs.slice(1);
    expect(inputs).toHaveLength(20);
    await settleHeap(gc);
    expect(inputs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(waiting).resolves.toBe(reason);
  });

  test("many calls in flight on one signal: each is told once, in the order they came", async () => {
    const controller = new AbortController();
    const registry = registryWith(() => new Promise<string>(() => {}));
    const order: string[] = [];
    const calls = ["a", "b", "c", "d"].map((id) =>
      executeToolCall(registry, call(id), controller.signal).catch(() => {
        order.push(id);
      }),
    );
    await nextTurn();
    controller.abort(new Error("stop"));
    await Promise.all(calls);
    expect(order).toEqual(["a", "b", "c", "d"]);
  });
});
