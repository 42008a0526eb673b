/**
 * `durableToolCall` and `durableToolCalls`: the Tool boundary as a step of a
 * Restate handler. They take the options of `executeToolCall` and
 * `executeToolCalls` and give the same results, events and order; what they
 * add is that a crash between "the model asked" and "the result is in the
 * journal" loses nothing and repeats no effect the Tool can see.
 */

import {
  type CourseToolCall,
  type CourseToolResultMessage,
  snapshotToolCall,
  type ToolCallOptions,
  ToolContractError,
  type ToolRegistry,
} from "../../course/src/index.ts";
import { isToolRegistry } from "../../course/src/internal.ts";
import type { ToolRoundOptions } from "../rounds/index.ts";
import { snapshotCallList } from "../rounds/round-calls.ts";
import { claimCallIds } from "./durable-calls.ts";
import { readDurableOptions } from "./durable-options.ts";
import { DurableRound } from "./durable-round.ts";
import { freeze, isProxy } from "./restate-intrinsics.ts";
import type { DurableContext } from "./restate-sdk.ts";

/** The option durable calls add to the core's: the journal's size limit. */
export interface DurableJournalOptions {
  /**
   * The most bytes one call's journal entry may take (default 33,554,432,
   * 32 MiB, under Restate's default message size limit; 1,048,576 to
   * 1,073,741,824). A call's `maxTotalBytes` is lowered to fit it, and a
   * result that still does not fit is journaled as
   * `TOOL_OUTPUT_SERIALIZATION_FAILED`: Restate would refuse the entry and
   * run the Tool again at every retry. Raise it with Restate's
   * `worker.invoker.message-size-limit`.
   */
  readonly maxJournalBytes?: number;
}

/**
 * Options of {@link durableToolCall}: those of `executeToolCall`, and
 * `maxJournalBytes`. `timeoutMs` becomes a durable timer and `approve` a
 * journaled decision; the others (`maxArgumentCharacters` and the output
 * settings) apply as they do there.
 *
 * @example
 * const options: DurableToolCallOptions = { timeoutMs: 30_000, approve: (call) => call.name !== "deleteFile" };
 */
export type DurableToolCallOptions = ToolCallOptions & DurableJournalOptions;

/**
 * Options of {@link durableToolCalls}: those of `executeToolCalls`
 * (`concurrency`, `onEvent`, `onEventError`, `maxRoundCharacters` and every
 * per-call option), with `timeoutMs` durable and `approve` journaled, and
 * `maxJournalBytes` for each call's journal entry.
 *
 * @example
 * const options: DurableToolRoundOptions = { concurrency: 4, timeoutMs: 30_000, maxRoundCharacters: 16_000 };
 */
export type DurableToolRoundOptions = ToolRoundOptions & DurableJournalOptions;

function invalid(message: string): never {
  throw new ToolContractError("INVALID_TOOL_CALL", message);
}

/** Checks the handler context and the registry; throws INVALID_TOOL_CALL naming `caller`. */
function checkInputs(ctx: unknown, registry: unknown, caller: string): void {
  if (
    typeof ctx !== "object" ||
    ctx === null ||
    isProxy(ctx) ||
    typeof (ctx as DurableContext).run !== "function" ||
    typeof (ctx as DurableContext).sleep !== "function" ||
    typeof (ctx as DurableContext).request !== "function"
  ) {
    invalid(`${caller} needs the Restate handler context (ctx)`);
  }
  if (!isToolRegistry(registry)) invalid(`${caller} needs a ToolRegistry`);
}

/** The snapshot of a single call, refused as `executeToolCall` refuses it. */
function snapshotOne(call: unknown): CourseToolCall {
  try {
    return snapshotToolCall(call);
  } catch (thrown) {
    if (thrown instanceof ToolContractError) throw thrown;
    throw new ToolContractError("INVALID_TOOL_CALL", "Tool call could not be read", {
      cause: thrown,
    });
  }
}

function runRound(
  ctx: DurableContext,
  registry: ToolRegistry,
  readCalls: () => readonly CourseToolCall[],
  options: unknown,
  round: boolean,
): Promise<readonly CourseToolResultMessage[]> {
  return new Promise<readonly CourseToolResultMessage[]>((resolve, reject) => {
    const caller = round ? "durableToolCalls" : "durableToolCall";
    try {
      checkInputs(ctx, registry, caller);
      const settings = readDurableOptions(options, round);
      const calls = readCalls();
      if (calls.length === 0) return resolve(freeze([]));
      claimCallIds(ctx, calls);
      new DurableRound({ ctx, registry, calls, settings, resolve, reject }).start();
    } catch (thrown) {
      reject(thrown);
    }
  });
}

/**
 * Runs one Tool call as a durable step of a Restate handler and resolves with
 * its result message, exactly as `executeToolCall` would write it.
 *
 * - Validation runs as it does there: synchronously, with no effect, and
 *   deterministically, so a replay reaches the same decision without a
 *   journal entry. A call it decides (unknown Tool, refused arguments, a
 *   failing validator) is answered at once.
 * - `approve` runs in a step of its own (`toolApproval:<call id>`); its
 *   decision is journaled, so a call approved once is never asked again.
 * - `execute` and the bounded serialization of its output run in one step,
 *   `toolCall:<call id>`, whose journal entry is the result message (never
 *   the raw output): a replay hands the model the same bytes. A recoverable
 *   error result is journaled like a success: the model reads it, the engine
 *   does not retry it. A crash or a lost connection is retried by the engine.
 * - `timeoutMs` is a durable timer (`toolDeadline:<call id>`), started when
 *   the Tool starts: past it the Tool's signal aborts with a `TimeoutError` and
 *   the result is `TOOL_TIMEOUT`, also when the deadline passed while the
 *   service was down (the Tool is then not run again).
 * - The Tool's signal aborts when Restate cancels the invocation, and when
 *   the attempt ends (the engine then replays the handler).
 * - The Tool reads its idempotency key with `toolIdempotencyKey(context)`:
 *   `${invocationId}/${toolCallId}`, the same on every attempt.
 *
 * Rejects with Restate's TerminalError (not retried) for a registered
 * NonRecoverableToolError from the validator, the gate or the Tool (metadata
 * `code: "NON_RECOVERABLE_TOOL_ERROR"`, `toolCallId`, `toolName`; see
 * `isNonRecoverableToolFailure`); with Restate's CancelledError when the
 * invocation is cancelled; and with ToolContractError INVALID_TOOL_CALL for a
 * bad context, registry, call or option, or a call id already used by a
 * durable call of this invocation (the host's mistake: Restate retries it like
 * any bug in a handler). Never throws synchronously.
 *
 * @example
 * const answer = restate.service({
 *   name: "answer",
 *   handlers: {
 *     call: async (ctx: restate.Context, call: CourseToolCall) =>
 *       durableToolCall(ctx, registry, call, { timeoutMs: 30_000 }),
 *   },
 * });
 */
export function durableToolCall(
  ctx: DurableContext,
  registry: ToolRegistry,
  call: CourseToolCall,
  options?: DurableToolCallOptions,
): Promise<CourseToolResultMessage> {
  return runRound(ctx, registry, () => [snapshotOne(call)], options, false).then(
    (results) => results[0] as CourseToolResultMessage,
  );
}

/**
 * Runs one model turn's Tool calls as durable steps of a Restate handler and
 * resolves with a frozen array of their result messages in call order: the
 * order, concurrency, events and round budget of `executeToolCalls`, each
 * call its own durable step as with {@link durableToolCall}. Every validator
 * runs, in call order, before any approval or step; calls start in call order
 * with at most `concurrency` (default 1) in flight; `tool.started` and
 * `tool.finished` events come as `executeToolCalls` sends them, again on every
 * replay (a listener with effects of its own should journal them). A call id
 * that appears twice, in the round or in an earlier durable call of the same
 * invocation, is refused before any validator runs.
 *
 * Rejections: as for {@link durableToolCall}. On a TerminalError or a
 * cancellation, the other running Tools see their signal abort with it, the
 * calls that did finish are reported first, and calls that never started,
 * never start.
 *
 * @example
 * const agent = restate.service({
 *   name: "agent",
 *   handlers: {
 *     turn: async (ctx: restate.Context, toolCalls: CourseToolCall[]) =>
 *       durableToolCalls(ctx, registry, toolCalls, { concurrency: 4, timeoutMs: 30_000 }),
 *   },
 * });
 */
export function durableToolCalls(
  ctx: DurableContext,
  registry: ToolRegistry,
  calls: readonly CourseToolCall[],
  options?: DurableToolRoundOptions,
): Promise<readonly CourseToolResultMessage[]> {
  return runRound(ctx, registry, () => snapshotCallList(calls), options, true);
}
