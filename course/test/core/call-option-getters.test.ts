/**
 * A call option's getter, or a `timeoutMs` function, is user code: whatever
 * it throws (a plain Error, a ToolContractError it made, one the library
 * made and kept, anything) comes out as INVALID_TOOL_CALL naming the option,
 * the thrown value as its cause, never as the thrown value itself; the Tool
 * does not run.
 */
import { describe, expect, test, vi } from "vitest";
import {
  executeToolCall,
  prepareToolCall,
  type ToolCallOptions,
  ToolContractError,
  ToolRegistry,
} from "../../src/index.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

/**
 * A contract error of the library's own, as a host could catch one and keep it: a getter or a
 * timeoutMs function that rethrows it must not pass for the library's own check.
 */
function libraryContractError(): ToolContractError {
  try {
    prepareToolCall(new ToolRegistry(), workCall(), undefined as unknown as AbortSignal);
  } catch (thrown) {
    if (thrown instanceof ToolContractError) return thrown;
  }
  throw new Error("prepareToolCall accepted a missing signal");
}

// What user code can throw: a plain Error, a ToolContractError it made, one the library made, or
// anything at all.
const THROWN: readonly (readonly [string, () => unknown])[] = [
  ["a plain Error", () => new Error("vault sealed")],
  ["a ToolContractError it made", () => new ToolContractError("INVALID_TOOL_CALL", "x")],
  ["a ToolContractError the library made", libraryContractError],
  ["a string", () => "no"],
];

// The output options (`truncate` and the rest) are read, and wrapped, by readOutputLevel.
const OPTION_KEYS = ["timeoutMs", "approve", "maxArgumentCharacters"] as const;

/** How a call settled: the rejection's reason, or a marker when it resolved. */
const settled = (pending: Promise<unknown>): Promise<unknown> =>
  pending.then(
    () => "resolved",
    (reason: unknown) => reason,
  );

describe("an option that throws when read", () => {
  test.each(
    OPTION_KEYS.flatMap((key) => THROWN.map(([label, make]) => [key, label, make] as const)),
  )(
    "the %s getter throwing %s is INVALID_TOOL_CALL naming the option, the throw its cause",
    async (key, _label, make) => {
      const thrown = make();
      const execute = vi.fn(async () => "ran");
      const options = Object.defineProperty({}, key, {
        enumerable: true,
        get() {
          throw thrown;
        },
      }) as ToolCallOptions;
      const error = await settled(
        executeToolCall(workRegistry(execute), workCall(), new AbortController().signal, options),
      );
      expect(error).not.toBe(thrown);
      expect(error).toBeInstanceOf(ToolContractError);
      expect(error).toMatchObject({
        code: "INVALID_TOOL_CALL",
        message: `Tool call option "${key}" threw when read`,
      });
      expect((error as ToolContractError).cause).toBe(thrown);
      expect(execute).not.toHaveBeenCalled();
    },
  );

  test("an inherited getter is read, and wrapped, like an own one", async () => {
    const thrown = libraryContractError();
    const options = Object.create(
      Object.defineProperty({}, "approve", {
        get() {
          throw thrown;
        },
      }),
    ) as ToolCallOptions;
    const error = await settled(
      executeToolCall(
        workRegistry(async () => "ran"),
        workCall(),
        new AbortController().signal,
        options,
      ),
    );
    expect(error).not.toBe(thrown);
    expect(error).toMatchObject({ message: 'Tool call option "approve" threw when read' });
  });

  test("prepareToolCall throws the same wrapped error synchronously", () => {
    const thrown = libraryContractError();
    const options = Object.defineProperty({}, "timeoutMs", {
      get() {
        throw thrown;
      },
    }) as ToolCallOptions;
    let error: unknown;
    try {
      prepareToolCall(
        workRegistry(async () => "ran"),
        workCall(),
        new AbortController().signal,
        options,
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).not.toBe(thrown);
    expect(error).toMatchObject({ message: 'Tool call option "timeoutMs" threw when read' });
    expect((error as ToolContractError).cause).toBe(thrown);
  });

  // A plain Error, or any value not ours, from the function: see the test above.
  test("a timeoutMs function rethrowing a ToolContractError the library made is wrapped", async () => {
    const thrown = libraryContractError();
    const execute = vi.fn(async () => "ran");
    const error = await settled(
      executeToolCall(workRegistry(execute), workCall(), new AbortController().signal, {
        timeoutMs: () => {
          throw thrown;
        },
      }),
    );
    expect(error).not.toBe(thrown);
    expect(error).toBeInstanceOf(ToolContractError);
    expect(error).toMatchObject({
      code: "INVALID_TOOL_CALL",
      message: "timeoutMs could not be resolved",
    });
    expect((error as ToolContractError).cause).toBe(thrown);
    expect(execute).not.toHaveBeenCalled();
  });

  // A guard against wrapping too much: the library's own checks still answer as themselves.
  test.each([
    [{ timeoutMs: 0 }, /^timeoutMs must be a positive number/],
    [{ timeoutMs: () => 0 }, /^timeoutMs for Tool "work" must be a positive number/],
    [{ approve: "yes" }, /^approve must be a function$/],
    [{ maxArgumentCharacters: 1.5 }, /^maxArgumentCharacters must be a positive integer$/],
  ])("a bad value %o is refused by the check, with no cause", async (options, message) => {
    const error = await settled(
      executeToolCall(
        workRegistry(async () => "ran"),
        workCall(),
        new AbortController().signal,
        options as ToolCallOptions,
      ),
    );
    expect(error).toBeInstanceOf(ToolContractError);
    expect((error as ToolContractError).message).toMatch(message);
    expect((error as ToolContractError).cause).toBeUndefined();
  });
});
