import { getEventListeners } from "node:events";
import { describe, expect, test, vi } from "vitest";
import { jsonTextExceeds } from "../../src/call-options.ts";
import {
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  executeToolCall,
  NonRecoverableToolError,
  prepareToolCall,
  runPreparedToolCall,
  ToolContractError,
  ToolRegistry,
} from "../../src/index.ts";
import type { CourseJsonValue } from "../../src/protocol.ts";
import { accept, workRegistry } from "./support/work-tool.ts";

const call = (name: string, args: Record<string, unknown> = {}, id = `call-${name}`) =>
  ({ type: "toolCall", id, name, arguments: args }) as CourseToolCall;

const registryWith = (
  execute: (input: unknown, context: { signal: AbortSignal }) => Promise<unknown>,
) => workRegistry(execute);

describe("timeoutMs", () => {
  test("a Tool that ignores its signal past the deadline yields TOOL_TIMEOUT and sees a TimeoutError", async () => {
    let seen: unknown;
    const registry = registryWith(async (_input, { signal }) => {
      signal.addEventListener("abort", () => {
        seen = signal.reason;
      });
      return new Promise(() => {});
    });
    const run = new AbortController();
    const result = await executeToolCall(registry, call("work"), run.signal, { timeoutMs: 5 });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content).error.code).toBe("TOOL_TIMEOUT");
    expect(JSON.parse(result.content).error.message).toContain("may still be running");
    expect((seen as DOMException).name).toBe("TimeoutError");
    expect(run.signal.aborted).toBe(false);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  // Counted through Node's list of active handles: a deadline timer left running
  // changes no result, it only holds the process open until the deadline passes.
  const activeTimers = (): number =>
    process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

  test.each([
    ["returns", async () => "done"],
    [
      "throws",
      async () => {
        throw new Error("broken");
      },
    ],
  ])("the deadline timer is stopped when the Tool %s in time", async (_label, execute) => {
    const registry = registryWith(execute);
    const before = activeTimers();
    const pending = executeToolCall(registry, call("work"), new AbortController().signal, {
      timeoutMs: 60_000,
    });
    expect(activeTimers()).toBe(before + 1);
    await pending;
    expect(activeTimers()).toBe(before);
  });

  test("the deadline timer is stopped when the run is cancelled", async () => {
    const run = new AbortController();
    const registry = registryWith(() => new Promise(() => {}));
    const before = activeTimers();
    const pending = executeToolCall(registry, call("work"), run.signal, { timeoutMs: 60_000 });
    expect(activeTimers()).toBe(before + 1);
    run.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    expect(activeTimers()).toBe(before);
  });

  test("the deadline can depend on the Tool's name, and undefined means none", async () => {
    const timeoutMs = vi.fn((name: string) => (name === "work" ? undefined : 1));
    const registry = registryWith(async () => "done");
    const result = await executeToolCall(registry, call("work"), new AbortController().signal, {
      timeoutMs,
    });
    expect(result.content).toBe('"done"');
    expect(timeoutMs).toHaveBeenCalledWith("work");
  });

  test("a run cancellation during a deadline rejects with the run's reason, never a timeout", async () => {
    const run = new AbortController();
    const reason = new Error("run stopped");
    let toolSawReason: unknown;
    const registry = registryWith(async (_input, { signal }) => {
      signal.addEventListener("abort", () => {
        toolSawReason = signal.reason;
      });
      queueMicrotask(() => run.abort(reason));
      return new Promise(() => {});
    });
    await expect(
      executeToolCall(registry, call("work"), run.signal, { timeoutMs: 60_000 }),
    ).rejects.toBe(reason);
    expect(toolSawReason).toBe(reason);
  });

  test.each([0, -1, Number.NaN, "5", 2_147_483_648, Number.MAX_VALUE])(
    "refuses timeoutMs %s as INVALID_TOOL_CALL, plain or from a function",
    async (bad) => {
      const execute = vi.fn(async () => "never");
      const registry = registryWith(execute);
      for (const timeoutMs of [bad, () => bad]) {
        const error = await executeToolCall(registry, call("work"), new AbortController().signal, {
          timeoutMs: timeoutMs as number,
        }).catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(ToolContractError);
        expect((error as ToolContractError).code).toBe("INVALID_TOOL_CALL");
      }
      expect(execute).not.toHaveBeenCalled();
    },
  );

  // A timer holds at most 2^31 - 1 ms; Infinity or a longer delay handed to it
  // would fire after 1 ms, so these must mean "the Tool's whole run".
  test.each([
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a function answering Infinity", () => Number.POSITIVE_INFINITY],
    ["the longest deadline a timer holds", 2_147_483_647],
    ["a function answering the longest deadline", () => 2_147_483_647],
  ])("%s lets a Tool take its time", async (_label, timeoutMs) => {
    const registry = registryWith(() => new Promise((done) => setTimeout(() => done("slow"), 30)));
    const result = await executeToolCall(registry, call("work"), new AbortController().signal, {
      timeoutMs,
    });
    expect(result.isError).toBe(false);
    expect(result.content).toBe('"slow"');
  });
});

test("a timeoutMs function that throws rejects INVALID_TOOL_CALL with the thrown value as its cause", async () => {
  const thrown = new Error("no deadline today");
  const execute = vi.fn(async () => "ran");
  const pending = executeToolCall(
    registryWith(execute),
    call("work"),
    new AbortController().signal,
    {
      timeoutMs: () => {
        throw thrown;
      },
    },
  );
  const error = await pending.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ToolContractError);
  expect((error as ToolContractError).cause).toBe(thrown);
  expect(execute).not.toHaveBeenCalled();
});

describe("approve", () => {
  test.each([
    [true, false, 1],
    [false, true, 0],
  ])("answer %s: isError %s, %i executions", async (answer, isError, executions) => {
    const execute = vi.fn(async () => "ran");
    const registry = registryWith(execute);
    const approve = vi.fn(async () => answer);
    const result = await executeToolCall(registry, call("work"), new AbortController().signal, {
      approve,
    });
    expect(result.isError).toBe(isError);
    expect(execute).toHaveBeenCalledTimes(executions);
    expect(approve).toHaveBeenCalledTimes(1);
    if (isError) expect(JSON.parse(result.content).error.code).toBe("TOOL_APPROVAL_DENIED");
  });

  test("an approval gate that throws yields TOOL_APPROVAL_FAILED and nothing runs", async () => {
    const execute = vi.fn(async () => "ran");
    const result = await executeToolCall(
      registryWith(execute),
      call("work"),
      new AbortController().signal,
      {
        approve: () => {
          throw new Error("approver offline");
        },
      },
    );
    expect(JSON.parse(result.content).error).toEqual({
      code: "TOOL_APPROVAL_FAILED",
      message: "Approval failed (approver offline); the Tool did not run",
    });
    expect(execute).not.toHaveBeenCalled();
  });

  test("cancellation while waiting for approval rejects with the reason and nothing runs", async () => {
    const execute = vi.fn(async () => "ran");
    const run = new AbortController();
    const reason = new Error("user pressed stop");
    const pending = executeToolCall(registryWith(execute), call("work"), run.signal, {
      approve: () => new Promise<boolean>(() => {}),
    });
    run.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(execute).not.toHaveBeenCalled();
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  test("a registered NonRecoverableToolError from the gate rejects the call", async () => {
    const fatal = new NonRecoverableToolError("policy store corrupted");
    await expect(
      executeToolCall(
        registryWith(async () => "ran"),
        call("work"),
        new AbortController().signal,
        {
          approve: () => {
            throw fatal;
          },
        },
      ),
    ).rejects.toBe(fatal);
  });
});

describe("maxArgumentCharacters", () => {
  test.each([
    [{ text: "abc" }, 14, false],
    [{ text: "abc" }, 13, true],
  ])("arguments %j with a budget of %i are refused: %s", async (args, budget, refused) => {
    const validate = vi.fn(accept);
    const registry = new ToolRegistry([
      defineTool({ name: "work", description: "Does work.", validate, execute: async () => "ok" }),
    ]);
    const result = await executeToolCall(
      registry,
      call("work", args),
      new AbortController().signal,
      {
        maxArgumentCharacters: budget,
      },
    );
    expect(result.isError).toBe(refused);
    expect(validate).toHaveBeenCalledTimes(refused ? 0 : 1);
    if (refused) expect(JSON.parse(result.content).error.code).toBe("TOOL_ARGUMENTS_INVALID");
  });

  test("an enumerable key planted on Object.prototype is not counted", async () => {
    const validate = vi.fn(accept);
    const registry = new ToolRegistry([
      defineTool({ name: "work", description: "Does work.", validate, execute: async () => "ok" }),
    ]);
    const args = { text: "abc" };
    const budget = JSON.stringify(args).length;
    // Planted only while the boundary runs: the test's own assertions come after.
    Object.defineProperty(Object.prototype, "planted", {
      value: "x".repeat(100),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    let result: CourseToolResultMessage;
    try {
      result = await executeToolCall(registry, call("work", args), new AbortController().signal, {
        maxArgumentCharacters: budget,
      });
    } finally {
      delete (Object.prototype as { planted?: unknown }).planted;
    }
    expect(result.isError).toBe(false);
    expect(validate).toHaveBeenCalledTimes(1);
    expect("planted" in {}).toBe(false);
  });

  test("a DAG of shared references is measured with work bounded by the budget", async () => {
    let node: Record<string, unknown> = { leaf: "x" };
    for (let level = 0; level < 40; level += 1) node = { a: node, b: node };
    const validate = vi.fn(accept);
    const registry = new ToolRegistry([
      defineTool({ name: "work", description: "Does work.", validate, execute: async () => "ok" }),
    ]);
    const result = await executeToolCall(
      registry,
      call("work", node),
      new AbortController().signal,
      {
        maxArgumentCharacters: 10_000,
      },
    );
    expect(JSON.parse(result.content).error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(validate).not.toHaveBeenCalled();
  });
});

describe("prepareToolCall and runPreparedToolCall", () => {
  test("validation happens in prepare, effects only in run, and a handle runs once", async () => {
    const execute = vi.fn(async () => "ran");
    const validate = vi.fn(accept);
    const registry = new ToolRegistry([
      defineTool({ name: "work", description: "Does work.", validate, execute }),
    ]);
    const prepared = prepareToolCall(
      registry,
      call("work", { a: 1 }),
      new AbortController().signal,
    );
    expect(validate).toHaveBeenCalledTimes(1);
    expect(execute).not.toHaveBeenCalled();
    expect(prepared.result).toBeUndefined();
    expect(Object.isFrozen(prepared.call.arguments)).toBe(true);
    await expect(runPreparedToolCall(prepared)).resolves.toMatchObject({ content: '"ran"' });
    expect(execute).toHaveBeenCalledTimes(1);
    const again = await runPreparedToolCall(prepared).catch((thrown: unknown) => thrown);
    expect((again as ToolContractError).code).toBe("INVALID_TOOL_CALL");
    expect(execute).toHaveBeenCalledTimes(1);
  });

  test("a forged handle is refused as INVALID_TOOL_CALL without running anything", async () => {
    const forged = { call: call("work"), result: undefined };
    const error = await runPreparedToolCall(forged).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ToolContractError);
  });

  test("an unknown Tool is decided in prepare, and run resolves with that result", async () => {
    const prepared = prepareToolCall(
      new ToolRegistry(),
      call("nope"),
      new AbortController().signal,
    );
    expect(prepared.result?.content).toBe(
      '{"error":{"code":"TOOL_NOT_FOUND","message":"Unknown Tool \\"nope\\""}}',
    );
    await expect(runPreparedToolCall(prepared)).resolves.toBe(prepared.result);
  });
});

describe("the argument budget counts what JSON.stringify writes", () => {
  // Exact at the limit and one below it: a count off by one either way fails.
  const expectExactCount = (value: CourseJsonValue): void => {
    const length = JSON.stringify(value).length;
    expect(jsonTextExceeds(value, length)).toBe(false);
    expect(jsonTextExceeds(value, length - 1)).toBe(true);
  };

  test("every UTF-16 code unit alone, as a value and as a key, at the end of the text", () => {
    let checked = 0;
    for (let unit = 0; unit <= 0xffff; unit += 1) {
      const text = String.fromCharCode(unit);
      expectExactCount(text);
      expectExactCount({ [text]: 1 });
      checked += 1;
    }
    expect(checked).toBe(0x10000);
    // 262,144 assertions: seconds on a shared two-core machine (a limit, not a measurement).
  }, 60_000);

  // The surrogate ranges' edges, paired and unpaired, in both orders.
  const edges = [0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000];
  const hex = (unit: number): string => unit.toString(16);
  const pairs = edges.flatMap((first) =>
    edges.map((second) => ({ first, second, label: `${hex(first)} ${hex(second)}` })),
  );
  test("the list of surrogate edge pairs is not empty", () => {
    expect(pairs.length).toBe(36);
  });
  test.each(pairs)("the code units $label, alone and between letters", ({ first, second }) => {
    const pair = String.fromCharCode(first, second);
    expectExactCount(pair);
    expectExactCount(`a${pair}b`);
    expectExactCount([pair, pair]);
  });
});
