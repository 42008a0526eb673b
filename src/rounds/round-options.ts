/**
 * Options of `executeToolCalls`: the per-call options of `executeToolCall`
 * plus the round's own (`concurrency`, `onEvent`, `onEventError`,
 * `maxRoundCharacters`). Each field is read once and checked before anything
 * else happens; a bad value is the host's mistake, never a model-visible result.
 */

import { type ToolCallOptions, ToolContractError } from "../../course/src/index.ts";
import type { OutputLevel } from "../../course/src/internal.ts";
import {
  deadlineRule,
  freeze,
  isDeadline,
  isProxy,
  isSafeInteger,
  readOutputLevel,
  reflectGet,
} from "../../course/src/internal.ts";
import type { ToolRoundEventErrorHandler, ToolRoundEventListener } from "./round-events.ts";
import { store } from "./round-intrinsics.ts";

/**
 * Options for one round of Tool calls. Every field is optional.
 *
 * - `concurrency`: how many calls may be in flight at once, a positive
 *   integer or `Infinity`. Default `1` (sequential).
 * - `onEvent`: receives `tool.started` and `tool.finished` events. Default none.
 * - `onEventError`: receives each error thrown by `onEvent`, once. Default: a
 *   process warning named `ToolRoundListenerWarning` with the error as `cause`.
 * - `timeoutMs`, `approve`, `maxArgumentCharacters`, and the output settings
 *   `outputBudget`, `truncate`, `spill`, `maxSpillCharacters`, `onSpillError`,
 *   `format`: as for `executeToolCall`, applied to every call of the round.
 * - `maxRoundCharacters`: the most code points all result contents of the
 *   round may add up to, a positive integer or `Infinity`. Default `Infinity`.
 *
 * Invalid values reject the round with ToolContractError `INVALID_TOOL_CALL`
 * before any call is read.
 *
 * @example
 * const options: ToolRoundOptions = { concurrency: 4, timeoutMs: 10_000, maxRoundCharacters: 16_000 };
 */
export interface ToolRoundOptions extends ToolCallOptions {
  readonly concurrency?: number;
  readonly onEvent?: ToolRoundEventListener;
  readonly onEventError?: ToolRoundEventErrorHandler;
  readonly maxRoundCharacters?: number;
}

/** The round's options after one read of each field and validation. */
export interface RoundSettings {
  readonly concurrency: number;
  readonly onEvent: ToolRoundEventListener | undefined;
  readonly onEventError: ToolRoundEventErrorHandler | undefined;
  readonly maxRoundCharacters: number;
  /** What every call of the round is prepared with: a frozen object of plain data fields. */
  readonly callOptions: ToolCallOptions;
}

function invalid(message: string, cause?: unknown): never {
  throw cause === undefined
    ? new ToolContractError("INVALID_TOOL_CALL", message)
    : new ToolContractError("INVALID_TOOL_CALL", message, { cause });
}

/** A positive safe integer, or `Infinity`; `undefined` gives the default. */
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

function readTimeout(value: unknown): ToolCallOptions["timeoutMs"] {
  if (value === undefined || typeof value === "function") {
    return value as ToolCallOptions["timeoutMs"];
  }
  if (isDeadline(value)) return value;
  return invalid(`${deadlineRule("timeoutMs")}, or a function returning one`);
}

const FIELDS = [
  "concurrency",
  "onEvent",
  "onEventError",
  "timeoutMs",
  "approve",
  "maxArgumentCharacters",
  "maxRoundCharacters",
] as const;

/** The output settings as call options: only the fields that are set. */
function outputFields(output: OutputLevel | undefined): ToolCallOptions {
  if (output === undefined) return {};
  return {
    ...(output.outputBudget === undefined ? {} : { outputBudget: output.outputBudget }),
    ...(output.truncate === undefined ? {} : { truncate: output.truncate }),
    ...(output.spill === undefined ? {} : { spill: output.spill }),
    ...(output.maxSpillCharacters === undefined
      ? {}
      : { maxSpillCharacters: output.maxSpillCharacters }),
    ...(output.onSpillError === undefined ? {} : { onSpillError: output.onSpillError }),
    ...(output.format === undefined ? {} : { format: output.format }),
  };
}

/**
 * Reads every option once, in a fixed order (a getter could answer differently
 * a second time), and checks it. Throws ToolContractError INVALID_TOOL_CALL
 * for a non-object, a Proxy, a throwing getter or a bad value.
 *
 * @example
 * readRoundOptions({ concurrency: 2 }).concurrency; // 2
 */
export function readRoundOptions(options: unknown): RoundSettings {
  // Indexed like FIELDS; written with `store` so no inherited setter can intercept a value,
  // and every slot its own from the start: with no options, a hole would be read through
  // Array.prototype, where a Tool's planted getter could answer a gate or a listener.
  const values: unknown[] = [];
  for (let index = 0; index < FIELDS.length; index += 1) store(values, index, undefined);
  if (options !== undefined) {
    if (typeof options !== "object" || options === null || isProxy(options)) {
      return invalid("Tool round options must be a plain object (not a Proxy)");
    }
    for (let index = 0; index < FIELDS.length; index += 1) {
      const field = FIELDS[index] as (typeof FIELDS)[number];
      try {
        store(values, index, reflectGet(options, field));
      } catch (thrown) {
        return invalid(`Tool round option "${field}" threw when read`, thrown);
      }
    }
  }
  // By index, not destructuring: destructuring would go through the array iterator.
  const concurrency = readLimit(values[0], "concurrency", 1);
  const onEvent = readFunction<ToolRoundEventListener>(values[1], "onEvent");
  const onEventError = readFunction<ToolRoundEventErrorHandler>(values[2], "onEventError");
  const timeoutMs = readTimeout(values[3]);
  const approve = readFunction<ToolCallOptions["approve"]>(values[4], "approve");
  const maxArgumentCharacters = readLimit(
    values[5],
    "maxArgumentCharacters",
    Number.POSITIVE_INFINITY,
  );
  const maxRoundCharacters = readLimit(values[6], "maxRoundCharacters", Number.POSITIVE_INFINITY);
  // The output settings, checked now by the core's own rules (before any call is read).
  // Own fields, read once each, after the round's own (the core reads them the same way).
  const output =
    options === undefined
      ? undefined
      : readOutputLevel(options as object, invalid, (key, thrown) =>
          invalid(`Tool round option "${key}" threw when read`, thrown),
        );
  // Only defined fields (the core treats a present key as a setting); literals define, never assign.
  const callOptions: ToolCallOptions = {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(approve === undefined ? {} : { approve }),
    ...(maxArgumentCharacters === Number.POSITIVE_INFINITY ? {} : { maxArgumentCharacters }),
    ...outputFields(output),
  };
  return freeze({
    concurrency,
    onEvent,
    onEventError,
    maxRoundCharacters,
    callOptions: freeze(callOptions),
  });
}
