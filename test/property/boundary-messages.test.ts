/**
 * Pins the exact model-visible and host-visible messages of the Tool module,
 * which mutation testing showed no other test reads: a changed or emptied
 * message must fail here.
 */
import { getEventListeners } from "node:events";
import { describe, expect, test } from "vitest";
import {
  executeToolCall,
  prepareToolCall,
  runPreparedToolCall,
  ToolContractError,
  type ToolRegistry,
} from "../../course/src/index.ts";
import { errorOf, probeRegistry, toolCall } from "./support/tool-harness.ts";

const accept = (input: unknown) => ({ ok: true, value: input });
const signal = () => new AbortController().signal;

async function contractMessage(pending: Promise<unknown>): Promise<string> {
  const reason = await pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(reason).toBeInstanceOf(ToolContractError);
  expect((reason as ToolContractError).code).toBe("INVALID_TOOL_CALL");
  return (reason as ToolContractError).message;
}

describe("host-visible INVALID_TOOL_CALL messages", () => {
  test("names the missing AbortSignal when the signal is a look-alike object", async () => {
    const { registry } = probeRegistry(accept, async () => 1);
    const fake = { aborted: false, reason: undefined } as unknown as AbortSignal;
    await expect(
      contractMessage(executeToolCall(registry, toolCall("probe", {}) as never, fake)),
    ).resolves.toBe("executeToolCall needs an AbortSignal");
  });

  test("names the missing ToolRegistry when the registry is a plain object", async () => {
    const fake = { get: () => undefined } as unknown as ToolRegistry;
    await expect(
      contractMessage(executeToolCall(fake, toolCall("probe", {}) as never, signal())),
    ).resolves.toBe("executeToolCall needs a ToolRegistry");
  });

  test.each([
    ["an object not made by prepareToolCall", {}],
    ["null", null],
    ["a string", "prepared"],
  ])("refuses to run %s as a prepared call", async (_label, handle) => {
    await expect(contractMessage(runPreparedToolCall(handle as never))).resolves.toBe(
      "not a prepared Tool call, or it already ran",
    );
  });

  test("refuses a prepared call replayed after it ran, and runs the Tool once", async () => {
    const { registry, calls } = probeRegistry(accept, async () => 1);
    const prepared = prepareToolCall(registry, toolCall("probe", {}) as never, signal());
    await runPreparedToolCall(prepared);
    await expect(contractMessage(runPreparedToolCall(prepared))).resolves.toBe(
      "not a prepared Tool call, or it already ran",
    );
    expect(calls.execute).toBe(1);
  });
});

describe("invalid per-call options", () => {
  test.each([
    ["options that are not an object", 5, "Tool call options must be a plain object"],
    ["options that are null", null, "Tool call options must be a plain object"],
    ["options that are a Proxy", new Proxy({}, {}), "Tool call options must be a plain object"],
    [
      "a zero timeoutMs",
      { timeoutMs: 0 },
      "timeoutMs must be a positive number of milliseconds, at most 2147483647 (Infinity for none), or a function returning one",
    ],
    [
      "a timeoutMs longer than a timer holds",
      { timeoutMs: 2_147_483_648 },
      "timeoutMs must be a positive number of milliseconds, at most 2147483647 (Infinity for none), or a function returning one",
    ],
    [
      "a string timeoutMs",
      { timeoutMs: "5" },
      "timeoutMs must be a positive number of milliseconds, at most 2147483647 (Infinity for none), or a function returning one",
    ],
    ["an approve that is not a function", { approve: true }, "approve must be a function"],
    [
      "a fractional maxArgumentCharacters",
      { maxArgumentCharacters: 2.5 },
      "maxArgumentCharacters must be a positive integer",
    ],
    [
      "a zero maxArgumentCharacters",
      { maxArgumentCharacters: 0 },
      "maxArgumentCharacters must be a positive integer",
    ],
    [
      "a string maxArgumentCharacters",
      { maxArgumentCharacters: "9" },
      "maxArgumentCharacters must be a positive integer",
    ],
    [
      "a timeoutMs function that throws",
      {
        timeoutMs: () => {
          throw new Error("no deadline today");
        },
      },
      "timeoutMs could not be resolved",
    ],
    [
      "a timeoutMs function answering -1",
      { timeoutMs: () => -1 },
      'timeoutMs for Tool "probe" must be a positive number of milliseconds, at most 2147483647 (Infinity for none)',
    ],
  ])("rejects %s as INVALID_TOOL_CALL before the Tool runs", async (_label, options, message) => {
    const { registry, calls } = probeRegistry(accept, async () => 1);
    await expect(
      contractMessage(
        executeToolCall(registry, toolCall("probe", {}) as never, signal(), options as never),
      ),
    ).resolves.toBe(message);
    expect(calls.execute).toBe(0);
  });

  test.each([
    ["Infinity as the argument budget", { maxArgumentCharacters: Number.POSITIVE_INFINITY }],
    ["Infinity as the deadline", { timeoutMs: Number.POSITIVE_INFINITY }],
    ["a deadline function answering undefined", { timeoutMs: () => undefined }],
  ])("accepts %s as no limit and runs the Tool once", async (_label, options) => {
    const { registry, calls } = probeRegistry(accept, async () => ({ ran: true }));
    const result = await executeToolCall(
      registry,
      toolCall("probe", {}) as never,
      signal(),
      options,
    );
    expect(result.content).toBe('{"ran":true}');
    expect(calls.execute).toBe(1);
  });
});

describe("model-visible error results", () => {
  test.each([
    ['ok: "false" with an error', { ok: "false", error: "looks refused" }],
    ["an error without ok", { error: "no ok field" }],
    ["ok: 0 with an error", { ok: 0, error: "falsy but not false" }],
  ])(
    "a decision with %s is malformed (TOOL_VALIDATION_FAILED), not a refusal",
    async (_label, decision) => {
      const { registry, calls } = probeRegistry(
        () => decision,
        async () => 1,
      );
      const result = await executeToolCall(registry, toolCall("probe", {}) as never, signal());
      expect(errorOf(result)).toEqual({
        code: "TOOL_VALIDATION_FAILED",
        message:
          "Tool validator must return { ok: true, value } or { ok: false, error: non-blank string }",
      });
      expect(calls.execute).toBe(0);
    },
  );

  test.each([
    ["a resolved output", async () => ({ done: true })],
    ["a rejected output", async () => Promise.reject(new Error("failed"))],
    [
      "a thenable output",
      // biome-ignore lint/suspicious/noThenProperty: a thenable output is the case under test.
      () => ({ then: (resolve: (value: unknown) => void) => resolve(1) }),
    ],
  ])(
    "a call settling with %s leaves no abort listener on a long-lived signal",
    async (_label, execute) => {
      const run = new AbortController();
      const { registry } = probeRegistry(accept, execute as never);
      for (let round = 0; round < 3; round += 1) {
        await executeToolCall(registry, toolCall("probe", {}) as never, run.signal);
        expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
      }
    },
  );

  test.each([
    [
      "a Promise",
      () => Promise.resolve({ ok: true, value: 1 }),
      "Tool validator returned a Promise or thenable; validators must decide synchronously",
    ],
    [
      "null",
      () => null,
      "Tool validator must return { ok: true, value } or { ok: false, error: non-blank string }",
    ],
  ])(
    "a validator answering %s gets the fixed TOOL_VALIDATION_FAILED message",
    async (_label, validate, message) => {
      const { registry, calls } = probeRegistry(validate, async () => 1);
      const result = await executeToolCall(registry, toolCall("probe", {}) as never, signal());
      expect(errorOf(result)).toEqual({ code: "TOOL_VALIDATION_FAILED", message });
      expect(calls.execute).toBe(0);
    },
  );

  test.each([
    [
      "false",
      () => false,
      "TOOL_APPROVAL_DENIED",
      "The host did not approve this Tool call; it did not run",
    ],
    [
      '"yes"',
      () => "yes",
      "TOOL_APPROVAL_FAILED",
      "Approval must answer true or false; the Tool did not run",
    ],
    [
      "a throw of an Error",
      () => {
        throw new Error("gate offline");
      },
      "TOOL_APPROVAL_FAILED",
      "Approval failed (gate offline); the Tool did not run",
    ],
    [
      "a throw of a plain object",
      () => {
        throw {};
      },
      "TOOL_APPROVAL_FAILED",
      "Approval failed (the approval gate threw); the Tool did not run",
    ],
  ])(
    "an approval gate answering %s gives its fixed message and no execution",
    async (_label, approve, code, message) => {
      const { registry, calls } = probeRegistry(accept, async () => 1);
      const result = await executeToolCall(registry, toolCall("probe", {}) as never, signal(), {
        approve: approve as never,
      });
      expect(errorOf(result)).toEqual({ code, message });
      expect(calls.execute).toBe(0);
    },
  );

  test("arguments over the budget name the budget, and the validator never runs", async () => {
    const { registry, calls } = probeRegistry(accept, async () => 1);
    const result = await executeToolCall(
      registry,
      toolCall("probe", { text: "longer than five" }) as never,
      signal(),
      { maxArgumentCharacters: 5 },
    );
    expect(errorOf(result)).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "Tool arguments are longer than 5 characters of JSON",
    });
    expect(calls.validate).toBe(0);
  });

  test("a Tool past its deadline gets TOOL_TIMEOUT, and its signal a TimeoutError naming the deadline", async () => {
    let toolSignal: AbortSignal | undefined;
    const { registry } = probeRegistry(accept, (_input, context) => {
      toolSignal = context.signal;
      return new Promise(() => {});
    });
    const result = await executeToolCall(registry, toolCall("probe", {}) as never, signal(), {
      timeoutMs: 1,
    });
    expect(errorOf(result)).toEqual({
      code: "TOOL_TIMEOUT",
      message:
        'Tool "probe" did not finish within 1 ms and was asked to stop; it may still be running, and its effects are unknown',
    });
    const reason = toolSignal?.reason as DOMException | undefined;
    expect(toolSignal?.aborted).toBe(true);
    expect(reason?.name).toBe("TimeoutError");
    expect(reason?.message).toBe('Tool "probe" did not finish within 1 ms');
  });
});
