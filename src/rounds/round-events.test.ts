import { getEventListeners } from "node:events";
import { afterEach, describe, expect, test } from "vitest";
import { call, echoTools, gatedTools, nextTurn, until } from "../../test/support/rounds.ts";
import { executeToolCalls, ROUND_LISTENER_WARNING, type ToolRoundEvent } from "./index.ts";

const label = (event: ToolRoundEvent): string =>
  `${event.type === "tool.started" ? "started" : "finished"} ${event.call.id}`;

describe("event order", () => {
  test.each([
    [
      1,
      ["a", "b", "c"],
      ["started a", "finished a", "started b", "finished b", "started c", "finished c"],
    ],
    [
      2,
      ["a", "b", "c"],
      ["started a", "started b", "finished a", "started c", "finished b", "finished c"],
    ],
    [
      2,
      ["b", "a", "c"],
      ["started a", "started b", "started c", "finished a", "finished b", "finished c"],
    ],
    [
      Number.POSITIVE_INFINITY,
      ["c", "b", "a"],
      ["started a", "started b", "started c", "finished a", "finished b", "finished c"],
    ],
  ])("concurrency %s, completion order %j: %j", async (concurrency, completion, expected) => {
    expect(completion).toHaveLength(3);
    const tools = gatedTools();
    const events: string[] = [];
    const round = executeToolCalls(
      tools.registry,
      [call("a"), call("b"), call("c")],
      new AbortController().signal,
      { concurrency, onEvent: (event) => void events.push(label(event)) },
    );
    for (const id of completion) await tools.release(id);
    await round;
    expect(tools.ended).toEqual(completion);
    expect(events).toEqual(expected);
  });

  test("events are frozen and tool.finished carries exactly the returned message", async () => {
    const events: ToolRoundEvent[] = [];
    const results = await executeToolCalls(
      echoTools(),
      [call("a"), call("nope", "missing")],
      new AbortController().signal,
      { onEvent: (event) => void events.push(event) },
    );
    expect(events.map(label)).toEqual(["started a", "finished a", "started nope", "finished nope"]);
    for (const event of events) {
      expect(Object.isFrozen(event)).toBe(true);
      expect(Object.isFrozen(event.call)).toBe(true);
    }
    const finished = events.filter((event) => event.type === "tool.finished");
    expect(finished.map((event) => event.result)).toEqual([results[0], results[1]]);
    expect(finished[0]?.result).toBe(results[0]);
    expect(finished[1]?.result).toBe(results[1]);
    expect(finished.map((event) => event.index)).toEqual([0, 1]);
  });

  test("a listener that aborts the run is never re-entered, and every finished call is reported", async () => {
    const tools = gatedTools();
    const run = new AbortController();
    const reason = new Error("stop after the first result");
    const events: string[] = [];
    let depth = 0;
    let deepest = 0;
    const round = executeToolCalls(tools.registry, [call("a"), call("b"), call("c")], run.signal, {
      concurrency: Number.POSITIVE_INFINITY,
      onEvent: (event) => {
        depth += 1;
        deepest = Math.max(deepest, depth);
        events.push(label(event));
        if (event.type === "tool.finished" && event.call.id === "a") run.abort(reason);
        depth -= 1;
      },
    });
    // Observed now: the round rejects while the last release is still being awaited.
    const outcome = round.catch((thrown: unknown) => thrown);
    await tools.release("c");
    await tools.release("b");
    await tools.release("a");
    expect(await outcome).toBe(reason);
    expect(deepest).toBe(1);
    expect(events).toEqual([
      "started a",
      "started b",
      "started c",
      "finished a",
      "finished b",
      "finished c",
    ]);
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
  });
});

describe("listener failures", () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === ROUND_LISTENER_WARNING) warnings.push(warning);
  };
  afterEach(() => {
    process.off("warning", onWarning);
    warnings.length = 0;
  });

  test("a throwing listener is reported once per throw through onEventError and never becomes a result", async () => {
    const thrown: unknown[] = [];
    const reported: Array<[unknown, string]> = [];
    const results = await executeToolCalls(
      echoTools(),
      [call("a"), call("b")],
      new AbortController().signal,
      {
        onEvent: (event) => {
          const error = new Error(`listener broke on ${label(event)}`);
          thrown.push(error);
          throw error;
        },
        onEventError: (error, event) => void reported.push([error, label(event)]),
      },
    );
    expect(results.map((result) => [result.content, result.isError])).toEqual([
      ['"ok"', false],
      ['"ok"', false],
    ]);
    expect(thrown).toHaveLength(4);
    expect(reported).toEqual([
      [thrown[0], "started a"],
      [thrown[1], "finished a"],
      [thrown[2], "started b"],
      [thrown[3], "finished b"],
    ]);
  });

  test("an async listener's rejection is reported once", async () => {
    const reported: unknown[] = [];
    const rejection = new Error("async listener failed");
    await executeToolCalls(echoTools(), [call("a")], new AbortController().signal, {
      onEvent: async (event) => {
        if (event.type === "tool.finished") throw rejection;
      },
      onEventError: (error) => void reported.push(error),
    });
    await until(() => reported.length > 0);
    for (let turn = 0; turn < 3; turn += 1) await nextTurn();
    expect(reported).toEqual([rejection]);
  });

  test("without onEventError each listener error becomes one process warning with the error as cause", async () => {
    process.on("warning", onWarning);
    const error = new Error("listener broke");
    await executeToolCalls(echoTools(), [call("a")], new AbortController().signal, {
      onEvent: (event) => {
        if (event.type === "tool.started") throw error;
      },
    });
    await until(() => warnings.length > 0);
    for (let turn = 0; turn < 3; turn += 1) await nextTurn();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.cause).toBe(error);
    expect(warnings[0]?.message).toContain('tool.started of Tool call "a"');
  });

  test("an onEventError that throws is itself reported as a process warning", async () => {
    process.on("warning", onWarning);
    const reporterError = new Error("reporter broke");
    const results = await executeToolCalls(echoTools(), [call("a")], new AbortController().signal, {
      onEvent: (event) => {
        if (event.type === "tool.finished") throw new Error("listener broke");
      },
      onEventError: () => {
        throw reporterError;
      },
    });
    await until(() => warnings.length > 0);
    for (let turn = 0; turn < 3; turn += 1) await nextTurn();
    expect(results[0]?.content).toBe('"ok"');
    expect(warnings.map((warning) => warning.cause)).toEqual([reporterError]);
  });
});
