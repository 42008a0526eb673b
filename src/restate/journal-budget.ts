/**
 * What a durable call's journal entry may weigh. Restate refuses a message
 * over its size limit (`worker.invoker.message-size-limit`, 32 MiB and
 * 256 KiB by default), and a step whose result it refuses is retried: the
 * Tool runs again at every attempt, and the invocation never finishes. So a
 * durable result is made to fit `maxJournalBytes`, two ways:
 *
 * - Before the call, where the call's text budget and the limit leave less
 *   room than its `maxTotalBytes` allows, that budget is lowered for the
 *   call: the core then leaves images, audio and files out with its own
 *   lines (`[image omitted: … over the N-byte total limit]`), and keeps the
 *   rest. With the default budgets nothing is lowered.
 * - After it, an entry still over the limit (text that is mostly escapes) is
 *   journaled as `TOOL_OUTPUT_SERIALIZATION_FAILED` saying so: the Tool ran,
 *   and its output cannot be kept.
 * - A call whose id and name alone leave no room for that failure (ids of
 *   tens of thousands of characters) is refused before any Tool of the round
 *   runs: every entry of it would carry them.
 */

import {
  type CourseToolCall,
  type ToolCallOptions,
  type ToolRegistry,
  toolErrorResult,
} from "../../course/src/index.ts";
import { type OutputLevel, resolvedCallBudgets } from "../../course/src/internal.ts";
import { type JournaledResult, toJournal } from "./journal-entry.ts";
import { freeze, isSafeInteger, ownDataValue, stringCharCodeAt } from "./restate-intrinsics.ts";

/**
 * The default `maxJournalBytes`: 32 MiB, under Restate's default message
 * size limit (32 MiB and 256 KiB) by room for the message's own framing.
 *
 * @example
 * await durableToolCall(ctx, registry, call, { maxJournalBytes: DURABLE_MAX_JOURNAL_BYTES * 2 }); // after raising Restate's limit
 */
export const DURABLE_MAX_JOURNAL_BYTES = 33_554_432;

/** The range `maxJournalBytes` accepts: 1 MiB to 1 GiB. */
export const JOURNAL_BYTES_RANGE: readonly [number, number] = freeze([1_048_576, 1_073_741_824]);

/** The rule a bad `maxJournalBytes` is refused with. */
export const JOURNAL_BYTES_RULE = `maxJournalBytes must be an integer from ${JOURNAL_BYTES_RANGE[0]} to ${JOURNAL_BYTES_RANGE[1]}`;

/** Whether `value` is a `maxJournalBytes` the range accepts. */
export function isJournalBytes(value: unknown): value is number {
  return (
    typeof value === "number" &&
    isSafeInteger(value) &&
    value >= JOURNAL_BYTES_RANGE[0] &&
    value <= JOURNAL_BYTES_RANGE[1]
  );
}

/** JSON bytes a code point of text may take at most: `\u001f` is six. */
const TEXT_BYTES = 6;
/** Room for a part's fields other than its data: keys, kind, media type, a file name. */
const PART_ROOM = 1_024;
/** Room for the entry's keys, punctuation and booleans. */
const ENTRY_ROOM = 1_024;
/** Room for the `TOOL_OUTPUT_SERIALIZATION_FAILED` content that replaces an entry too large. */
const FAILURE_ROOM = 1_024;

/**
 * Why `call` cannot be journaled within `maxJournalBytes` whatever its Tool
 * returns, or undefined: its id (written twice) and name, at their most,
 * leave no room for the failure result that replaces an entry too large.
 *
 * @example
 * journalRoomRefusal({ ...call, id: "x".repeat(100_000) }, 1_048_576); // "Tool call id and name take …"
 */
export function journalRoomRefusal(
  call: CourseToolCall,
  maxJournalBytes: number,
): string | undefined {
  const bytes = ENTRY_ROOM + FAILURE_ROOM + TEXT_BYTES * (2 * call.id.length + call.name.length);
  if (bytes <= maxJournalBytes) return undefined;
  return (
    `Tool call id and name take up to ${bytes} bytes of each journal entry, over the durable ` +
    `journal's limit of ${maxJournalBytes} (maxJournalBytes): no result of this call could be ` +
    "journaled, so no Tool of the round runs"
  );
}

/**
 * The options a call runs with so that its result fits `maxJournalBytes`:
 * `options` as they are, or with a call-level `outputBudget` whose
 * `maxTotalBytes` is lowered to the room the text leaves (the text counted at its most: `content` and the text parts, six
 * bytes a code point each; the parts' other fields; the call's id and name).
 * Every other field of the budget stays as the call's, Tool's or registry's.
 *
 * @example
 * journalCallOptions(options, callOutput, registry, call, DURABLE_MAX_JOURNAL_BYTES) === options; // true with the default budgets
 */
export function journalCallOptions(
  options: ToolCallOptions,
  callOutput: OutputLevel | undefined,
  registry: ToolRegistry,
  call: CourseToolCall,
  maxJournalBytes: number,
): ToolCallOptions {
  const { maxCharacters, parts } = resolvedCallBudgets(registry, call.name, callOutput);
  const textRoom =
    2 * TEXT_BYTES * maxCharacters +
    PART_ROOM * parts.maxParts +
    TEXT_BYTES * (2 * call.id.length + call.name.length) +
    ENTRY_ROOM;
  const room = maxJournalBytes - textRoom;
  // Base64 writes 3 bytes as 4 characters.
  const bytes = room >= 4 ? ((room - (room % 4)) / 4) * 3 : 0;
  // The total bounds every part too: a part over it is left out, its line naming the total.
  if (parts.maxTotalBytes <= bytes) return options;
  return freeze({
    ...options,
    outputBudget: freeze({
      ...callOutput?.outputBudget,
      // At least 1 byte: the budget's own floor. A part that small costs 4 characters.
      maxTotalBytes: bytes > 0 ? bytes : 1,
    }),
  });
}

/** The UTF-8 bytes of `text` written as a JSON string, quotes left out. */
function jsonBytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (unit === 0x22 || unit === 0x5c) bytes += 2;
    else if (unit < 0x20) bytes += 6;
    else if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = index + 1 < text.length ? stringCharCodeAt(text, index + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 6;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/**
 * The JSON bytes of `entry`'s fields, each text measured by `measure` (base64
 * data is ASCII with nothing to escape: its length), plus room for keys and
 * punctuation. Read by index and by field: the entry and its parts are the
 * core's frozen data, and no array method or iterator a Tool could patch runs.
 */
function measureEntry(entry: JournaledResult, measure: (text: string) => number): number {
  let total =
    ENTRY_ROOM +
    measure(entry.id) +
    measure(entry.toolCallId) +
    measure(entry.toolName) +
    measure(entry.content);
  // Own fields only (see toJournal): an entry without parts, or a file part without a name,
  // would read a getter a Tool planted on Object.prototype.
  const parts = ownDataValue(entry, "parts") as JournaledResult["parts"];
  if (parts === undefined) return total;
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] as NonNullable<JournaledResult["parts"]>[number];
    total += PART_ROOM;
    if (part.type === "text") total += measure(part.text);
    else {
      total += part.data.length + measure(part.mimeType);
      const name = part.type === "file" ? ownDataValue(part, "name") : undefined;
      if (typeof name === "string") total += measure(name);
    }
  }
  return total;
}

const textBound = (text: string): number => TEXT_BYTES * text.length;

/**
 * The JSON bytes of `entry` at most: a quick bound (six bytes a code unit of
 * text), and only when that may not fit, the texts counted exactly.
 *
 * @example
 * journalBytes(toJournal(result), DURABLE_MAX_JOURNAL_BYTES); // a little over the entry's JSON length
 */
export function journalBytes(entry: JournaledResult, maxJournalBytes: number): number {
  const bound = measureEntry(entry, textBound);
  return bound <= maxJournalBytes ? bound : measureEntry(entry, jsonBytes);
}

/**
 * `entry` when it fits `maxJournalBytes`, else the journal entry of a
 * `TOOL_OUTPUT_SERIALIZATION_FAILED` result saying why: Restate would
 * refuse the entry, retry the step and run the Tool again, forever.
 *
 * @example
 * fitJournal(toJournal(result), call, DURABLE_MAX_JOURNAL_BYTES); // the entry, unless it is over 32 MiB
 */
export function fitJournal(
  entry: JournaledResult,
  call: CourseToolCall,
  maxJournalBytes: number,
): JournaledResult {
  const bytes = journalBytes(entry, maxJournalBytes);
  if (bytes <= maxJournalBytes) return entry;
  return toJournal(
    toolErrorResult(
      call,
      "TOOL_OUTPUT_SERIALIZATION_FAILED",
      `Tool output takes more than ${maxJournalBytes} bytes as a durable journal entry ` +
        `(about ${bytes}), over the journal's limit (maxJournalBytes); the Tool ran, and its ` +
        "output was not kept",
    ),
  );
}
