/**
 * `executeToolCalls`: one model turn's Tool calls through the same boundary as
 * `executeToolCall`, with ordering, bounded concurrency, events, deadlines,
 * approval and a budget for what the whole round adds to the transcript.
 */

import {
  type CourseToolCall,
  type CourseToolResultMessage,
  ToolContractError,
  type ToolRegistry,
} from "../../course/src/index.ts";
import {
  abortReason,
  freeze,
  isAbortSignal,
  isToolRegistry,
  NativePromise,
  signalAborted,
} from "../../course/src/internal.ts";
import { snapshotRoundCalls } from "./round-calls.ts";
import { observeRound } from "./round-observer.ts";
import { type RoundSettings, readRoundOptions, type ToolRoundOptions } from "./round-options.ts";
import { ToolRound } from "./round-runner.ts";

/**
 * Runs one round of Tool calls and resolves with a frozen array of frozen,
 * linked result messages in the order of `calls`, whatever order they finish in.
 * Never throws synchronously.
 *
 * How a round goes:
 * 1. `calls` is read by index (never through its iterator or methods; a Proxy
 *    is refused), every call is snapshotted, and duplicate ids are refused,
 *    before any validator runs.
 * 2. Every call is prepared in call order (Tool lookup, `maxArgumentCharacters`,
 *    the validator): all validation happens before any approval or execution.
 * 3. Calls start in call order with at most `concurrency` in flight (default
 *    1); each goes through `approve`, `execute` (with `timeoutMs`) and the
 *    bounded serializer exactly as with `executeToolCall`. A call is in flight
 *    from `tool.started` until its result is decided; a Tool that ignores its
 *    deadline's abort may run on after its `TOOL_TIMEOUT` result.
 * 4. Results spend `maxRoundCharacters` in call order (see `RoundBudget`):
 *    the first result that does not fit is cut and ends with
 *    `COURSE_TOOL_TRUNCATION_MARKER`; every later one gets empty content.
 *
 * Event order, through `onEvent`: `tool.started` events come in call order,
 * each just before its call's approval gate; `tool.finished` events come in
 * call order too, each as soon as its call and every earlier call have
 * finished, and carry exactly the (budgeted) message the round returns. So
 * with `concurrency: 1` the events alternate started/finished, call by call,
 * and with unlimited concurrency every `tool.started` comes first. A call's
 * `tool.started` always precedes its `tool.finished`; all events are
 * delivered before the round's promise settles. A throwing listener is
 * reported through `onEventError` (default: a `ToolRoundListenerWarning`
 * process warning) and the round goes on.
 *
 * Rejections (no result is ever invented for a call that did not finish):
 * - the run signal aborts: every running Tool sees the abort with the run's
 *   reason, and the round rejects with that exact reason;
 * - a registered NonRecoverableToolError from a validator, an approval gate or
 *   a Tool: the other running Tools see an abort whose reason is that error,
 *   and the round rejects with it;
 * - ToolContractError INVALID_TOOL_CALL for a bad registry, signal, options,
 *   `calls` array, call, duplicate id, or a `timeoutMs` function's bad answer.
 * Before rejecting, the round reports (`tool.finished`) every call that did
 * finish, in call order; calls that never started, never start.
 *
 * @example
 * const results = await executeToolCalls(registry, turn.toolCalls, run.signal, {
 *   concurrency: 4,
 *   timeoutMs: 10_000,
 *   approve: (call) => call.name !== "deleteFile" || askUser(call),
 *   maxRoundCharacters: 16_000,
 *   onEvent: (event) => console.log(event.type, event.call.id),
 * });
 * transcript.push(...results);
 */
export function executeToolCalls(
  registry: ToolRegistry,
  calls: readonly CourseToolCall[],
  signal: AbortSignal,
  options?: ToolRoundOptions,
): Promise<readonly CourseToolResultMessage[]> {
  return new NativePromise<readonly CourseToolResultMessage[]>((deliver, refuse) => {
    let resolve: (results: readonly CourseToolResultMessage[]) => void = deliver;
    let reject: (reason: unknown) => void = refuse;
    // An observed round (a traced registry) tells its observer first, then the caller.
    const record = observeRound(registry);
    if (record !== undefined) {
      resolve = (results) => {
        record.resolved(results);
        deliver(results);
      };
      reject = (reason) => {
        record.rejected(reason, signal);
        refuse(reason);
      };
    }
    if (!isAbortSignal(signal)) {
      return reject(
        new ToolContractError("INVALID_TOOL_CALL", "executeToolCalls needs an AbortSignal"),
      );
    }
    if (signalAborted(signal)) return reject(abortReason(signal));
    if (!isToolRegistry(registry)) {
      return reject(
        new ToolContractError("INVALID_TOOL_CALL", "executeToolCalls needs a ToolRegistry"),
      );
    }
    let settings: RoundSettings;
    let snapshots: readonly CourseToolCall[];
    try {
      settings = readRoundOptions(options);
      snapshots = snapshotRoundCalls(calls);
    } catch (thrown) {
      // A hostile getter may abort the run and throw: the cancellation wins.
      return reject(signalAborted(signal) ? abortReason(signal) : thrown);
    }
    if (signalAborted(signal)) return reject(abortReason(signal));
    if (snapshots.length === 0) return resolve(freeze([]));
    const round = new ToolRound({
      registry,
      calls: snapshots,
      runSignal: signal,
      settings,
      resolve,
      reject,
      record,
    });
    if (record === undefined) return round.start();
    const plan = {
      calls: snapshots,
      concurrency: settings.concurrency,
      maxRoundCharacters: settings.maxRoundCharacters,
    };
    record.run(freeze(plan), () => round.start());
  });
}
