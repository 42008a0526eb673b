/**
 * Options of `durableToolCall` and `durableToolCalls`: exactly those of
 * `executeToolCall` and `executeToolCalls`, read once each and checked before
 * any call is read. `timeoutMs` and `approve` are the durable calls' own (a
 * journaled timer and a journaled decision); every other per-call option goes
 * to the core unchanged, which checks it by its own rules.
 */

import { type ToolCallOptions, ToolContractError } from "../../course/src/index.ts";
import { type OutputLevel, readCallOptions } from "../../course/src/internal.ts";
import type { ToolRoundEventErrorHandler, ToolRoundEventListener } from "../rounds/index.ts";
import type { ApprovalGate } from "./approval-step.ts";
import { deadlineRule, isDeadline } from "./durable-deadline.ts";
import { DURABLE_MAX_JOURNAL_BYTES, isJournalBytes, JOURNAL_BYTES_RULE } from "./journal-budget.ts";
import {
  apply,
  defineData,
  freeze,
  getOwnPropertyDescriptor,
  hasOwn,
  isProxy,
  isSafeInteger,
  store,
} from "./restate-intrinsics.ts";

/** The deadline setting, as `ToolCallOptions.timeoutMs` types it. */
export type DeadlineSetting = number | ((toolName: string) => number | undefined);

/** Options after one read of each field and their checks. */
export interface DurableSettings {
  readonly timeoutMs: DeadlineSetting | undefined;
  readonly approve: ApprovalGate | undefined;
  readonly concurrency: number;
  readonly onEvent: ToolRoundEventListener | undefined;
  readonly onEventError: ToolRoundEventErrorHandler | undefined;
  readonly maxRoundCharacters: number;
  /** The most bytes a call's journal entry may take (see journal-budget.ts). */
  readonly maxJournalBytes: number;
  /** The options the core prepares every call with (never `timeoutMs` or `approve`). */
  readonly coreOptions: ToolCallOptions;
  /** `coreOptions`' output settings as the core read them, for the journal's budget. */
  readonly callOutput: OutputLevel | undefined;
}

/** The fields of a round only; `durableToolCall` never reads them. */
const ROUND_FIELDS = ["concurrency", "onEvent", "onEventError", "maxRoundCharacters"] as const;
/** Per-call fields the core reads (its output settings, as own fields, and the argument budget). */
const CORE_FIELDS = [
  "maxArgumentCharacters",
  "outputBudget",
  "truncate",
  "spill",
  "maxSpillCharacters",
  "onSpillError",
] as const;

function invalid(message: string, cause?: unknown): never {
  throw cause === undefined
    ? new ToolContractError("INVALID_TOOL_CALL", message)
    : new ToolContractError("INVALID_TOOL_CALL", message, { cause });
}

/** One field, read once: an own data value, or an own or inherited getter run once. */
function readField(options: object, field: string, label: string): unknown {
  try {
    return (options as Record<string, unknown>)[field];
  } catch (thrown) {
    return invalid(`${label} option "${field}" threw when read`, thrown);
  }
}

/** An own field, read once (the core reads output settings as own fields only). */
function readOwnField(options: object, field: string, label: string): unknown {
  const descriptor = getOwnPropertyDescriptor(options, field);
  if (descriptor === undefined) return undefined;
  if (hasOwn(descriptor, "value")) return descriptor.value;
  const get = descriptor.get;
  if (get === undefined) return undefined;
  try {
    return apply(get, options, []);
  } catch (thrown) {
    return invalid(`${label} option "${field}" threw when read`, thrown);
  }
}

function readLimit(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY) return value;
  if (typeof value === "number" && isSafeInteger(value) && value > 0) return value;
  return invalid(`${name} must be a positive integer or Infinity`);
}

function readFunction<T>(value: unknown, name: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") return invalid(`${name} must be a function`);
  return value as T;
}

function readTimeout(value: unknown): DeadlineSetting | undefined {
  if (value === undefined || typeof value === "function") {
    return value as DeadlineSetting | undefined;
  }
  if (isDeadline(value)) return value;
  return invalid(`${deadlineRule("timeoutMs")}, or a function returning one`);
}

/** No options: the course's behaviour, one call at a time. */
const DEFAULTS: DurableSettings = freeze({
  concurrency: 1,
  onEvent: undefined,
  onEventError: undefined,
  maxRoundCharacters: Number.POSITIVE_INFINITY,
  timeoutMs: undefined,
  approve: undefined,
  maxJournalBytes: DURABLE_MAX_JOURNAL_BYTES,
  coreOptions: freeze({}),
  callOutput: undefined,
});

/**
 * Reads the options once each, in a fixed order (a getter could answer
 * differently a second time), and checks them: the round's (when `round`),
 * the deadline and the gate here, the rest by the core itself. Throws
 * ToolContractError INVALID_TOOL_CALL for a non-object, a Proxy, a throwing
 * getter or a bad value.
 *
 * @example
 * readDurableOptions({ concurrency: 2, timeoutMs: 5_000 }, true).concurrency; // 2
 */
export function readDurableOptions(options: unknown, round: boolean): DurableSettings {
  const label = round ? "Tool round" : "Tool call";
  if (options === undefined) return DEFAULTS;
  if (typeof options !== "object" || options === null || isProxy(options)) {
    return invalid(`${label} options must be a plain object (not a Proxy)`);
  }
  // By index, never through an array's iterator or methods; every slot its own from the start
  // (a single call reads them unset: a hole would be read through Array.prototype, where a
  // Tool's planted getter could answer a listener).
  const roundValues: unknown[] = [];
  for (let index = 0; index < ROUND_FIELDS.length; index += 1) {
    store(roundValues, index, undefined);
  }
  if (round) {
    for (let index = 0; index < ROUND_FIELDS.length; index += 1) {
      store(roundValues, index, readField(options, ROUND_FIELDS[index] as string, label));
    }
  }
  const concurrency = readLimit(roundValues[0], "concurrency", 1);
  const onEvent = readFunction<ToolRoundEventListener>(roundValues[1], "onEvent");
  const onEventError = readFunction<ToolRoundEventErrorHandler>(roundValues[2], "onEventError");
  const maxRoundCharacters = readLimit(
    roundValues[3],
    "maxRoundCharacters",
    Number.POSITIVE_INFINITY,
  );
  const timeoutMs = readTimeout(readField(options, "timeoutMs", label));
  const approve = readFunction<ApprovalGate>(readField(options, "approve", label), "approve");
  const journalBytes = readField(options, "maxJournalBytes", label);
  if (journalBytes !== undefined && !isJournalBytes(journalBytes)) invalid(JOURNAL_BYTES_RULE);
  const core: Record<string, unknown> = {};
  for (let index = 0; index < CORE_FIELDS.length; index += 1) {
    const field = CORE_FIELDS[index] as string;
    const value =
      field === "maxArgumentCharacters"
        ? readField(options, field, label)
        : readOwnField(options, field, label);
    // Only defined fields (the core treats a present key as a setting); defined, never
    // assigned, so no setter planted on Object.prototype sees the value.
    if (value !== undefined) defineData(core, field, value);
  }
  const coreOptions: ToolCallOptions = freeze(core);
  // The core's own checks, now, before any call is read (its errors name the option).
  const callOutput = readCallOptions(coreOptions).output;
  return freeze({
    concurrency,
    onEvent,
    onEventError,
    maxRoundCharacters,
    timeoutMs,
    approve,
    maxJournalBytes: journalBytes ?? DURABLE_MAX_JOURNAL_BYTES,
    coreOptions,
    callOutput,
  });
}
