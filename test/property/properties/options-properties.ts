/**
 * Properties of the per-call options: the argument budget is decided before
 * validation, the approval gate before any effect, and a deadline turns a
 * Tool that overstays into one TOOL_TIMEOUT result while its own signal aborts.
 */

import fc from "fast-check";
import { executeToolCall, NonRecoverableToolError } from "../../../course/src/index.ts";
import { plainJsonObject } from "../support/json-arbitraries.ts";
import {
  abortListeners,
  errorOf,
  nextMacrotask,
  outcomeOf,
  probeRegistry,
  toolCall,
} from "../support/tool-harness.ts";

/**
 * For any arguments and any budget: the validator runs exactly when the
 * arguments' compact JSON text (what `JSON.stringify` writes) fits in the
 * budget; otherwise the call is TOOL_ARGUMENTS_INVALID and nothing ran.
 */
export function argumentBudgetMatchesCompactJson(): fc.IAsyncProperty<
  [{ [key: string]: unknown }, number]
> {
  return fc.asyncProperty(
    plainJsonObject,
    fc.integer({ min: 1, max: 400 }),
    async (args, slack) => {
      const length = JSON.stringify(args).length;
      // Budgets on both sides of the exact length, the boundary included.
      const budget = Math.max(1, length + (slack % 7) - 3);
      const { registry, calls } = probeRegistry(
        (input) => ({ ok: true, value: input }),
        async () => ({ ran: true }),
      );
      const message = await executeToolCall(
        registry,
        toolCall("probe", args) as never,
        new AbortController().signal,
        { maxArgumentCharacters: budget },
      );
      const fits = length <= budget;
      if (fits !== (calls.validate === 1)) {
        throw new Error(
          `compact JSON of ${length} characters, budget ${budget}: validate ran ${calls.validate} times`,
        );
      }
      if (!fits && (calls.execute !== 0 || errorOf(message).code !== "TOOL_ARGUMENTS_INVALID")) {
        throw new Error(`over the budget but got ${message.content}`);
      }
    },
  );
}

/** How the approval gate answers, with whether the Tool may run and the code otherwise. */
export const APPROVALS = [
  ["answers true", "runs"],
  ["resolves true", "runs"],
  ["answers with a thenable of true", "runs"],
  ["answers false", "TOOL_APPROVAL_DENIED"],
  ["resolves false", "TOOL_APPROVAL_DENIED"],
  ['answers "yes"', "TOOL_APPROVAL_FAILED"],
  ["answers 1", "TOOL_APPROVAL_FAILED"],
  ["answers undefined", "TOOL_APPROVAL_FAILED"],
  ["throws", "TOOL_APPROVAL_FAILED"],
  ["rejects", "TOOL_APPROVAL_FAILED"],
  ["throws a NonRecoverableToolError", "rejects"],
  ["aborts the run, then answers true", "cancelled"],
  ["is pending when the run aborts", "cancelled"],
] as const;

type Approval = (typeof APPROVALS)[number];

/**
 * For any approval answer: `execute` runs only after a true answer, once; a
 * false answer is TOOL_APPROVAL_DENIED; anything else TOOL_APPROVAL_FAILED; a
 * registered fatal error and a cancellation reject; the gate saw the frozen
 * call; no listener is left.
 */
export function approvalGateDecidesBeforeEffects(): fc.IAsyncProperty<
  [Approval, { [key: string]: unknown }]
> {
  return fc.asyncProperty(
    fc.constantFrom(...APPROVALS),
    plainJsonObject,
    async ([kind, expected], args) => {
      const controller = new AbortController();
      const reason = new Error("stopped during approval");
      const fatal = new NonRecoverableToolError("approval invariant broken");
      let gateSawFrozenCall = false;
      const answer = (): unknown => {
        switch (kind) {
          case "answers true":
            return true;
          case "resolves true":
            return Promise.resolve(true);
          case "answers with a thenable of true":
            // biome-ignore lint/suspicious/noThenProperty: a thenable answer is allowed.
            return { then: (onFulfilled: (value: boolean) => void) => onFulfilled(true) };
          case "answers false":
            return false;
          case "resolves false":
            return Promise.resolve(false);
          case 'answers "yes"':
            return "yes";
          case "answers 1":
            return 1;
          case "answers undefined":
            return undefined;
          case "throws":
            throw new Error("the gate broke");
          case "rejects":
            return Promise.reject(new Error("the gate broke later"));
          case "throws a NonRecoverableToolError":
            throw fatal;
          case "aborts the run, then answers true":
            controller.abort(reason);
            return true;
          case "is pending when the run aborts":
            return new Promise(() => {});
        }
      };
      const { registry, calls } = probeRegistry(
        (input) => ({ ok: true, value: input }),
        async () => ({ ran: true }),
      );
      const pending = executeToolCall(
        registry,
        toolCall("probe", args) as never,
        controller.signal,
        {
          approve: (call) => {
            gateSawFrozenCall = Object.isFrozen(call) && Object.isFrozen(call.arguments);
            return answer() as boolean;
          },
        },
      );
      if (kind === "is pending when the run aborts") {
        await nextMacrotask();
        controller.abort(reason);
      }
      const outcome = await outcomeOf(pending);
      await nextMacrotask();
      if (!gateSawFrozenCall) throw new Error("the gate did not see a frozen call");
      if (abortListeners(controller.signal) !== 0) throw new Error("an abort listener was left");
      if (expected === "runs") {
        if (outcome.kind !== "resolved" || outcome.message.isError || calls.execute !== 1) {
          throw new Error(`an approved call did not run once (${calls.execute})`);
        }
        return;
      }
      if (calls.execute !== 0) throw new Error(`execute ran although the gate ${kind}`);
      if (expected === "cancelled" || expected === "rejects") {
        const wanted = expected === "cancelled" ? reason : fatal;
        if (outcome.kind !== "rejected" || outcome.reason !== wanted) {
          throw new Error(`expected a rejection when the gate ${kind}`);
        }
        return;
      }
      if (outcome.kind !== "resolved" || errorOf(outcome.message).code !== expected) {
        throw new Error(`expected ${expected} when the gate ${kind}`);
      }
    },
  );
}

/**
 * For any short deadline and a Tool that only stops when told: the call
 * resolves with one TOOL_TIMEOUT result, the Tool's own signal aborts with a
 * TimeoutError, the run's signal is neither aborted nor left with a listener,
 * and a Tool that finishes within a long deadline is unaffected.
 */
export function deadlineStopsOnlyOverstayingTools(): fc.IAsyncProperty<[number, boolean]> {
  return fc.asyncProperty(
    fc.integer({ min: 1, max: 5 }),
    fc.boolean(),
    async (timeoutMs, overstays) => {
      const run = new AbortController();
      let toolSignal: AbortSignal | undefined;
      const { registry } = probeRegistry(
        (input) => ({ ok: true, value: input }),
        (_input, context) => {
          toolSignal = context.signal;
          if (!overstays) return Promise.resolve({ quick: true });
          return new Promise((_resolve, reject) => {
            context.signal.addEventListener("abort", () => reject(context.signal.reason));
          });
        },
      );
      const message = await executeToolCall(registry, toolCall("probe", {}) as never, run.signal, {
        timeoutMs: overstays ? timeoutMs : 60_000,
      });
      await nextMacrotask();
      if (run.signal.aborted) throw new Error("the deadline aborted the whole run");
      if (abortListeners(run.signal) !== 0)
        throw new Error("an abort listener was left on the run");
      if (toolSignal === undefined) throw new Error("the Tool never ran");
      if (!overstays) {
        if (message.isError || toolSignal.aborted) throw new Error("a quick Tool was disturbed");
        return;
      }
      if (!message.isError || errorOf(message).code !== "TOOL_TIMEOUT") {
        throw new Error(`expected TOOL_TIMEOUT, got ${message.content}`);
      }
      const why = toolSignal.reason as { name?: unknown };
      if (!toolSignal.aborted || !(why instanceof DOMException) || why.name !== "TimeoutError") {
        throw new Error("the Tool's signal did not abort with a TimeoutError");
      }
    },
  );
}
