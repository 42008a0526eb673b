/**
 * The effect phase's own promise: `runReadyCall` calls `resolve` or `reject`
 * exactly once, whatever a hostile thenable, a late deadline or an abort does.
 * `executeToolCall` hides a second call behind its native promise, so these
 * tests hand the phase counting functions instead.
 */
import { describe, expect, test, vi } from "vitest";
import { type ReadyCall, runReadyCall } from "../../src/execution.ts";
import { type CourseToolCall, NonRecoverableToolError, toolContent } from "../../src/index.ts";
import { workRegistry } from "./support/work-tool.ts";

type Execute = (input: unknown, context: { signal: AbortSignal }) => unknown;

const call: CourseToolCall = Object.freeze({
  type: "toolCall",
  id: "call-1",
  name: "work",
  arguments: Object.freeze({}),
});

function ready(execute: Execute, overrides: Partial<ReadyCall> = {}): ReadyCall {
  const registry = workRegistry(execute);
  const tool = registry.get("work");
  if (tool === undefined) throw new Error("the Tool was not registered");
  return {
    call,
    tool,
    value: {},
    signal: new AbortController().signal,
    timeoutMs: undefined,
    approve: undefined,
    output: undefined,
    record: undefined,
    ...overrides,
  };
}

/** Runs the phase with counting callbacks; `settled` waits until one of them was called. */
function run(readyCall: ReadyCall) {
  const resolve = vi.fn();
  const reject = vi.fn();
  runReadyCall(readyCall, resolve, reject);
  const settled = vi.waitFor(() => {
    expect(resolve.mock.calls.length + reject.mock.calls.length).toBeGreaterThan(0);
  });
  return { resolve, reject, settled };
}

const later = () => new Promise((wake) => setTimeout(wake, 20));
const errorCode = (message: { content: string }): string =>
  JSON.parse(message.content).error.code as string;

/** A thenable whose `then` answers through both callbacks, several times over. */
const chattering = (answers: ReadonlyArray<readonly ["fulfil" | "reject", unknown]>) => ({
  // biome-ignore lint/suspicious/noThenProperty: the attack is a thenable.
  then(onFulfilled: (value: unknown) => void, onRejected: (reason: unknown) => void) {
    for (const [kind, value] of answers) (kind === "fulfil" ? onFulfilled : onRejected)(value);
  },
});

describe("runReadyCall settles exactly once", () => {
  test.each([
    [
      "fulfils twice",
      [
        ["fulfil", "first"],
        ["fulfil", "second"],
      ],
      false,
      '"first"',
    ],
    [
      "fulfils, then rejects",
      [
        ["fulfil", "first"],
        ["reject", new Error("late")],
      ],
      false,
      '"first"',
    ],
    [
      "rejects twice",
      [
        ["reject", new Error("one")],
        ["reject", new Error("two")],
      ],
      true,
      "one",
    ],
    [
      "rejects, then fulfils",
      [
        ["reject", new Error("one")],
        ["fulfil", "late"],
      ],
      true,
      "one",
    ],
  ] as const)(
    "a Tool whose thenable %s resolves once, with the first answer",
    async (_label, answers, isError, content) => {
      const { resolve, reject, settled } = run(ready(() => chattering(answers)));
      await settled;
      await later();
      expect(reject).not.toHaveBeenCalled();
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(resolve.mock.calls[0]?.[0].isError).toBe(isError);
      expect(resolve.mock.calls[0]?.[0].content).toContain(content);
    },
  );

  test("a Tool that answers after its deadline leaves only the TOOL_TIMEOUT result", async () => {
    let finish: (value: unknown) => void = () => {};
    const { resolve, reject, settled } = run(
      ready(() => new Promise((done) => (finish = done)), { timeoutMs: 5 }),
    );
    await settled;
    finish("too late");
    await later();
    expect(reject).not.toHaveBeenCalled();
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(errorCode(resolve.mock.calls[0]?.[0])).toBe("TOOL_TIMEOUT");
  });

  test("a Tool that fails after the run was aborted leaves only the rejection", async () => {
    const run$ = new AbortController();
    const reason = new Error("stop");
    let fail: (reason: unknown) => void = () => {};
    const { resolve, reject, settled } = run(
      ready(() => new Promise((_done, failed) => (fail = failed)), { signal: run$.signal }),
    );
    run$.abort(reason);
    await settled;
    fail(new Error("late failure"));
    await later();
    expect(resolve).not.toHaveBeenCalled();
    expect(reject).toHaveBeenCalledTimes(1);
    expect(reject).toHaveBeenCalledWith(reason);
  });

  test.each([
    ["a value", () => "done"],
    ["toolContent", () => toolContent([{ type: "text", text: "done" }])],
  ])("an abort after the Tool answered %s reaches nobody", async (_what, answer) => {
    const run$ = new AbortController();
    const { resolve, reject, settled } = run(ready(answer, { signal: run$.signal }));
    await settled;
    run$.abort(new Error("after the fact"));
    await later();
    expect(reject).not.toHaveBeenCalled();
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  test("a signal that is already aborted rejects at once; neither approval nor the Tool runs", () => {
    const reason = new Error("already stopped");
    const execute = vi.fn(() => "done");
    const approve = vi.fn(() => true);
    const resolve = vi.fn();
    const reject = vi.fn();
    runReadyCall(ready(execute, { signal: AbortSignal.abort(reason), approve }), resolve, reject);
    expect(reject).toHaveBeenCalledWith(reason);
    expect(resolve).not.toHaveBeenCalled();
    expect(approve).not.toHaveBeenCalled();
    expect(execute).not.toHaveBeenCalled();
  });
});

describe("an output whose one trap aborts the run and then throws a fatal error", () => {
  test("the abort settles the call; the fatal error met afterwards rejects nothing more", async () => {
    const run$ = new AbortController();
    const reason = new Error("stopped from inside the output");
    const fatal = new NonRecoverableToolError("thrown by the same trap");
    let traps = 0;
    // The serializer reads a Proxy prototype's prototype once (its one trap) before refusing it.
    const prototype = new Proxy(
      {},
      {
        getPrototypeOf() {
          traps += 1;
          run$.abort(reason);
          throw fatal;
        },
      },
    );
    const { resolve, reject, settled } = run(
      ready(() => Object.create(prototype), { signal: run$.signal }),
    );
    await settled;
    await later();
    expect(traps).toBe(1);
    expect(resolve).not.toHaveBeenCalled();
    expect(reject).toHaveBeenCalledTimes(1);
    expect(reject).toHaveBeenCalledWith(reason);
  });
});

describe("an approval gate that answers more than once", () => {
  test.each([
    [
      "yes twice",
      [
        ["fulfil", true],
        ["fulfil", true],
      ],
      1,
      false,
    ],
    [
      "yes, then a failure",
      [
        ["fulfil", true],
        ["reject", new Error("late")],
      ],
      1,
      false,
    ],
    [
      "a failure, then yes",
      [
        ["reject", new Error("broken")],
        ["fulfil", true],
      ],
      0,
      true,
    ],
    [
      "no, then yes",
      [
        ["fulfil", false],
        ["fulfil", true],
      ],
      0,
      true,
    ],
  ] as const)(
    "answering %s: only the first answer counts",
    async (_label, answers, runs, isError) => {
      // Asynchronous, so the call is still running when the second answer comes.
      const execute = vi.fn(async () => "done");
      const approve = () => chattering(answers) as unknown as boolean;
      const { resolve, reject, settled } = run(ready(execute, { approve }));
      await settled;
      await later();
      expect(execute).toHaveBeenCalledTimes(runs);
      expect(reject).not.toHaveBeenCalled();
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(resolve.mock.calls[0]?.[0].isError).toBe(isError);
    },
  );
});
