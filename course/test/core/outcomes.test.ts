/**
 * How the boundary follows what `execute` returns: thenables that are
 * functions, native promises whose species lookup throws, and Proxies, which
 * are handed on as they are without a question asked of them.
 */
import { describe, expect, test } from "vitest";
import { executeToolCall } from "../../src/index.ts";
import { followOutcome } from "../../src/outcomes.ts";
import { countingHandler } from "./support/hostile.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

const runTool = (execute: () => unknown) =>
  executeToolCall(workRegistry(execute), workCall(), new AbortController().signal);

describe("following a Tool's outcome", () => {
  test("a function with a `then` method is followed like any thenable, its getter read once", async () => {
    let reads = 0;
    // biome-ignore lint/suspicious/noThenProperty: the attack is a callable thenable.
    const callable = Object.defineProperty(() => "not me", "then", {
      get() {
        reads += 1;
        return (onFulfilled: (value: unknown) => void) => onFulfilled("from then");
      },
    });
    const result = await runTool(() => callable);
    expect(result.isError).toBe(false);
    expect(result.content).toBe('"from then"');
    expect(reads).toBe(1);
  });

  test("a native promise whose `constructor` getter throws becomes TOOL_EXECUTION_FAILED", async () => {
    let reads = 0;
    const promise = Promise.resolve("never seen");
    Object.defineProperty(promise, "constructor", {
      get() {
        reads += 1;
        throw new Error("species lookup refused");
      },
    });
    const result = await runTool(() => promise);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content).error).toEqual({
      code: "TOOL_EXECUTION_FAILED",
      message: "species lookup refused",
    });
    expect(reads).toBe(1);
  });

  test.each([
    [
      "a Proxy of a plain object",
      // biome-ignore lint/suspicious/noThenProperty: a thenable behind a Proxy is the attack.
      () => ({ then: () => "never called" }),
    ],
    ["a Proxy of a native promise", () => Promise.resolve("never followed")],
    ["a Proxy of a function", () => () => "never called"],
  ])("%s is handed on as it is, and no trap runs", (_label, target) => {
    const { handler, traps } = countingHandler();
    const proxy = new Proxy(target() as object, handler);
    const fulfilled: unknown[] = [];
    const rejected: unknown[] = [];
    followOutcome(
      proxy,
      (value) => fulfilled.push(value),
      (reason) => rejected.push(reason),
    );
    expect(traps()).toBe(0);
    expect(fulfilled).toEqual([proxy]);
    expect(fulfilled[0]).toBe(proxy);
    expect(rejected).toEqual([]);
  });
});
