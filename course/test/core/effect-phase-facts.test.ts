/**
 * What the effect phase tells an observer and what it hands the Tool: the
 * phase a call was in when it was cancelled (before it ran, waiting for
 * approval, while the Tool ran), the kind of a fatal rejection, the context
 * an observed Tool gets; and two ways an output reaches the phase after the
 * usual watch cannot help: a deadline that already answered, and an abort
 * whose event never reaches our listener.
 */
import { describe, expect, test, vi } from "vitest";
import type { CallFacts, CallObserver } from "../../src/call-observer.ts";
import {
  type CourseToolExecutionContext,
  executeToolCall,
  NonRecoverableToolError,
  prepareToolCall,
  runPreparedToolCall,
  type ToolCallOptions,
  toolContent,
} from "../../src/index.ts";
import { withCallObserver } from "../../src/internal.ts";
import { workCall, workRegistry } from "./support/work-tool.ts";

/** A registry of the work Tool running `execute`, observed; `facts` fills as calls end. */
function observed(execute: (input: unknown, context: CourseToolExecutionContext) => unknown) {
  const facts: CallFacts[] = [];
  const observer: CallObserver<string> = {
    start: () => "observed",
    resume: () => {},
    execute: (_state, _call, _tool, run) => run(),
    end: (_state, ended) => {
      facts.push(ended);
    },
  };
  return { registry: withCallObserver(workRegistry(execute), observer), facts };
}

describe("the phase an observer sees for a cancelled call", () => {
  test.each([
    ["without an approval gate", "execute", {}],
    ["with an approval gate", "approval", { approve: () => true }],
  ] as const)(
    "a prepared call aborted before it runs, %s: phase %s",
    async (_name, phase, options) => {
      const execute = vi.fn(() => "ran");
      const { registry, facts } = observed(execute);
      const controller = new AbortController();
      const prepared = prepareToolCall(registry, workCall(), controller.signal, options);
      const reason = new Error("stopped between the two steps");
      controller.abort(reason);
      await expect(runPreparedToolCall(prepared)).rejects.toBe(reason);
      expect(execute).not.toHaveBeenCalled();
      expect(facts).toHaveLength(1);
      expect(facts[0]).toMatchObject({ phase, rejection: "cancelled", reason, result: undefined });
    },
  );

  test("a call cancelled while its approval gate has not answered: phase approval", async () => {
    const execute = vi.fn(() => "ran");
    const { registry, facts } = observed(execute);
    const controller = new AbortController();
    const reason = new Error("stopped while waiting for approval");
    const running = executeToolCall(registry, workCall(), controller.signal, {
      approve: () => new Promise<boolean>(() => {}),
    });
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(execute).not.toHaveBeenCalled();
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ phase: "approval", rejection: "cancelled", reason });
  });

  test("an approved call cancelled while its Tool runs: phase execute, not approval", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped while running");
    const { registry, facts } = observed(() => {
      controller.abort(reason);
      return new Promise(() => {});
    });
    const running = executeToolCall(registry, workCall(), controller.signal, {
      approve: async () => true,
    });
    await expect(running).rejects.toBe(reason);
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ phase: "execute", rejection: "cancelled", reason });
  });
});

describe("an observed Tool", () => {
  test("a registered NonRecoverableToolError it throws is observed as non-recoverable", async () => {
    const fatal = new NonRecoverableToolError("the store is corrupted");
    const { registry, facts } = observed(async () => {
      throw fatal;
    });
    await expect(executeToolCall(registry, workCall(), new AbortController().signal)).rejects.toBe(
      fatal,
    );
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({
      phase: "execute",
      rejection: "non-recoverable",
      reason: fatal,
    });
  });

  test("gets the frozen { signal, toolCallId } context, as an unobserved Tool does", async () => {
    const contexts: CourseToolExecutionContext[] = [];
    const { registry } = observed((_input, context) => {
      contexts.push(context);
      return "ran";
    });
    const signal = new AbortController().signal;
    await executeToolCall(registry, workCall("call-7"), signal);
    expect(contexts).toHaveLength(1);
    const context = contexts[0] as CourseToolExecutionContext;
    expect(context.signal).toBe(signal);
    expect(context.toolCallId).toBe("call-7");
    expect(Object.isFrozen(context)).toBe(true);
  });
});

describe("outputs the abort watch cannot stop", () => {
  test("a Tool answering after its deadline: its late output is not spilled", async () => {
    let answer: (output: unknown) => void = () => {};
    const { registry } = observed(() => new Promise((done) => (answer = done)));
    const spill = vi.fn(() => "spill://late");
    const options: ToolCallOptions = {
      timeoutMs: 5,
      outputBudget: { maxCharacters: 1_024 },
      spill,
    };
    const result = await executeToolCall(
      registry,
      workCall(),
      new AbortController().signal,
      options,
    );
    expect(JSON.parse(result.content).error.code).toBe("TOOL_TIMEOUT");
    answer("x".repeat(5_000));
    await new Promise((wake) => setTimeout(wake, 20));
    expect(spill).not.toHaveBeenCalled();
  });

  test("a spill hook aborts a toolContent call whose abort event never reaches our listener: it rejects", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    // A signal with its own `aborted` gets a listener of ours on itself (no relay); a listener
    // added before ours swallows the event, so only the check after the spill hook sees the abort.
    Object.defineProperty(signal, "aborted", { value: false });
    const heard = vi.fn();
    signal.addEventListener("abort", (event) => {
      heard();
      event.stopImmediatePropagation();
    });
    const reason = new Error("the hook stopped the run");
    const { registry, facts } = observed(() =>
      toolContent([{ type: "text", text: "y".repeat(5_000) }]),
    );
    const spill = () => {
      controller.abort(reason);
      return "spill://aborted";
    };
    const running = executeToolCall(registry, workCall(), signal, {
      outputBudget: { maxCharacters: 1_024 },
      spill,
    });
    await expect(running).rejects.toBe(reason);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ rejection: "cancelled", result: undefined });
  });
});
