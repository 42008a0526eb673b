/**
 * Cancellation properties: whatever the abort reason, and wherever the abort
 * lands in a call (before it, inside a hostile getter, inside the validator,
 * inside the Tool, while the Tool is awaited, as it settles), the call rejects
 * with exactly that reason, never produces a result, and leaves no listener.
 */

import fc from "fast-check";
import { executeToolCall, NonRecoverableToolError } from "../../../course/src/index.ts";
import { plainJsonObject } from "../support/json-arbitraries.ts";
import {
  abortListeners,
  nextMacrotask,
  outcomeOf,
  probeRegistry,
  toolCall,
} from "../support/tool-harness.ts";

/** Where in a call the signal aborts. */
export const ABORT_POINTS = [
  "before-the-call",
  "in-a-call-getter-that-returns",
  "in-a-call-getter-that-throws",
  "in-an-arguments-getter",
  "in-a-validator-that-accepts",
  "in-a-validator-that-refuses",
  "in-a-validator-that-throws",
  "in-a-getter-of-the-decision",
  "in-the-synchronous-part-of-execute",
  "in-an-execute-that-then-throws",
  "while-execute-never-settles",
  "while-execute-rejects-later",
  "while-execute-resolves-later",
  "as-execute-resolves",
  "as-execute-rejects",
  "before-a-non-recoverable-error",
  "inside-a-thenable-output",
] as const;

/** One of {@link ABORT_POINTS}. */
export type AbortPoint = (typeof ABORT_POINTS)[number];

/** Kinds of abort reason; objects are made fresh for each run so identity means something. */
const reasonArbitrary: fc.Arbitrary<() => unknown> = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, 0, "", false, Number.NaN).map((value) => () => value),
  fc.string().map((text) => () => text),
  fc.integer().map((value) => () => value),
  fc
    .constantFrom("error", "object", "symbol", "function")
    .map(
      (kind) => () =>
        kind === "error"
          ? new Error("cancelled by the run")
          : kind === "object"
            ? { why: "cancelled" }
            : kind === "symbol"
              ? Symbol("cancelled")
              : () => "cancelled",
    ),
);

/** What one cancelled call did. */
export interface CancelledRun {
  readonly rejectedWith?: unknown;
  readonly resolved: boolean;
  readonly expected: unknown;
  readonly validateCalls: number;
  readonly executeCalls: number;
  readonly listenersAfter: number;
  readonly sameSignalSeen: boolean;
}

/** Runs one call with an abort at `point`; reports how it ended. */
export async function runAbortedAt(
  point: AbortPoint,
  reason: unknown,
  args: object,
): Promise<CancelledRun> {
  const controller = new AbortController();
  const abort = (): void => controller.abort(reason);
  let sameSignalSeen = true;
  let validate = (input: unknown): unknown => ({ ok: true, value: input });
  let execute = (_input: unknown, context: { signal: AbortSignal }): unknown => {
    sameSignalSeen = context.signal === controller.signal;
    return Promise.resolve({ done: true });
  };
  const withSignal =
    (body: () => unknown) =>
    (_input: unknown, context: { signal: AbortSignal }): unknown => {
      sameSignalSeen = context.signal === controller.signal;
      return body();
    };
  let call = toolCall("probe", args);
  let abortAfterStart = false;
  switch (point) {
    case "before-the-call":
      abort();
      break;
    case "in-a-call-getter-that-returns":
    case "in-a-call-getter-that-throws":
      call = { type: "toolCall", name: "probe", arguments: args };
      Object.defineProperty(call, "id", {
        enumerable: true,
        get() {
          abort();
          if (point === "in-a-call-getter-that-throws") throw new Error("hostile id getter");
          return "call-property";
        },
      });
      break;
    case "in-an-arguments-getter": {
      const hostileArgs = { ...args };
      Object.defineProperty(hostileArgs, "trigger", {
        enumerable: true,
        get() {
          abort();
          return 1;
        },
      });
      call = toolCall("probe", hostileArgs);
      break;
    }
    case "in-a-validator-that-accepts":
      validate = (input) => {
        abort();
        return { ok: true, value: input };
      };
      break;
    case "in-a-validator-that-refuses":
      validate = () => {
        abort();
        return { ok: false, error: "refused after the abort" };
      };
      break;
    case "in-a-validator-that-throws":
      validate = () => {
        abort();
        throw new Error("validator threw after the abort");
      };
      break;
    case "in-a-getter-of-the-decision":
      validate = () => ({
        get ok() {
          abort();
          return false;
        },
        error: "refused",
      });
      break;
    case "in-the-synchronous-part-of-execute":
      execute = withSignal(() => {
        abort();
        return Promise.resolve({ late: true });
      });
      break;
    case "in-an-execute-that-then-throws":
      execute = withSignal(() => {
        abort();
        throw new Error("threw after the abort");
      });
      break;
    case "while-execute-never-settles":
      execute = withSignal(() => new Promise(() => {}));
      abortAfterStart = true;
      break;
    case "while-execute-rejects-later":
      execute = withSignal(
        () => new Promise((_, reject) => setImmediate(() => reject(new Error("late failure")))),
      );
      abortAfterStart = true;
      break;
    case "while-execute-resolves-later":
      execute = withSignal(
        () => new Promise((resolve) => setImmediate(() => resolve({ late: 1 }))),
      );
      abortAfterStart = true;
      break;
    case "as-execute-resolves":
      execute = withSignal(async () => {
        await null;
        abort();
        return { value: 1 };
      });
      break;
    case "as-execute-rejects":
      execute = withSignal(async () => {
        await null;
        abort();
        throw new Error("rejected after the abort");
      });
      break;
    case "before-a-non-recoverable-error":
      execute = withSignal(async () => {
        abort();
        throw new NonRecoverableToolError("fatal after the abort");
      });
      break;
    case "inside-a-thenable-output":
      execute = withSignal(() => ({
        // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point.
        then(onFulfilled: (value: unknown) => void) {
          abort();
          onFulfilled({ value: 1 });
        },
      }));
      break;
  }
  const { registry, calls } = probeRegistry(validate, execute);
  const pending = executeToolCall(registry, call as never, controller.signal);
  if (abortAfterStart) {
    await Promise.resolve();
    abort();
  }
  const outcome = await outcomeOf(pending);
  // Let a Tool's late settlement happen inside this run, where a leak would be seen.
  await nextMacrotask();
  await nextMacrotask();
  return {
    ...(outcome.kind === "rejected" ? { rejectedWith: outcome.reason } : {}),
    resolved: outcome.kind === "resolved",
    expected: controller.signal.reason,
    validateCalls: calls.validate,
    executeCalls: calls.execute,
    listenersAfter: abortListeners(controller.signal),
    sameSignalSeen,
  };
}

const BEFORE_VALIDATION = new Set<AbortPoint>([
  "before-the-call",
  "in-a-call-getter-that-returns",
  "in-a-call-getter-that-throws",
  "in-an-arguments-getter",
]);
const BEFORE_EXECUTION = new Set<AbortPoint>([
  "in-a-validator-that-accepts",
  "in-a-validator-that-refuses",
  "in-a-validator-that-throws",
  "in-a-getter-of-the-decision",
]);

/**
 * For every abort point, reason and arguments: the call rejects with exactly
 * the signal's reason (the given one, or an AbortError for `undefined`), no
 * result exists, the Tool ran only as far as the point allows, and no abort
 * listener is left on the signal.
 */
export function cancellationWinsEverywhere(): fc.IAsyncProperty<
  [AbortPoint, () => unknown, { [key: string]: unknown }]
> {
  return fc.asyncProperty(
    fc.constantFrom(...ABORT_POINTS),
    reasonArbitrary,
    plainJsonObject,
    async (point, makeReason, args) => {
      const reason = makeReason();
      const run = await runAbortedAt(point, reason, args);
      if (run.resolved) throw new Error("a cancelled call produced a result");
      if (!Object.is(run.rejectedWith, run.expected)) {
        throw new Error("the rejection is not the signal's reason");
      }
      if (reason === undefined) {
        const error = run.rejectedWith as { name?: unknown };
        if (!(error instanceof DOMException) || error.name !== "AbortError") {
          throw new Error("an undefined reason did not become an AbortError");
        }
      } else if (!Object.is(run.rejectedWith, reason)) {
        throw new Error("the rejection is not the exact reason given");
      }
      if (BEFORE_VALIDATION.has(point) && run.validateCalls !== 0) {
        throw new Error("the validator ran after an abort during the call snapshot");
      }
      if ((BEFORE_VALIDATION.has(point) || BEFORE_EXECUTION.has(point)) && run.executeCalls !== 0) {
        throw new Error("execute ran after an abort before execution");
      }
      if (!run.sameSignalSeen) throw new Error("the Tool did not get the same signal");
      if (run.listenersAfter !== 0) throw new Error(`${run.listenersAfter} abort listeners left`);
    },
  );
}
