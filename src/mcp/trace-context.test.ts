/**
 * Reading W3C trace context from a request's `_meta`: own string data fields
 * of bounded length only (a getter never runs, a Proxy is never touched),
 * and the registry's hook runs the call exactly once whatever it does.
 */
import { describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import { withCallObserver } from "../../course/src/internal.ts";
import {
  MAX_TRACEPARENT_CHARACTERS,
  MAX_TRACESTATE_CHARACTERS,
  readTraceCarrier,
  withRequestTraceContext,
} from "./trace-context.ts";

const TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

describe("readTraceCarrier", () => {
  test("takes traceparent and tracestate", () => {
    expect(readTraceCarrier({ traceparent: TRACEPARENT, tracestate: "a=1", other: "x" })).toEqual({
      traceparent: TRACEPARENT,
      tracestate: "a=1",
    });
  });

  test.each([
    ["at the limit", "t".repeat(MAX_TRACEPARENT_CHARACTERS), true],
    ["one over the limit", "t".repeat(MAX_TRACEPARENT_CHARACTERS + 1), false],
    ["empty", "", false],
    ["a number", 42, false],
  ])("a traceparent %s is %s", (_label, traceparent, kept) => {
    expect(readTraceCarrier({ traceparent }) !== undefined).toBe(kept);
  });

  test("a tracestate over its limit is dropped; the traceparent stays", () => {
    const tracestate = "s".repeat(MAX_TRACESTATE_CHARACTERS + 1);
    expect(readTraceCarrier({ traceparent: TRACEPARENT, tracestate })).toEqual({
      traceparent: TRACEPARENT,
    });
  });

  test("a getter is never run, an inherited field never read", () => {
    let reads = 0;
    const meta = Object.create({ tracestate: "inherited=1" });
    Object.defineProperty(meta, "traceparent", {
      enumerable: true,
      get: () => {
        reads += 1;
        return TRACEPARENT;
      },
    });
    expect(readTraceCarrier(meta)).toBeUndefined();
    expect(reads).toBe(0);
    expect(readTraceCarrier(Object.create({ traceparent: TRACEPARENT }))).toBeUndefined();
  });

  test("a Proxy is refused without running any trap", () => {
    const traps: string[] = [];
    const proxy = new Proxy(
      { traceparent: TRACEPARENT },
      {
        getOwnPropertyDescriptor: (target, key) => {
          traps.push(String(key));
          return Reflect.getOwnPropertyDescriptor(target, key);
        },
        get: (target, key) => {
          traps.push(String(key));
          return Reflect.get(target, key);
        },
      },
    );
    expect(readTraceCarrier(proxy)).toBeUndefined();
    expect(traps).toEqual([]);
  });
});

describe("withRequestTraceContext", () => {
  const observed = (remoteContext: unknown) =>
    withCallObserver(
      new ToolRegistry(),
      Object.assign(
        { start: () => undefined, resume() {}, execute() {}, end() {} },
        { remoteContext },
      ),
    );

  test("without a traced registry or a traceparent, just runs", () => {
    let runs = 0;
    expect(
      withRequestTraceContext(new ToolRegistry(), { traceparent: TRACEPARENT }, () => ++runs),
    ).toBe(1);
    const hook = () => {
      throw new Error("never called");
    };
    expect(withRequestTraceContext(observed(hook), {}, () => ++runs)).toBe(2);
  });

  test("hands the hook the carrier and returns what the run returned", () => {
    const seen: unknown[] = [];
    const hook = (carrier: unknown, run: () => unknown) => {
      seen.push(carrier);
      return run();
    };
    expect(withRequestTraceContext(observed(hook), { traceparent: TRACEPARENT }, () => "ran")).toBe(
      "ran",
    );
    expect(seen).toEqual([{ traceparent: TRACEPARENT }]);
  });

  test.each([
    [
      "throws before running",
      () => {
        throw new Error("propagator bug");
      },
    ],
    ["returns without running", () => "ignored"],
  ])("a hook that %s: the call runs once, and its answer is the call's", (_label, hook) => {
    let runs = 0;
    const answer = withRequestTraceContext(observed(hook), { traceparent: TRACEPARENT }, () => {
      runs += 1;
      return "ran";
    });
    expect(runs).toBe(1);
    expect(answer).toBe("ran");
  });

  test("a run that throws inside the hook: the run's error, and no second run", () => {
    let runs = 0;
    const hook = (_carrier: unknown, run: () => unknown) => run();
    expect(() =>
      withRequestTraceContext(observed(hook), { traceparent: TRACEPARENT }, () => {
        runs += 1;
        throw new Error("call failed");
      }),
    ).toThrow("call failed");
    expect(runs).toBe(1);
  });
});
