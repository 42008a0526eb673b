import { getEventListeners } from "node:events";
import { describe, expect, test, vi } from "vitest";
import {
  type CourseToolCall,
  type CourseToolResultMessage,
  defineTool,
  ToolRegistry,
} from "../../course/src/index.ts";
import { accept, call, gatedTools, nextTurn, until } from "../../test/support/rounds.ts";
import { executeToolCalls } from "./index.ts";

const errorCode = (result: CourseToolResultMessage | undefined): string | undefined =>
  result?.isError === true ? JSON.parse(result.content).error.code : undefined;

describe("ordering", () => {
  test("results come back in call order when the calls finish in reverse order", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const round = executeToolCalls(
      tools.registry,
      [call("a"), call("b"), call("c"), call("d")],
      run.signal,
      { concurrency: Number.POSITIVE_INFINITY },
    );
    await until(() => tools.started.length === 4);
    for (const id of ["d", "c", "b", "a"]) await tools.release(id);
    const results = await round;
    expect(tools.ended).toEqual(["d", "c", "b", "a"]);
    expect(results.map((result) => result.toolCallId)).toEqual(["a", "b", "c", "d"]);
    expect(results.map((result) => result.content)).toEqual(['"a"', '"b"', '"c"', '"d"']);
    expect(Object.isFrozen(results)).toBe(true);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  test("every validator runs, in call order, before the first Tool executes", async () => {
    const log: string[] = [];
    const registry = new ToolRegistry([
      defineTool({
        name: "work",
        description: "Logs.",
        validate: (input) => {
          log.push(`validate ${(input as { n: number }).n}`);
          return accept(input);
        },
        execute: async (input) => {
          log.push(`execute ${(input as { n: number }).n}`);
          return "ok";
        },
      }),
    ]);
    const calls = [1, 2, 3].map((n) => call(`c${n}`, "work", { n }));
    await executeToolCalls(registry, calls, new AbortController().signal);
    expect(log).toEqual([
      "validate 1",
      "validate 2",
      "validate 3",
      "execute 1",
      "execute 2",
      "execute 3",
    ]);
  });
});

describe("concurrency", () => {
  test.each([1, 2, 3, Number.POSITIVE_INFINITY])(
    "with concurrency %s the number in flight reaches the limit and never exceeds it",
    async (concurrency) => {
      let inFlight = 0;
      const peaks: number[] = [];
      const registry = new ToolRegistry([
        defineTool({
          name: "work",
          description: "Takes a few turns.",
          validate: accept,
          execute: async () => {
            inFlight += 1;
            peaks.push(inFlight);
            await nextTurn();
            await nextTurn();
            inFlight -= 1;
            return "done";
          },
        }),
      ]);
      const calls = ["a", "b", "c", "d", "e", "f"].map((id) => call(id));
      const results = await executeToolCalls(registry, calls, new AbortController().signal, {
        concurrency,
      });
      expect(results).toHaveLength(6);
      expect(peaks).toHaveLength(6);
      expect(Math.max(...peaks)).toBe(Math.min(concurrency, 6));
    },
  );

  test("the default is sequential: the second call starts only after the first finished", async () => {
    const tools = gatedTools();
    const round = executeToolCalls(
      tools.registry,
      [call("a"), call("b")],
      new AbortController().signal,
    );
    await until(() => tools.started.length === 1);
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
    expect(tools.started).toEqual(["a"]);
    await tools.release("a");
    await tools.release("b");
    await expect(round).resolves.toHaveLength(2);
    expect(tools.started).toEqual(["a", "b"]);
  });
});

describe("timeoutMs", () => {
  test("a Tool that ignores its signal times out, frees its slot, and the round goes on", async () => {
    let sawReason: unknown;
    const registry = new ToolRegistry([
      defineTool({
        name: "stuck",
        description: "Ignores its signal.",
        validate: accept,
        execute: (_input, { signal }) => {
          signal.addEventListener("abort", () => {
            sawReason = signal.reason;
          });
          return new Promise(() => {});
        },
      }),
      defineTool({
        name: "quick",
        description: "Answers.",
        validate: accept,
        execute: async () => 1,
      }),
    ]);
    const run = new AbortController();
    const timeoutMs = vi.fn((name: string) => (name === "stuck" ? 5 : undefined));
    const results = await executeToolCalls(
      registry,
      [call("s", "stuck"), call("q", "quick")],
      run.signal,
      { timeoutMs },
    );
    expect(errorCode(results[0])).toBe("TOOL_TIMEOUT");
    expect(JSON.parse(results[0]?.content ?? "").error.message).toContain("may still be running");
    expect(results[1]).toMatchObject({ toolCallId: "q", content: "1", isError: false });
    expect((sawReason as DOMException).name).toBe("TimeoutError");
    expect(timeoutMs.mock.calls).toEqual([["stuck"], ["quick"]]);
    expect(run.signal.aborted).toBe(false);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });
});

describe("approve", () => {
  test("approved calls run and a denied call yields TOOL_APPROVAL_DENIED without running", async () => {
    const executed: string[] = [];
    const registry = new ToolRegistry([
      defineTool({
        name: "work",
        description: "Records.",
        validate: accept,
        execute: async (_input, { toolCallId }) => {
          executed.push(toolCallId);
          return "ran";
        },
      }),
    ]);
    const seen: Array<[CourseToolCall, string, boolean]> = [];
    const approve = async (approvedCall: CourseToolCall, tool: { name: string }) => {
      seen.push([approvedCall, tool.name, Object.isFrozen(approvedCall.arguments)]);
      return approvedCall.arguments.allowed === true;
    };
    const results = await executeToolCalls(
      registry,
      [
        call("yes-1", "work", { allowed: true }),
        call("no", "work", { allowed: false }),
        call("yes-2", "work", { allowed: true }),
      ],
      new AbortController().signal,
      { approve, concurrency: 2 },
    );
    expect(executed.sort()).toEqual(["yes-1", "yes-2"]);
    expect(results.map(errorCode)).toEqual([undefined, "TOOL_APPROVAL_DENIED", undefined]);
    expect(seen.map(([approvedCall, name, frozen]) => [approvedCall.id, name, frozen])).toEqual([
      ["yes-1", "work", true],
      ["no", "work", true],
      ["yes-2", "work", true],
    ]);
  });

  test("cancellation while a call waits for approval rejects the round and nothing runs", async () => {
    const execute = vi.fn(async () => "ran");
    const registry = new ToolRegistry([
      defineTool({ name: "work", description: "Never runs.", validate: accept, execute }),
    ]);
    const run = new AbortController();
    const reason = new Error("user pressed stop");
    const round = executeToolCalls(registry, [call("a"), call("b")], run.signal, {
      approve: () => new Promise<boolean>(() => {}),
      concurrency: 2,
    });
    await nextTurn();
    run.abort(reason);
    await expect(round).rejects.toBe(reason);
    expect(execute).not.toHaveBeenCalled();
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });
});

describe("maxArgumentCharacters", () => {
  test("oversized arguments are refused before their validator; the other calls run", async () => {
    const tools = gatedTools();
    const round = executeToolCalls(
      tools.registry,
      [call("small", "work", { t: "x" }), call("big", "work", { t: "x".repeat(50) })],
      new AbortController().signal,
      { maxArgumentCharacters: 20 },
    );
    await tools.release("small");
    const results = await round;
    expect(tools.validated).toEqual(['{"t":"x"}']);
    expect(tools.started).toEqual(["small"]);
    expect(results.map(errorCode)).toEqual([undefined, "TOOL_ARGUMENTS_INVALID"]);
  });
});
