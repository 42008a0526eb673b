/**
 * A `toolContent` value at the boundary: its parts under the call's part
 * budgets, and `content`, the text every consumer can read: the text parts
 * and one line per binary part, joined with line feeds, within
 * `maxCharacters`. A part that is refused or over budget becomes a line that
 * says why; nothing is dropped without a line or a marker saying so.
 */

import { encodeBase64 } from "./base64.js";
import { addSlot, freeze, NativeError } from "./intrinsics.js";
import { codePointCount, escapeRange, measureHead, RAW_TEXT } from "./json-text.js";
import type { PartLimits } from "./output-budget.js";
import type { SpillSettings } from "./output-settings.js";
import { type CutFacts, reportSpillFailure, spillFullOutput } from "./output-spill.js";
import type { WalkLimits } from "./output-walk.js";
import type { CourseToolCall, ToolResultPart } from "./protocol.js";
import type { BuiltBinaryPart, BuiltPart } from "./tool-content.js";
import { textMarker } from "./truncation-markers.js";

/** What a call's settings say about a `toolContent` value. */
export interface ContentSettings {
  readonly limits: WalkLimits;
  readonly parts: PartLimits;
  readonly spill: SpillSettings | undefined;
}

/**
 * The text a `toolContent` value becomes, its parts when one is binary, and
 * whether its text parts were cut by `maxCharacters`.
 */
export interface RenderedContent {
  readonly content: string;
  readonly parts: readonly ToolResultPart[] | undefined;
  readonly truncated: boolean;
}

/**
 * The longest line a part adds to `content`, in code points: a placeholder
 * naming a 64-character file name, or the longest reason a part is left out.
 * A test checks every line against it.
 */
export const PART_LINE_MAX = 128;

/**
 * Room kept beside the lines for the marker of cut text: the longest one,
 * with a 200-character spill reference and twelve-digit counts, and its line
 * feed.
 */
const MARKER_ROOM = 300;

/** The line standing for a binary part that passed: `[image: image/png, 12345 bytes]`. */
export function placeholderLine(
  type: string,
  mimeType: string,
  byteLength: number,
  name: string | undefined,
): string {
  const named = name === undefined ? "" : `${name}, `;
  return `[${type}: ${named}${mimeType}, ${byteLength} bytes]`;
}

/** The line replacing a part that did not: `[image omitted: 7340032 bytes, over …]`. */
function omittedLine(type: string, why: string): string {
  return `[${type} omitted: ${why}]`;
}

type Item =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "line"; readonly text: string }
  | { readonly kind: "binary"; readonly line: string; readonly part: ToolResultPart };

/** The part's base64 text, encoded once (the value may be returned again). */
function base64Of(part: BuiltBinaryPart): string {
  if (part.base64 === undefined) part.base64 = encodeBase64(part.bytes as Uint8Array);
  return part.base64;
}

function binaryItem(part: BuiltBinaryPart): Item {
  const data = base64Of(part);
  const base = { type: part.type, data, mimeType: part.mimeType };
  const checked = (
    part.name === undefined ? freeze(base) : freeze({ ...base, name: part.name })
  ) as ToolResultPart;
  const line = placeholderLine(part.type, part.mimeType, part.byteLength, part.name);
  return { kind: "binary", line, part: checked };
}

/** Integer division, without a global `Math` a Tool could have replaced. */
const quotient = (dividend: number, divisor: number): number =>
  (dividend - (dividend % divisor)) / divisor;

/**
 * The parts that are read, in order, each turned into an item under the
 * byte budgets. Lines are bounded in number too: so many that each fits in
 * `maxCharacters` beside the marker, whatever budgets a host combines; the
 * parts past either count are left out with one line saying how many.
 */
function budgetParts(parts: readonly BuiltPart[], settings: ContentSettings): Item[] {
  // Every list here is filled with addSlot (defined, not assigned): an index setter planted
  // on Array.prototype would otherwise receive a part, and could swallow it.
  const { maxParts, maxPartBytes, maxTotalBytes } = settings.parts;
  const maxCharacters = settings.limits.maxCharacters;
  // One line is kept for the parts left out.
  const maxLines = quotient(maxCharacters - MARKER_ROOM, PART_LINE_MAX + 1) - 1;
  const items: Item[] = [];
  let lines = 0;
  let total = 0;
  let index = 0;
  for (; index < parts.length && index < maxParts; index += 1) {
    const part = parts[index] as BuiltPart;
    if (part.type === "text") {
      addSlot(items, items.length, { kind: "text", text: part.text });
      continue;
    }
    if (lines === maxLines) break;
    lines += 1;
    const size = part.byteLength;
    const why =
      part.problem ??
      (size > maxPartBytes
        ? `${size} bytes, over the ${maxPartBytes}-byte part limit`
        : total + size > maxTotalBytes
          ? `${size} bytes, over the ${maxTotalBytes}-byte total limit`
          : undefined);
    if (why !== undefined) {
      addSlot(items, items.length, { kind: "line", text: omittedLine(part.type, why) });
      continue;
    }
    total += size;
    addSlot(items, items.length, binaryItem(part));
  }
  const left = parts.length - index;
  if (left > 0) {
    const why =
      index === maxParts
        ? `over the ${maxParts}-part limit`
        : `no room for more part lines in ${maxCharacters} characters`;
    const what = left === 1 ? "1 more part" : `${left} more parts`;
    addSlot(items, items.length, { kind: "line", text: `[${what} omitted: ${why}]` });
  }
  return items;
}

function lineOf(item: Item): string {
  return item.kind === "binary" ? item.line : item.text;
}

function joinLines(items: readonly Item[], lineFor: (item: Item) => string): string {
  let text = "";
  for (let index = 0; index < items.length; index += 1) {
    text += index === 0 ? lineFor(items[index] as Item) : `\n${lineFor(items[index] as Item)}`;
  }
  return text;
}

/**
 * Hands the full text of the parts to the spill hook; the reference it names,
 * or undefined. Text parts can share one string, so their sum can be longer
 * than one string holds: that text cannot be given to the hook, which is
 * reported as a spill failure, and the content is cut as without a hook.
 */
function spillText(
  items: readonly Item[],
  spill: SpillSettings,
  call: CourseToolCall,
  facts: CutFacts | undefined,
): string | undefined {
  let full: string;
  try {
    full = joinLines(wellFormed(items), lineOf);
  } catch (thrown) {
    // The engine's RangeError for a string past its length limit: nothing else here throws.
    const error = new NativeError(
      "the full output could not be written: its text is longer than one string can hold",
      { cause: thrown },
    );
    reportSpillFailure(spill, call, "characters", error);
    return undefined;
  }
  return spillFullOutput(full, spill, call, "characters", "text", facts);
}

/**
 * Cuts the text parts, in order, to fit what the lines leave of
 * `maxCharacters`: the first text part that does not fit keeps its head and
 * ends with the marker, which states how much of all the parts' text was
 * kept; the text parts after it are left out. Lines and binary parts stay.
 * Every item costs its text plus one line feed (the first item has none, so
 * the room starts one above the cap).
 */
function cutText(
  items: Item[],
  settings: ContentSettings,
  call: CourseToolCall,
  facts: CutFacts | undefined,
): readonly Item[] | undefined {
  const limits = settings.limits;
  let room = limits.maxCharacters + 1;
  let total = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as Item;
    if (item.kind === "text") total += item.text.length;
    else room -= codePointCount(lineOf(item)) + 1;
  }
  let left = room;
  let fits = true;
  for (let index = 0; index < items.length && fits; index += 1) {
    const item = items[index] as Item;
    if (item.kind !== "text") continue;
    left -= 1;
    const span = measureHead(item.text, left, Number.POSITIVE_INFINITY, undefined, RAW_TEXT);
    fits = left >= 0 && span.units === item.text.length;
    left -= span.written;
  }
  if (fits) return undefined;
  const spill = settings.spill;
  const reference = spill === undefined ? undefined : spillText(items, spill, call, facts);
  // An observed call learns the cut as a serialized output's would be noted.
  if (facts !== undefined) {
    facts.limit = "characters";
    facts.spillReference = reference;
  }
  const marker = (kept: number) => textMarker(kept, total, "characters", limits, reference);
  // The widest marker the count could need (the actual one is never longer), and its line feed.
  left = room - codePointCount(marker(total)) - 1;
  const kept: Item[] = [];
  let keptUnits = 0;
  let cut = false;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as Item;
    if (item.kind !== "text") {
      addSlot(kept, kept.length, item);
      continue;
    }
    if (cut) continue;
    // No room for even the item's line feed: the marker stands alone, on the feed kept for it.
    const span =
      left < 1
        ? { units: 0, written: 0 }
        : measureHead(item.text, left - 1, Number.POSITIVE_INFINITY, undefined, RAW_TEXT);
    left -= 1 + span.written;
    keptUnits += span.units;
    const head = escapeRange(item.text, 0, span.units, RAW_TEXT);
    if (left >= 0 && span.units === item.text.length) {
      addSlot(kept, kept.length, { kind: "text", text: head });
      continue;
    }
    cut = true;
    const end = marker(keptUnits);
    addSlot(kept, kept.length, { kind: "text", text: head === "" ? end : `${head}\n${end}` });
  }
  return kept;
}

/** The items with every text part well-formed (a lone surrogate as U+FFFD). */
function wellFormed(items: readonly Item[]): readonly Item[] {
  const out: Item[] = [];
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as Item;
    addSlot(
      out,
      index,
      item.kind === "text"
        ? { kind: "text", text: escapeRange(item.text, 0, item.text.length, RAW_TEXT) }
        : item,
    );
  }
  return out;
}

function partOf(item: Item): ToolResultPart {
  return item.kind === "binary" ? item.part : freeze({ type: "text", text: item.text });
}

/**
 * Renders a `toolContent` value's parts under a call's settings: the
 * `content` text, and the checked parts (text parts, lines for what was left
 * out, and binary parts as strict base64) when at least one binary part
 * passed. A spill hook, when set, receives the full text when the text parts
 * were cut. An observed call passes `facts` to learn what the cut did (the
 * limit, the spill reference and the spilled text's size).
 */
export function renderToolContent(
  parts: readonly BuiltPart[],
  settings: ContentSettings,
  call: CourseToolCall,
  facts?: CutFacts,
): RenderedContent {
  const budgeted = budgetParts(parts, settings);
  const cut = cutText(budgeted, settings, call, facts);
  const truncated = cut !== undefined;
  const items = cut ?? wellFormed(budgeted);
  const content = joinLines(items, lineOf);
  let binary = false;
  for (let index = 0; index < items.length && !binary; index += 1) {
    binary = (items[index] as Item).kind === "binary";
  }
  if (!binary) return { content, parts: undefined, truncated };
  const checked: ToolResultPart[] = [];
  for (let index = 0; index < items.length; index += 1) {
    // Defined, not assigned: an index setter planted on Array.prototype never sees a part.
    addSlot(checked, index, partOf(items[index] as Item));
  }
  return { content, parts: freeze(checked), truncated };
}
