/**
 * The array iterator is a global a Tool can patch (`Array.prototype[Symbol.iterator]`
 * or the iterator's `next`): destructuring an array, `for…of` and spreading
 * one all run it. The boundary runs none of them on its own lists, so a
 * patched iterator that throws cannot stop a result from being written (a
 * call that never settled, and an unhandled rejection), nor make a refused
 * value pass. Each attack counts the iterator's runs and asserts none.
 */
import { afterEach, describe, expect, test } from "vitest";
import { executeToolCall, serializeToolOutput } from "../../src/index.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

const original = Array.prototype[Symbol.iterator];
const arrayIteratorPrototype = Object.getPrototypeOf([][Symbol.iterator]()) as {
  next: () => unknown;
};
const originalNext = arrayIteratorPrototype.next;
let runs = 0;

/**
 * Replaces both the iterator and its `next` with functions that count, put the
 * originals back and throw: once is enough to break an unguarded step, and the
 * test runner's own iterators keep working.
 */
function patchIterators(): void {
  Array.prototype[Symbol.iterator] = function patched() {
    runs += 1;
    restoreIterators();
    throw new Error("patched iterator");
  };
  arrayIteratorPrototype.next = () => {
    runs += 1;
    restoreIterators();
    throw new Error("patched next");
  };
}

function restoreIterators(): void {
  Array.prototype[Symbol.iterator] = original;
  arrayIteratorPrototype.next = originalNext;
}

/**
 * The call's result, or "never settled" when it has not settled within a
 * second. Not `Promise.race`: it iterates its list, and the Tool patches the
 * iterator before the race would start.
 */
function settledWithin<T>(promise: Promise<T>): Promise<T | "never settled"> {
  return new Promise((resolve, reject) => {
    setTimeout(() => resolve("never settled"), 1_000);
    promise.then(resolve, reject);
  });
}

afterEach(() => {
  restoreIterators();
  runs = 0;
});

describe("a patched array iterator", () => {
  test("cannot keep a failing Tool's error result from being written", async () => {
    const registry = workRegistry(async () => {
      patchIterators();
      throw new Error("tool failed");
    });
    const result = await settledWithin(
      executeToolCall(registry, workCall(), new AbortController().signal),
    );
    // Still armed when the boundary never ran it: disarmed before the test's own checks.
    restoreIterators();
    expect(runs).toBe(0);
    if (result === "never settled") throw new Error("the call never settled");
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content)).toEqual({
      error: { code: "TOOL_EXECUTION_FAILED", message: "tool failed" },
    });
  });

  test.each([
    ["a Map with a null prototype", () => Object.setPrototypeOf(new Map(), null), "Map objects"],
    [
      "a Date with a null prototype",
      () => Object.setPrototypeOf(new Date(0), null),
      "Date objects",
    ],
  ])("cannot make %s pass as a plain object", async (_name, make, kind) => {
    const registry = workRegistry(async () => {
      patchIterators();
      return { value: make() };
    });
    const result = await settledWithin(
      executeToolCall(registry, workCall(), new AbortController().signal),
    );
    // Still armed when the boundary never ran it: disarmed before the test's own checks.
    restoreIterators();
    expect(runs).toBe(0);
    if (result === "never settled") throw new Error("the call never settled");
    expect(JSON.parse(result.content)).toEqual({
      error: {
        code: "TOOL_OUTPUT_SERIALIZATION_FAILED",
        message: `$.value: ${kind} are not supported`,
      },
    });
  });

  test("is not run by serializeToolOutput's options", () => {
    patchIterators();
    let serialized: ReturnType<typeof serializeToolOutput>;
    try {
      serialized = serializeToolOutput("x".repeat(2_000), {
        outputBudget: { maxCharacters: 1_024 },
        truncate: "tail",
      });
    } finally {
      restoreIterators();
    }
    expect(runs).toBe(0);
    expect(serialized.ok && serialized.truncated).toBe(true);
  });
});
