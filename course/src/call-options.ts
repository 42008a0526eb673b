/**
 * Per-call options of `executeToolCall` (its optional fourth argument): a
 * deadline, an approval gate and a budget for the arguments. Without options
 * the three-argument behaviour is exactly the course's.
 */

import type { RegisteredCourseTool } from "./definitions.js";
import { contractError } from "./errors.js";
import {
  apply,
  freeze,
  hasOwn,
  isArray,
  isProxy,
  isSafeInteger,
  mapGet,
  mapSet,
  NativeMap,
  reflectGet,
  stringCharCodeAt,
} from "./intrinsics.js";
import { refuseCallOption } from "./output-budget.js";
import { type OutputLevel, type OutputOptions, readOutputLevel } from "./output-settings.js";
import type { CourseJsonValue, CourseToolCall } from "./protocol.js";

/**
 * Options for one Tool call.
 *
 * - `timeoutMs`: a deadline for `execute`, in milliseconds (a positive number
 *   up to 2147483647, the longest a timer holds; `Infinity` for none), or a
 *   function of the Tool's name returning one (or `undefined` for none). Past it the Tool's signal aborts with a
 *   `TimeoutError` and the call yields a recoverable `TOOL_TIMEOUT` result.
 *   Default: no deadline.
 * - `approve`: a gate after validation and before any effect, synchronous or
 *   asynchronous. `true` runs the Tool; `false` yields `TOOL_APPROVAL_DENIED`;
 *   a throw, a rejection or another answer yields `TOOL_APPROVAL_FAILED`.
 *   Default: every valid call runs.
 * - `maxArgumentCharacters`: the largest compact-JSON length of the arguments
 *   (what `JSON.stringify` would write, in UTF-16 code units);
 *   larger arguments yield `TOOL_ARGUMENTS_INVALID` before validation runs.
 *   Default: no limit.
 * - `outputBudget`, `truncate`, `spill`, `maxSpillCharacters`,
 *   `onSpillError`, `format`: this call's output settings (see `OutputOptions`); they
 *   override the Tool's and the registry's, field by field. Default: none
 *   (the course's budgets and marker, unless the Tool or registry set some).
 *
 * @example
 * await executeToolCall(registry, call, signal, { timeoutMs: 5_000, approve: (c) => c.name !== "rm" });
 * await executeToolCall(registry, call, signal, { outputBudget: { maxCharacters: 50_000 }, truncate: "tail" });
 * await executeToolCall(registry, call, signal, { format: "text" });
 */
export interface ToolCallOptions extends OutputOptions {
  readonly timeoutMs?: number | ((toolName: string) => number | undefined);
  readonly approve?: (
    call: CourseToolCall,
    tool: RegisteredCourseTool,
  ) => boolean | PromiseLike<boolean>;
  readonly maxArgumentCharacters?: number;
}

/** Options after one read of each field and validation. */
export interface CallOptions {
  readonly timeoutMs: ToolCallOptions["timeoutMs"];
  readonly approve: ToolCallOptions["approve"];
  readonly maxArgumentCharacters: number;
  readonly output: OutputLevel | undefined;
}

const NO_OPTIONS: CallOptions = freeze({
  timeoutMs: undefined,
  approve: undefined,
  maxArgumentCharacters: Number.POSITIVE_INFINITY,
  output: undefined,
});

function invalid(message: string): never {
  throw contractError("INVALID_TOOL_CALL", message);
}

/**
 * The longest deadline a timer can hold, in milliseconds (2^31 - 1, about
 * 24.8 days). Node.js, Bun and Deno run a longer delay after 1 ms instead.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Whether `value` is a usable deadline: a positive number up to MAX_TIMEOUT_MS, or Infinity (none). */
export function isDeadline(value: unknown): value is number {
  // `> 0` is false for NaN.
  return (
    typeof value === "number" &&
    value > 0 &&
    (value <= MAX_TIMEOUT_MS || value === Number.POSITIVE_INFINITY)
  );
}

/** What a bad deadline is told, naming the setting. */
export function deadlineRule(setting: string): string {
  return `${setting} must be a positive number of milliseconds, at most ${MAX_TIMEOUT_MS} (Infinity for none)`;
}

/** Refuses an option whose getter threw, naming it; the thrown value is only the cause. */
function optionThrew(key: string, thrown: unknown): never {
  throw contractError("INVALID_TOOL_CALL", `Tool call option "${key}" threw when read`, {
    cause: thrown,
  });
}

/**
 * Reads one option. A throw is wrapped here, at the read, because the caller
 * passes our own contract errors through untouched: a getter rethrowing one
 * it caught earlier must not reach the host as if our check had failed.
 */
function readOption(options: object, key: string): unknown {
  try {
    return reflectGet(options, key);
  } catch (thrown) {
    return optionThrew(key, thrown);
  }
}

/** Reads each option once (a getter could answer differently the second time) and checks it. */
export function readCallOptions(options: unknown): CallOptions {
  if (options === undefined) return NO_OPTIONS;
  if (typeof options !== "object" || options === null || isProxy(options)) {
    return invalid("Tool call options must be a plain object");
  }
  const timeoutMs = readOption(options, "timeoutMs");
  const approve = readOption(options, "approve");
  const maxArgumentCharacters = readOption(options, "maxArgumentCharacters");
  if (timeoutMs !== undefined && typeof timeoutMs !== "function" && !isDeadline(timeoutMs)) {
    invalid(`${deadlineRule("timeoutMs")}, or a function returning one`);
  }
  if (approve !== undefined && typeof approve !== "function") invalid("approve must be a function");
  if (
    maxArgumentCharacters !== undefined &&
    !(
      maxArgumentCharacters === Number.POSITIVE_INFINITY ||
      // Number.isSafeInteger never converts: a string or a boxed number fails it.
      (isSafeInteger(maxArgumentCharacters) && (maxArgumentCharacters as number) > 0)
    )
  ) {
    invalid("maxArgumentCharacters must be a positive integer");
  }
  const output = readOutputLevel(options, refuseCallOption, optionThrew);
  return freeze({
    timeoutMs: timeoutMs as ToolCallOptions["timeoutMs"],
    approve: approve as ToolCallOptions["approve"],
    maxArgumentCharacters:
      maxArgumentCharacters === undefined
        ? Number.POSITIVE_INFINITY
        : (maxArgumentCharacters as number),
    output,
  });
}

/**
 * The answer of a `timeoutMs` function, a throw wrapped (as `cause`): the
 * caller passes our own contract errors through, and one the function
 * rethrows must not pass for our check. Apart, so the path without a
 * function stays as it was.
 */
function askTimeout(setting: (toolName: string) => number | undefined, toolName: string): unknown {
  try {
    return apply(setting, undefined, [toolName]);
  } catch (thrown) {
    throw contractError("INVALID_TOOL_CALL", "timeoutMs could not be resolved", { cause: thrown });
  }
}

/** The deadline for a Tool, in milliseconds, or undefined for none. Throws for a bad answer. */
export function resolveTimeout(options: CallOptions, toolName: string): number | undefined {
  const setting = options.timeoutMs;
  const value: unknown = typeof setting === "function" ? askTimeout(setting, toolName) : setting;
  if (value === undefined || value === Number.POSITIVE_INFINITY) return undefined;
  if (!isDeadline(value)) return invalid(deadlineRule(`timeoutMs for Tool "${toolName}"`));
  return value;
}

/**
 * The length of `text` as `JSON.stringify` writes it (quotes included, in
 * UTF-16 code units), or anything above `stopAbove` once it is exceeded:
 * `\b \t \n \f \r` take 2, other controls and lone surrogates 6 (`\uXXXX`),
 * `"` and `\` 2, a surrogate pair its 2 units.
 */
function stringTextLength(text: string, stopAbove: number): number {
  let length = 2;
  for (let index = 0; index < text.length && length <= stopAbove; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (unit === 0x22 || unit === 0x5c) length += 2;
    else if (unit < 0x20) {
      length +=
        unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d ? 2 : 6;
    } else if (unit >= 0xd800 && unit <= 0xdbff) {
      // Past the end this is NaN, which is no low surrogate.
      const next = stringCharCodeAt(text, index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2;
        index += 1;
      } else length += 6;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) length += 6;
    else length += 1;
  }
  return length;
}

/** One own key of an object being measured, and the next. */
interface KeyLink {
  readonly key: string;
  next: KeyLink | undefined;
}

/**
 * One container being measured: for an object, its keys not yet measured
 * (undefined for an array); how many slots it has, the next slot, where it
 * began, and the container it sits in.
 */
interface MeasureFrame {
  readonly node: object;
  readonly isObject: boolean;
  keys: KeyLink | undefined;
  readonly length: number;
  next: number;
  readonly start: number;
  readonly parent: MeasureFrame | undefined;
}

/**
 * The text length of a primitive JSON value, or anything above `stopAbove`
 * once it is exceeded. `null`, booleans and finite numbers are written as
 * `String` writes them (`-0` as `0`).
 */
function primitiveTextLength(node: CourseJsonValue, stopAbove: number): number {
  return typeof node === "string" ? stringTextLength(node, stopAbove) : `${node}`.length;
}

/**
 * Whether the compact JSON text of a frozen arguments snapshot is longer than
 * `limit` characters (never, for `Infinity`). See {@link jsonTextLength}.
 */
export function jsonTextExceeds(value: CourseJsonValue, limit: number): boolean {
  return limit !== Number.POSITIVE_INFINITY && jsonTextLength(value, limit) > limit;
}

/**
 * The length of the compact JSON text of a frozen snapshot (what
 * `JSON.stringify` writes, in UTF-16 code units), or some length above
 * `limit` as soon as the text is known to be longer. Walks with an
 * explicit chain of frames, so no depth exhausts the call stack, and remembers each
 * finished container's length, so a value whose parts are shared costs its
 * size, not its paths.
 */
export function jsonTextLength(value: CourseJsonValue, limit: number): number {
  const lengths = new NativeMap<object, number>();
  // The open containers and each object's keys as chains of fresh literals, not arrays:
  // appending to an array by assignment consults Array.prototype, where an index setter
  // planted by a Tool could swallow a frame or a key and make every later call's text look short.
  let top: MeasureFrame | undefined;
  let total = 0;
  // Adds a value: a primitive's length, a measured container's remembered length, or opens a frame.
  const enter = (node: CourseJsonValue): void => {
    if (typeof node !== "object" || node === null) {
      total += primitiveTextLength(node, limit - total);
      return;
    }
    const known = mapGet(lengths, node);
    if (known !== undefined) {
      total += known;
      return;
    }
    const isObject = !isArray(node);
    let length: number;
    let keys: KeyLink | undefined;
    if (isObject) {
      length = 0;
      let last: KeyLink | undefined;
      for (const key in node) {
        // An enumerable key planted on Object.prototype is not part of the arguments.
        if (!hasOwn(node, key)) continue;
        const link: KeyLink = { key, next: undefined };
        if (last === undefined) keys = link;
        else last.next = link;
        last = link;
        length += 1;
      }
    } else length = (node as readonly CourseJsonValue[]).length;
    top = { node, isObject, keys, length, next: 0, start: total, parent: top };
    total += 1; // the opening bracket or brace
  };
  enter(value);
  while (total <= limit) {
    const frame = top;
    if (frame === undefined) return total;
    if (frame.next === frame.length) {
      total += 1; // the closing bracket or brace
      top = frame.parent;
      mapSet(lengths, frame.node, total - frame.start);
      continue;
    }
    const index = frame.next;
    frame.next = index + 1;
    if (index > 0) total += 1; // the comma
    let child: CourseJsonValue;
    if (!frame.isObject)
      child = (frame.node as readonly CourseJsonValue[])[index] as CourseJsonValue;
    else {
      // One link a slot: `length` counted the links, so there is one here.
      const link = frame.keys as KeyLink;
      frame.keys = link.next;
      const key = link.key;
      total += stringTextLength(key, limit - total) + 1; // the key and its colon
      child = (frame.node as { readonly [key: string]: CourseJsonValue })[key] as CourseJsonValue;
    }
    enter(child);
  }
  return total;
}
