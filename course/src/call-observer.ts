/**
 * Watching the calls made through one registry (tracing, metrics): a private
 * slot of the ToolRegistry holds an observer, set only through the declared
 * internal surface (`withCallObserver`). Without one, a call costs one
 * private-field check and nothing else. With one, the core tells it when a
 * call starts, lets it wrap the one invocation of `execute` (so a span can be
 * the active context while the Tool runs), and hands it the facts of the
 * outcome at the end. Nothing the observer does (throwing included) changes a
 * call's result: its failures are reported as `ToolCallObserverWarning`
 * process warnings and the call goes on.
 */

import type { RegisteredCourseTool } from "./definitions.js";
import {
  apply,
  defineProperty,
  emitWarning,
  freeze,
  isProxy,
  NativeError,
  NativeTypeError,
} from "./intrinsics.js";
import { codePointCount } from "./json-text.js";
import type { OutputLimitName, WalkLimits } from "./output-walk.js";
import type { CourseToolCall, CourseToolResultMessage } from "./protocol.js";

/**
 * The phase whose step decided a call's outcome (for example `"lookup"` for
 * an unknown Tool): reading the call, signal and
 * options (`call`), finding the Tool (`lookup`), the argument checks and the
 * validator (`validation`), the approval gate (`approval`), the Tool's own
 * run and its deadline (`execute`), or writing its output (`serialization`,
 * also the phase of every success).
 */
export type CallPhase = "call" | "lookup" | "validation" | "approval" | "execute" | "serialization";

/**
 * Why a call rejected instead of resolving (for example `"cancelled"`): its signal aborted (`cancelled`),
 * a registered NonRecoverableToolError (`non-recoverable`), or the host's
 * mistake, a ToolContractError (`contract-error`).
 */
export type CallRejectionKind = "cancelled" | "non-recoverable" | "contract-error";

/**
 * What happened to a successful call's output on its way to the result.
 *
 * - `characters`: the result's content, in code points (after any cut).
 * - `originalCharacters`: the whole output's JSON text, in code points, when
 *   known: equal to `characters` when nothing was cut, the spilled text's
 *   size when a spill hook received the whole output; otherwise undefined
 *   (the serializer stops at the budget, so the rest is never measured).
 * - `originalTextLength`: a top-level string output's `length` (UTF-16 code
 *   units, as a configured marker counts them), whether or not it was cut.
 * - `truncated`, `limit`, `limitValue`: whether a budget cut it, which one,
 *   and its value (`BigInt size` in bits).
 * - `spillReference`: the reference the spill hook answered, when the marker names one.
 *
 * @example
 * { characters: 2048, originalCharacters: undefined, originalTextLength: 9000, truncated: true,
 *   limit: "characters", limitValue: 2048, spillReference: undefined }
 */
export interface CallOutputFacts {
  readonly characters: number;
  readonly originalCharacters: number | undefined;
  readonly originalTextLength: number | undefined;
  readonly truncated: boolean;
  readonly limit: OutputLimitName | undefined;
  readonly limitValue: number | undefined;
  readonly spillReference: string | undefined;
}

/**
 * How an observed call ended. `call` is the frozen snapshot (undefined when
 * the call could not be read); `tool` the registered Tool (undefined when
 * none was found); exactly one of `result` and `rejection` is set. `code` is
 * an error result's code; `reason` the rejection's value; `output` is set for
 * successes only. `timeoutMs` is the deadline the call ran under, if any, and
 * `effectUnknown` is true when that deadline passed (`TOOL_TIMEOUT`): the Tool
 * was asked to stop and its effects are unknown.
 *
 * @example
 * { call, tool, phase: "execute", result, code: "TOOL_TIMEOUT", rejection: undefined,
 *   reason: undefined, output: undefined, timeoutMs: 5000, effectUnknown: true }
 */
export interface CallFacts {
  readonly call: CourseToolCall | undefined;
  readonly tool: RegisteredCourseTool | undefined;
  readonly phase: CallPhase;
  readonly result: CourseToolResultMessage | undefined;
  readonly code: string | undefined;
  readonly rejection: CallRejectionKind | undefined;
  readonly reason: unknown;
  readonly output: CallOutputFacts | undefined;
  readonly timeoutMs: number | undefined;
  readonly effectUnknown: boolean;
}

/**
 * Watches every call made through a registry (see `withCallObserver`). Each
 * hook runs synchronously, inside the call; whatever it throws is reported
 * as a `ToolCallObserverWarning` and the call goes on unchanged.
 *
 * - `start()`: a call begins (`executeToolCall` or `prepareToolCall`, before
 *   anything is read). Answers the call's state, or undefined to leave this
 *   call unobserved (the other hooks are then not called for it).
 * - `resume(state)`: a prepared call's effect phase begins (`runPreparedToolCall`).
 * - `execute(state, call, tool, run)`: the Tool is about to run: call `run()`
 *   once, synchronously (inside a span's context, say). If it is not called,
 *   the core runs the Tool itself afterwards; a second call does nothing.
 * - `end(state, facts)`: the call settled; called once, before the caller
 *   sees the outcome. A prepared call that never runs does not end.
 *
 * @example
 * const observer: CallObserver<number> = {
 *   start: () => performance.now(),
 *   resume: () => {},
 *   execute: (_started, _call, _tool, run) => run(),
 *   end: (started, facts) => console.log(facts.phase, performance.now() - started),
 * };
 */
export interface CallObserver<State = unknown> {
  start(): State | undefined;
  resume(state: State): void;
  execute(state: State, call: CourseToolCall, tool: RegisteredCourseTool, run: () => void): void;
  end(state: State, facts: CallFacts): void;
}

/**
 * An observer as a registry holds it: its hooks read once, when it was set.
 *
 * @example
 * const slot: ObserverSlot = readObserver(observer); // slot.start === observer.start
 */
export interface ObserverSlot {
  readonly observer: object;
  readonly start: () => unknown;
  readonly resume: (state: unknown) => void;
  readonly execute: (state: unknown, call: unknown, tool: unknown, run: () => void) => void;
  readonly end: (state: unknown, facts: CallFacts) => void;
}

const HOOKS = ["start", "resume", "execute", "end"] as const;

/**
 * Reads an observer's four hooks once; a missing or non-function hook is a
 * TypeError (a host's mistake, found when the observer is set, not per call).
 *
 * @example
 * readObserver({ start() {}, resume() {} }); // throws TypeError: a call observer's execute must be a function
 */
export function readObserver(observer: unknown): ObserverSlot {
  if (typeof observer !== "object" || observer === null || isProxy(observer)) {
    throw new NativeTypeError("a call observer must be a plain object (not a Proxy)");
  }
  const hooks: Record<string, unknown> = {};
  // By index, and each hook defined, not assigned: neither a patched array iterator nor a
  // setter planted on Object.prototype sees the observer's hooks.
  for (let index = 0; index < HOOKS.length; index += 1) {
    const name = HOOKS[index] as string;
    const hook = (observer as Record<string, unknown>)[name];
    if (typeof hook !== "function") {
      throw new NativeTypeError(`a call observer's ${name} must be a function`);
    }
    defineProperty(hooks, name, {
      __proto__: null,
      value: hook,
      writable: true,
      enumerable: true,
      configurable: true,
    } as PropertyDescriptor);
  }
  return freeze({ observer, ...hooks } as unknown as ObserverSlot);
}

/**
 * Name of the process warning emitted when an observer's hook throws.
 *
 * @example
 * process.on("warning", (warning) => warning.name === CALL_OBSERVER_WARNING && log(warning.cause));
 */
export const CALL_OBSERVER_WARNING = "ToolCallObserverWarning";

function warn(hook: string, thrown: unknown): void {
  const warning = new NativeError(
    `the call observer's ${hook} hook threw; the call went on unchanged`,
    { cause: thrown },
  );
  defineProperty(warning, "name", { value: CALL_OBSERVER_WARNING, enumerable: false });
  try {
    emitWarning(warning);
  } catch {
    // A broken process.emitWarning leaves nowhere else to report to; the call goes on.
  }
}

/**
 * The core's own record of one observed call, filled in as the call goes;
 * never handed to the observer (it gets frozen facts at the end).
 *
 * @example
 * const record = startObservation(slot); // undefined when the observer declined the call
 */
export class CallRecord {
  phase: CallPhase = "call";
  call: CourseToolCall | undefined = undefined;
  tool: RegisteredCourseTool | undefined = undefined;
  code: string | undefined = undefined;
  rejection: CallRejectionKind | undefined = undefined;
  timeoutMs: number | undefined = undefined;
  // What serialization learnt (set only on the observed path).
  truncated = false;
  limit: OutputLimitName | undefined = undefined;
  limits: WalkLimits | undefined = undefined;
  spillReference: string | undefined = undefined;
  spilledCharacters: number | undefined = undefined;
  textLength: number | undefined = undefined;
  ended = false;

  constructor(
    readonly slot: ObserverSlot,
    readonly state: unknown,
  ) {}
}

/**
 * Starts observing a call, or answers undefined when the observer declines it (or throws).
 *
 * @example
 * const record = slot === undefined ? undefined : startObservation(slot);
 */
export function startObservation(slot: ObserverSlot): CallRecord | undefined {
  let state: unknown;
  try {
    state = apply(slot.start, slot.observer, []);
  } catch (thrown) {
    warn("start", thrown);
    return undefined;
  }
  return state === undefined ? undefined : new CallRecord(slot, state);
}

/**
 * A prepared call's effect phase begins.
 *
 * @example
 * if (next.record !== undefined) resumeObservation(next.record);
 */
export function resumeObservation(record: CallRecord): void {
  try {
    apply(record.slot.resume, record.slot.observer, [record.state]);
  } catch (thrown) {
    warn("resume", thrown);
  }
}

/**
 * Runs `invoke` (the Tool's `execute`) exactly once, inside the observer's
 * `execute` hook when it calls `run`, else right after it. Returns what
 * `invoke` returned, or throws what it threw: the observer can neither see
 * nor change either.
 *
 * @example
 * const outcome = executeObserved(record, call, tool, () => tool.execute(value, context));
 */
export function executeObserved(
  record: CallRecord,
  call: CourseToolCall,
  tool: RegisteredCourseTool,
  invoke: () => unknown,
): unknown {
  let ran = false;
  let threw = false;
  let outcome: unknown;
  let thrownByTool: unknown;
  const run = (): void => {
    if (ran) return;
    ran = true;
    try {
      outcome = invoke();
    } catch (thrown) {
      threw = true;
      thrownByTool = thrown;
    }
  };
  try {
    apply(record.slot.execute, record.slot.observer, [record.state, call, tool, run]);
  } catch (thrown) {
    warn("execute", thrown);
  }
  run();
  if (threw) throw thrownByTool;
  return outcome;
}

/** The numeric value of the budget that cut the output. */
function limitValue(limit: OutputLimitName, limits: WalkLimits): number {
  switch (limit) {
    case "characters":
      return limits.maxCharacters;
    case "depth":
      return limits.maxDepth;
    case "values":
      return limits.maxNodes;
    case "entries":
      return limits.maxEntries;
    case "string characters":
      return limits.maxStringCharacters;
    case "BigInt size":
      return limits.maxBigIntBits;
  }
}

function outputFacts(record: CallRecord, content: string): CallOutputFacts {
  const characters = codePointCount(content);
  const limit = record.truncated ? record.limit : undefined;
  return freeze({
    characters,
    originalCharacters: record.truncated ? record.spilledCharacters : characters,
    originalTextLength: record.textLength,
    truncated: record.truncated,
    limit,
    limitValue:
      limit === undefined || record.limits === undefined
        ? undefined
        : limitValue(limit, record.limits),
    spillReference: record.spillReference,
  });
}

function finish(record: CallRecord, facts: CallFacts): void {
  if (record.ended) return;
  record.ended = true;
  try {
    apply(record.slot.end, record.slot.observer, [record.state, freeze(facts)]);
  } catch (thrown) {
    warn("end", thrown);
  }
}

/**
 * The call resolved with `result`.
 *
 * @example
 * endResolved(record, result); // the observer's end hook gets the facts
 */
export function endResolved(record: CallRecord, result: CourseToolResultMessage): void {
  const code = result.isError ? record.code : undefined;
  finish(record, {
    call: record.call,
    tool: record.tool,
    phase: record.phase,
    result,
    code,
    rejection: undefined,
    reason: undefined,
    output: result.isError ? undefined : outputFacts(record, result.content),
    timeoutMs: record.timeoutMs,
    effectUnknown: code === "TOOL_TIMEOUT",
  });
}

/**
 * The call rejected with `reason`; `fallback` is the kind of a rejection the
 * core did not mark (a contract error before the effect phase, a
 * cancellation during it).
 *
 * @example
 * endRejected(record, thrown, "contract-error");
 */
export function endRejected(
  record: CallRecord,
  reason: unknown,
  fallback: CallRejectionKind,
): void {
  finish(record, {
    call: record.call,
    tool: record.tool,
    phase: record.phase,
    result: undefined,
    code: undefined,
    rejection: record.rejection ?? fallback,
    reason,
    output: undefined,
    timeoutMs: record.timeoutMs,
    effectUnknown: false,
  });
}
