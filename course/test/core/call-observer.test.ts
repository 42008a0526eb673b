/**
 * The registry's observer slot: set only through `withCallObserver`, copied
 * by `snapshot()`, told when a call starts, around `execute` and at its end,
 * and powerless over the call: whatever a hook throws or forgets, the result
 * is the unobserved one, byte for byte, and the Tool runs exactly once.
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  CALL_OBSERVER_WARNING,
  type CallFacts,
  type CallObserver,
} from "../../src/call-observer.ts";
import {
  executeToolCall,
  prepareToolCall,
  runPreparedToolCall,
  ToolRegistry,
} from "../../src/index.ts";
import { callObserverOf, withCallObserver } from "../../src/internal.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

const live = () => new AbortController().signal;

/** An observer that logs every hook it receives, running `execute` as asked. */
function recorder(overrides: Partial<CallObserver<string>> = {}) {
  const log: string[] = [];
  const facts: CallFacts[] = [];
  const observer: CallObserver<string> = {
    start: () => {
      log.push("start");
      return "state";
    },
    resume: (state) => {
      log.push(`resume ${state}`);
    },
    execute: (state, call, tool, run) => {
      log.push(`execute ${state} ${call.id} ${tool.name}`);
      run();
    },
    end: (state, ended) => {
      log.push(`end ${state} ${ended.phase}`);
      facts.push(ended);
    },
    ...overrides,
  };
  return { observer, log, facts };
}

const warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};
process.on("warning", onWarning);
afterEach(() => {
  warnings.length = 0;
});

/** Waits until the process warnings emitted so far have been delivered. */
const warningsDelivered = () => new Promise((resolve) => setImmediate(resolve));

describe("the observer slot", () => {
  test("withCallObserver returns an observed snapshot and leaves the registry unobserved", () => {
    const registry = workRegistry(async () => "done");
    const { observer } = recorder();
    const observed = withCallObserver(registry, observer);
    expect(observed).not.toBe(registry);
    expect(observed.names).toEqual(["work"]);
    expect(observed.get("work")).toBe(registry.get("work"));
    expect(callObserverOf(observed)).toBe(observer);
    expect(callObserverOf(registry)).toBeUndefined();
  });

  test("snapshot() keeps the observer; a new registry has none", () => {
    const { observer } = recorder();
    const observed = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    expect(callObserverOf(observed.snapshot())).toBe(observer);
    expect(callObserverOf(new ToolRegistry())).toBeUndefined();
  });

  test.each([
    ["a plain object", {}],
    ["null", null],
    ["a string", "registry"],
  ])("callObserverOf(%s) is undefined", (_label, value) => {
    expect(callObserverOf(value)).toBeUndefined();
  });

  test("callObserverOf(a Proxy of an observed registry) is undefined and runs no trap", () => {
    const traps: string[] = [];
    const observed = withCallObserver(new ToolRegistry(), recorder().observer);
    const proxy = new Proxy(observed, {
      get: (target, key) => {
        traps.push(`get ${String(key)}`);
        return Reflect.get(target, key);
      },
      has: (target, key) => {
        traps.push(`has ${String(key)}`);
        return Reflect.has(target, key);
      },
      getPrototypeOf: (target) => {
        traps.push("getPrototypeOf");
        return Reflect.getPrototypeOf(target);
      },
    });
    expect(callObserverOf(proxy)).toBeUndefined();
    expect(traps).toEqual([]);
  });

  test.each([
    ["no end hook", { start: (): number => 1, resume() {}, execute() {} }],
    ["a hook that is not a function", { start: 1, resume() {}, execute() {}, end() {} }],
    ["a Proxy", new Proxy({ start() {}, resume() {}, execute() {}, end() {} }, {})],
  ])("an observer with %s is refused with a TypeError", (_label, observer) => {
    expect(() => withCallObserver(new ToolRegistry(), observer as never)).toThrow(TypeError);
  });

  test("withCallObserver refuses a value that is not a ToolRegistry", () => {
    expect(() => withCallObserver({} as ToolRegistry, recorder().observer)).toThrow(
      "withCallObserver needs a ToolRegistry",
    );
  });
});

describe("what the observer is told", () => {
  test("an executed call: start, execute with the snapshot and the Tool, end with the facts", async () => {
    const { observer, log, facts } = recorder();
    const registry = withCallObserver(
      workRegistry(async () => "done"),
      observer,
    );
    const result = await executeToolCall(registry, workCall("call-7"), live());
    expect(result.content).toBe('"done"');
    expect(log).toEqual(["start", "execute state call-7 work", "end state serialization"]);
    const ended = facts[0] as CallFacts;
    expect(ended.result).toBe(result);
    expect(ended.call?.id).toBe("call-7");
    expect(ended.tool?.name).toBe("work");
    expect(ended.output).toEqual({
      characters: 6,
      originalCharacters: 6,
      originalTextLength: 4,
      truncated: false,
      limit: undefined,
      limitValue: undefined,
      spillReference: undefined,
    });
    expect(Object.isFrozen(ended)).toBe(true);
  });

  test("a prepared call: start when prepared, resume and execute when run, end once", async () => {
    const { observer, log } = recorder();
    const registry = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    const prepared = prepareToolCall(registry, workCall(), live());
    expect(log).toEqual(["start"]);
    await runPreparedToolCall(prepared);
    expect(log).toEqual([
      "start",
      "resume state",
      "execute state call-1 work",
      "end state serialization",
    ]);
  });

  test("a prepared call decided without effects ends when prepared; one never run does not end", async () => {
    const { observer, log } = recorder();
    const registry = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    prepareToolCall(registry, { ...workCall(), name: "nope" }, live());
    expect(log).toEqual(["start", "end state lookup"]);
    prepareToolCall(registry, workCall(), live());
    await warningsDelivered();
    expect(log).toEqual(["start", "end state lookup", "start"]);
  });

  test("start answering undefined leaves the call unobserved", async () => {
    const { observer, log } = recorder({
      start: () => {
        log.push("start");
        return undefined;
      },
    });
    const registry = withCallObserver(
      workRegistry(async () => 1),
      observer,
    );
    await executeToolCall(registry, workCall(), live());
    expect(log).toEqual(["start"]);
  });
});

describe("an observer cannot change a call", () => {
  const hooks = ["start", "resume", "execute", "end"] as const;

  test.each(hooks)(
    "a throwing %s hook: same result, the Tool ran once, one warning",
    async (hook) => {
      const execute = vi.fn(async () => ({ done: true }));
      const plain = workRegistry(execute);
      const expected = await executeToolCall(plain, workCall(), live());
      const { observer } = recorder({
        [hook]: () => {
          throw new Error(`${hook} broke`);
        },
      });
      const registry = withCallObserver(plain, observer);
      const result = await runPreparedToolCall(prepareToolCall(registry, workCall(), live()));
      expect(result).toEqual(expected);
      expect(Object.isFrozen(result)).toBe(true);
      expect(execute).toHaveBeenCalledTimes(2);
      await warningsDelivered();
      expect(warnings.map((warning) => [warning.name, (warning.cause as Error).message])).toEqual([
        [CALL_OBSERVER_WARNING, `${hook} broke`],
      ]);
    },
  );

  test.each([
    ["never calls run", (_s: string, _c: unknown, _t: unknown, _run: () => void) => {}],
    [
      "calls run twice",
      (_s: string, _c: unknown, _t: unknown, run: () => void) => {
        run();
        run();
      },
    ],
    [
      "calls run, then throws",
      (_s: string, _c: unknown, _t: unknown, run: () => void) => {
        run();
        throw new Error("after run");
      },
    ],
  ])(
    "an execute hook that %s: the Tool runs exactly once, the result is unchanged",
    async (_label, hook) => {
      const execute = vi.fn(async () => "ran");
      const { observer } = recorder({ execute: hook });
      const registry = withCallObserver(workRegistry(execute), observer);
      const result = await executeToolCall(registry, workCall(), live());
      expect(result.content).toBe('"ran"');
      expect(execute).toHaveBeenCalledOnce();
    },
  );

  test("a Tool that throws synchronously inside the hook's run: the same error result", async () => {
    const { observer, facts } = recorder();
    const registry = withCallObserver(
      workRegistry(() => {
        throw new Error("sync failure");
      }),
      observer,
    );
    const result = await executeToolCall(registry, workCall(), live());
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_EXECUTION_FAILED", message: "sync failure" },
    });
    expect(facts[0]?.code).toBe("TOOL_EXECUTION_FAILED");
    expect(facts[0]?.phase).toBe("execute");
  });

  test("the serializer calls the live Object.hasOwn exactly as often with an observer as without", async () => {
    const output = { b: { c: 1, d: [1, 2] }, a: "x" };
    const count = async (registry: ToolRegistry) => {
      const spy = vi.spyOn(Object, "hasOwn");
      try {
        await executeToolCall(registry, workCall(), live());
        return spy.mock.calls.filter(([target]) => target === output || target === output.b).length;
      } finally {
        spy.mockRestore();
      }
    };
    const plain = workRegistry(async () => output);
    const observed = withCallObserver(plain, recorder().observer);
    const unobservedCount = await count(plain);
    expect(unobservedCount).toBe(4);
    expect(await count(observed)).toBe(unobservedCount);
  });
});
