import { getEventListeners } from "node:events";
import { describe, expect, test, vi } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  ToolContractError,
  ToolRegistry,
} from "../../course/src/index.ts";
import { accept, call } from "../../test/support/rounds.ts";
import { executeToolCalls, type ToolRoundOptions } from "./index.ts";

/** A registry whose one Tool counts validations and executions. */
function counted() {
  const counts = { validate: 0, execute: 0 };
  const registry = new ToolRegistry([
    defineTool({
      name: "work",
      description: "Counts.",
      validate: (input) => {
        counts.validate += 1;
        return accept(input);
      },
      execute: async () => {
        counts.execute += 1;
        return "ok";
      },
    }),
  ]);
  return { registry, counts };
}

async function contractFailure(promise: Promise<unknown>): Promise<ToolContractError> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(ToolContractError);
  expect((thrown as ToolContractError).code).toBe("INVALID_TOOL_CALL");
  return thrown as ToolContractError;
}

/** A Proxy whose every trap is counted (and forwarded). */
function countingProxy<T extends object>(target: T) {
  const traps = { count: 0 };
  const handler: ProxyHandler<T> = {};
  for (const name of Object.getOwnPropertyNames(Reflect) as (keyof ProxyHandler<T>)[]) {
    (handler as Record<string, unknown>)[name] = (...args: unknown[]) => {
      traps.count += 1;
      return (Reflect[name as keyof typeof Reflect] as (...a: unknown[]) => unknown)(...args);
    };
  }
  return { proxy: new Proxy(target, handler), traps };
}

describe("options", () => {
  const bad: Array<[string, ToolRoundOptions]> = [
    ["concurrency 0", { concurrency: 0 }],
    ["concurrency -1", { concurrency: -1 }],
    ["concurrency 1.5", { concurrency: 1.5 }],
    ["concurrency NaN", { concurrency: Number.NaN }],
    ["concurrency -Infinity", { concurrency: Number.NEGATIVE_INFINITY }],
    ["concurrency '2'", { concurrency: "2" as unknown as number }],
    ["maxRoundCharacters 0", { maxRoundCharacters: 0 }],
    ["maxRoundCharacters 2.5", { maxRoundCharacters: 2.5 }],
    ["maxArgumentCharacters NaN", { maxArgumentCharacters: Number.NaN }],
    ["timeoutMs 0", { timeoutMs: 0 }],
    ["timeoutMs NaN", { timeoutMs: Number.NaN }],
    ["timeoutMs longer than a timer holds", { timeoutMs: 2_147_483_648 }],
    ["approve not a function", { approve: true as unknown as () => boolean }],
    ["onEvent not a function", { onEvent: "log" as unknown as () => void }],
    ["onEventError not a function", { onEventError: {} as unknown as () => void }],
  ];

  test.each(bad)("refuses %s as INVALID_TOOL_CALL before any validator", async (_name, options) => {
    expect(bad.length).toBeGreaterThan(0);
    const { registry, counts } = counted();
    const run = new AbortController();
    await contractFailure(executeToolCalls(registry, [call("a")], run.signal, options));
    expect(counts).toEqual({ validate: 0, execute: 0 });
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  test.each([1, 7, Number.POSITIVE_INFINITY])("accepts concurrency %s", async (concurrency) => {
    const { registry, counts } = counted();
    const results = await executeToolCalls(
      registry,
      [call("a"), call("b")],
      new AbortController().signal,
      { concurrency },
    );
    expect(results).toHaveLength(2);
    expect(counts).toEqual({ validate: 2, execute: 2 });
  });

  test("reads each option exactly once", async () => {
    const reads: string[] = [];
    const options = {} as ToolRoundOptions;
    for (const key of ["concurrency", "onEvent", "maxRoundCharacters", "timeoutMs"]) {
      Object.defineProperty(options, key, {
        get: () => {
          reads.push(key);
          return undefined;
        },
      });
    }
    const { registry } = counted();
    await executeToolCalls(registry, [call("a"), call("b")], new AbortController().signal, options);
    expect(reads.sort()).toEqual(["concurrency", "maxRoundCharacters", "onEvent", "timeoutMs"]);
  });

  test("refuses Proxy options without running a trap", async () => {
    const { proxy, traps } = countingProxy<ToolRoundOptions>({ concurrency: 2 });
    const { registry } = counted();
    await contractFailure(
      executeToolCalls(registry, [call("a")], new AbortController().signal, proxy),
    );
    expect(traps.count).toBe(0);
  });

  test("an option getter that throws is INVALID_TOOL_CALL with the thrown value as cause", async () => {
    const thrown = new Error("getter broke");
    const options = {
      get concurrency(): number {
        throw thrown;
      },
    };
    const { registry } = counted();
    const error = await contractFailure(
      executeToolCalls(registry, [call("a")], new AbortController().signal, options),
    );
    expect(error.cause).toBe(thrown);
  });
});

describe("calls", () => {
  test("duplicate ids reject before any validator or execution runs", async () => {
    const { registry, counts } = counted();
    const error = await contractFailure(
      executeToolCalls(registry, [call("a"), call("b"), call("a")], new AbortController().signal),
    );
    expect(error.message).toBe('Duplicate Tool call id "a" at calls[0] and calls[2]');
    expect(counts).toEqual({ validate: 0, execute: 0 });
  });

  test("a malformed call anywhere rejects before any validator runs, naming its index", async () => {
    const { registry, counts } = counted();
    const malformed = { type: "toolCall", id: "", name: "work", arguments: {} };
    const error = await contractFailure(
      executeToolCalls(
        registry,
        [call("a"), call("b"), malformed as CourseToolCall],
        new AbortController().signal,
      ),
    );
    expect(error.message).toMatch(/^calls\[2\]: /);
    expect(counts.validate).toBe(0);
  });

  test("arguments that reuse one object 40,000 levels deep reject the round as INVALID_TOOL_CALL, not RangeError, before any validator", async () => {
    // Each layer wraps the one before in 100 arrays; each appears first near the top.
    const args: Record<string, unknown> = {};
    let shared: unknown = {};
    for (let layer = 1; layer <= 400; layer += 1) {
      for (let level = 0; level < 100; level += 1) shared = [shared];
      args[`s${layer}`] = shared;
    }
    const { registry, counts } = counted();
    const calls = [call("a", "work", { ok: 1 }), call("b", "work", args), call("c")];
    const error = await contractFailure(
      executeToolCalls(registry, calls, new AbortController().signal, {
        maxArgumentCharacters: 1_000_000,
      }),
    );
    expect(error.message).toContain("nesting deeper than 256 is not accepted");
    expect(counts).toEqual({ validate: 0, execute: 0 });
  });

  test("refuses a Proxy of an array without running a trap", async () => {
    const { proxy, traps } = countingProxy([call("a")]);
    const { registry, counts } = counted();
    await contractFailure(executeToolCalls(registry, proxy, new AbortController().signal));
    expect(traps.count).toBe(0);
    expect(counts.validate).toBe(0);
  });

  test("reads by index, never through the array's iterator or methods", async () => {
    const calls = [call("a"), call("b")];
    const touched: string[] = [];
    for (const key of [Symbol.iterator, "map", "forEach", "slice", "entries", "values", "at"]) {
      Object.defineProperty(calls, key, {
        value: () => {
          touched.push(String(key));
          throw new Error("must not be called");
        },
      });
    }
    const { registry } = counted();
    const results = await executeToolCalls(registry, calls, new AbortController().signal);
    expect(results.map((result) => result.toolCallId)).toEqual(["a", "b"]);
    expect(touched).toEqual([]);
  });

  test("a getter slot runs once; a hole is refused", async () => {
    let reads = 0;
    const withGetter = [call("a")];
    Object.defineProperty(withGetter, 1, {
      get: () => {
        reads += 1;
        return call("b");
      },
      enumerable: true,
    });
    const { registry } = counted();
    await expect(
      executeToolCalls(registry, withGetter, new AbortController().signal),
    ).resolves.toHaveLength(2);
    expect(reads).toBe(1);
    const holey: CourseToolCall[] = [call("a")];
    holey[2] = call("c");
    const error = await contractFailure(
      executeToolCalls(registry, holey, new AbortController().signal),
    );
    expect(error.message).toContain("hole at index 1");
  });

  test("an empty round resolves with a frozen empty array and emits nothing", async () => {
    const onEvent = vi.fn();
    const { registry } = counted();
    const results = await executeToolCalls(registry, [], new AbortController().signal, { onEvent });
    expect(results).toEqual([]);
    expect(Object.isFrozen(results)).toBe(true);
    expect(onEvent).not.toHaveBeenCalled();
  });
});

describe("registry and signal", () => {
  test.each([
    ["a plain object", {}],
    ["a Proxy of a registry", new Proxy(new ToolRegistry(), {})],
    ["null", null],
  ])("refuses %s as the registry", async (_name, registry) => {
    await contractFailure(
      executeToolCalls(registry as ToolRegistry, [], new AbortController().signal),
    );
  });

  test.each([
    ["a plain object", { aborted: false }],
    ["undefined", undefined],
  ])("refuses %s as the signal", async (_name, signal) => {
    const { registry } = counted();
    await contractFailure(executeToolCalls(registry, [call("a")], signal as AbortSignal));
  });
});
