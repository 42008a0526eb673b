import { getEventListeners } from "node:events";
import { describe, expect, test, vi } from "vitest";
import {
  type CourseToolCall,
  defineTool,
  NonRecoverableToolError,
  ToolRegistry,
} from "../../course/src/index.ts";
import { accept, call, gatedTools, nextTurn, until } from "../../test/support/rounds.ts";
import { executeToolCalls } from "./index.ts";

describe("cancellation", () => {
  test("a run abort mid-round reaches every running Tool and rejects with the run's reason", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const reason = new Error("run cancelled");
    const finished: string[] = [];
    const round = executeToolCalls(tools.registry, [call("a"), call("b"), call("c")], run.signal, {
      concurrency: Number.POSITIVE_INFINITY,
      onEvent: (event) => {
        if (event.type === "tool.finished") finished.push(event.result.toolCallId);
      },
    });
    await until(() => tools.started.length === 3);
    await tools.release("b");
    run.abort(reason);
    await expect(round).rejects.toBe(reason);
    // "b" finished (its effects happened) and was reported; nothing was invented for "a" and "c".
    expect(finished).toEqual(["b"]);
    expect(tools.signals.get("a")?.reason).toBe(reason);
    expect(tools.signals.get("c")?.reason).toBe(reason);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  test("calls that had not started when the run aborted never start", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const round = executeToolCalls(tools.registry, [call("a"), call("b")], run.signal);
    await until(() => tools.started.length === 1);
    run.abort();
    await expect(round).rejects.toMatchObject({ name: "AbortError" });
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
    expect(tools.started).toEqual(["a"]);
  });

  test("an already aborted run rejects with its reason before any validator runs", async () => {
    const tools = gatedTools();
    const reason = new Error("too late");
    await expect(
      executeToolCalls(tools.registry, [call("a")], AbortSignal.abort(reason)),
    ).rejects.toBe(reason);
    expect(tools.validated).toHaveLength(0);
  });

  test("a call whose getter aborts the run and throws rejects with the run's reason", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const reason = new Error("aborted by a getter");
    const hostile = {
      type: "toolCall",
      get id(): string {
        run.abort(reason);
        throw new Error("getter threw");
      },
      name: "work",
      arguments: {},
    };
    await expect(
      executeToolCalls(tools.registry, [hostile as unknown as CourseToolCall], run.signal),
    ).rejects.toBe(reason);
    expect(tools.validated).toHaveLength(0);
  });

  test("a validator that aborts the run stops the round before any Tool runs", async () => {
    const run = new AbortController();
    const reason = new Error("validator pulled the plug");
    const execute = vi.fn(async () => "ran");
    const registry = new ToolRegistry([
      defineTool({
        name: "work",
        description: "Aborts while validating.",
        validate: (input) => {
          run.abort(reason);
          return accept(input);
        },
        execute,
      }),
    ]);
    await expect(executeToolCalls(registry, [call("a"), call("b")], run.signal)).rejects.toBe(
      reason,
    );
    expect(execute).not.toHaveBeenCalled();
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  test("a forged abort event on a run that did not abort changes nothing", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const round = executeToolCalls(tools.registry, [call("a")], run.signal);
    await until(() => tools.started.length === 1);
    run.signal.dispatchEvent(new Event("abort"));
    await tools.release("a");
    await expect(round).resolves.toMatchObject([{ toolCallId: "a", content: '"a"' }]);
    expect(tools.signals.get("a")?.aborted).toBe(false);
  });

  test("a listener that aborts the run on tool.started keeps that call from running", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const reason = new Error("stopped from the listener");
    const round = executeToolCalls(tools.registry, [call("a"), call("b")], run.signal, {
      onEvent: (event) => {
        if (event.type === "tool.started") run.abort(reason);
      },
    });
    await expect(round).rejects.toBe(reason);
    for (let turn = 0; turn < 5; turn += 1) await nextTurn();
    expect(tools.started).toEqual([]);
  });

  test("an overridden addEventListener on the run signal is never called", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const overridden = { add: 0, remove: 0 };
    Object.defineProperty(run.signal, "addEventListener", {
      value: () => {
        overridden.add += 1;
      },
    });
    Object.defineProperty(run.signal, "removeEventListener", {
      value: () => {
        overridden.remove += 1;
      },
    });
    const round = executeToolCalls(tools.registry, [call("a")], run.signal);
    await until(() => tools.started.length === 1);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(1);
    await tools.release("a");
    await round;
    expect(overridden).toEqual({ add: 0, remove: 0 });
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });
});

describe("fatal errors", () => {
  test("a registered NonRecoverableToolError aborts the other running Tools and rejects the round", async () => {
    const fatal = new NonRecoverableToolError("ledger checksum mismatch");
    const tools = gatedTools();
    const registry = new ToolRegistry([
      tools.registry.get("work") as NonNullable<ReturnType<ToolRegistry["get"]>>,
      defineTool({
        name: "broken",
        description: "Fails fatally.",
        validate: accept,
        execute: async () => {
          await nextTurn();
          throw fatal;
        },
      }),
    ]);
    const run = new AbortController();
    const round = executeToolCalls(
      registry,
      [call("a"), call("x", "broken"), call("c")],
      run.signal,
      { concurrency: Number.POSITIVE_INFINITY },
    );
    await expect(round).rejects.toBe(fatal);
    expect(tools.signals.get("a")?.reason).toBe(fatal);
    expect(tools.signals.get("c")?.reason).toBe(fatal);
    expect(run.signal.aborted).toBe(false);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });

  test("a fatal error from a validator rejects the round with zero executions", async () => {
    const fatal = new NonRecoverableToolError("schema registry corrupted");
    const execute = vi.fn(async () => "ran");
    const registry = new ToolRegistry([
      defineTool({ name: "work", description: "Fine.", validate: accept, execute }),
      defineTool({
        name: "broken",
        description: "Validator fails fatally.",
        validate: () => {
          throw fatal;
        },
        execute,
      }),
    ]);
    const run = new AbortController();
    await expect(
      executeToolCalls(registry, [call("a"), call("x", "broken")], run.signal),
    ).rejects.toBe(fatal);
    expect(execute).not.toHaveBeenCalled();
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });
});
