/**
 * Serialization under a configured budget: the walk's text, or a top-level
 * string measured without walking, cut as the host's strategy says, with a
 * marker that names which budget ran out and where the full output went.
 */

import { stringIsWellFormed } from "./intrinsics.js";
import {
  codePointCount,
  escapeRange,
  firstCodePoints,
  measureHead,
  measureTail,
  RAW_TEXT,
  type TextSpan,
  type TextStyle,
} from "./json-text.js";
import { type OutputFormat, stringStyle, structuredStyle } from "./output-format.js";
import {
  liveHasOwn,
  type OutputLimitName,
  type WalkLimits,
  type WalkResult,
  walkValue,
} from "./output-walk.js";
import { structuredMarker, textMarker } from "./truncation-markers.js";

/** Where a configured cut keeps text: see `TruncateStrategy` in `output-budget.ts`. */
export type CutStrategy = "head" | "tail" | "head-and-tail";

/**
 * A serialization under a configured budget, before its marker is final: a
 * cut output is finished once the spill hook (if any) has named where the
 * full output went.
 */
export type OutputDraft =
  | { readonly kind: "refused"; readonly message: string }
  | { readonly kind: "whole"; readonly content: string }
  | {
      readonly kind: "cut";
      readonly limit: OutputLimitName;
      /** The final content, at most `maxCharacters` code points, naming `reference` if given. */
      finish(reference: string | undefined): string;
    };

/**
 * Serializes a Tool's output under a configured budget (same rules as
 * `serializeToolOutput`, the same calls of the live `Object.hasOwn`). A cut
 * top-level string keeps its head, its tail or both, as `strategy` says;
 * structured output always keeps the head. `format` (default `"json"`) says
 * whether a top-level string is a JSON literal or the text itself, and which
 * escapes structured output takes.
 */
export function draftOutput(
  value: unknown,
  limits: WalkLimits,
  strategy: CutStrategy,
  format: OutputFormat = "json",
): OutputDraft {
  if (typeof value === "string") return draftText(value, limits, strategy, stringStyle(format));
  return draftFrom(walkValue(value, limits, liveHasOwn, structuredStyle(format)), limits);
}

/** A walk's result as a draft: a cut one is finished with the configured marker. */
export function draftFrom(result: WalkResult, limits: WalkLimits): OutputDraft {
  if (result.kind !== "cut") return result;
  const { walk, limit } = result;
  const finish = (reference: string | undefined): string => {
    const marker = `\n${structuredMarker(limit, limits, walk.rootArrayLength, reference)}`;
    // Without a reference the marker is ASCII: its length is its code-point count.
    const room =
      limits.maxCharacters - (reference === undefined ? marker.length : codePointCount(marker));
    // `written` counts the code points of `out`: a walk cut early (by depth, say) keeps it all.
    return (walk.written <= room ? walk.out : firstCodePoints(walk.out, room)) + marker;
  };
  return { kind: "cut", limit, finish };
}

/**
 * A top-level string under a configured budget, measured without walking:
 * whole when its text fits the cap and its code points the string budget
 * (exactly what the walk would decide), else cut as `strategy` says. In the
 * course's style it is a JSON literal; in raw style (`format: "text"`) the
 * text itself, without quotes.
 */
export function draftText(
  text: string,
  limits: WalkLimits,
  strategy: CutStrategy,
  style: TextStyle,
): OutputDraft {
  const length = text.length;
  // Raw text within both budgets by its length alone (code points never outnumber code
  // units) and well-formed by the native check (constant time for one-byte strings): itself.
  if (
    style === RAW_TEXT &&
    length <= limits.maxCharacters &&
    length <= limits.maxStringCharacters &&
    stringIsWellFormed?.(text) === true
  ) {
    return { kind: "whole", content: text };
  }
  const quote = style === RAW_TEXT ? "" : '"';
  const whole = measureHead(
    text,
    limits.maxCharacters - 2 * quote.length,
    limits.maxStringCharacters,
    undefined,
    style,
  );
  if (whole.units === length) {
    return { kind: "whole", content: `${quote}${escapeRange(text, 0, length, style)}${quote}` };
  }
  // The string budget ran out first when the measure stopped for lack of source room. Raw
  // text writes one code point per one taken, so both budgets often run out together (both
  // default to 4096): the content's own cap is then the one named.
  const stringFirst =
    whole.taken === limits.maxStringCharacters &&
    (style !== RAW_TEXT || whole.written < limits.maxCharacters);
  const limit: OutputLimitName = stringFirst ? "string characters" : "characters";
  return {
    kind: "cut",
    limit,
    finish: (reference) => cutText(text, limit, limits, strategy, reference, style),
  };
}

/**
 * Cuts a top-level string within `maxCharacters`, marker included: the head
 * (`"…` then the marker), the tail (the marker, then `…"`), or both ends
 * around it. The marker states the kept count, whose digits change its
 * length: the text is first measured for the largest count the marker could
 * state (never over the cap); when the actual count is shorter, it is measured
 * on into the room that leaves, and when that crosses a digit boundary, once
 * more into the room the longer count leaves. Costs what it keeps.
 */
function cutText(
  text: string,
  limit: OutputLimitName,
  limits: WalkLimits,
  strategy: CutStrategy,
  reference: string | undefined,
  style: TextStyle,
): string {
  const total = text.length;
  const quote = style === RAW_TEXT ? "" : '"';
  const marker = (kept: number): string => textMarker(kept, total, limit, limits, reference);
  // A line feed and a quote (none in raw text) for head or tail, two of each for both ends.
  const extras = (strategy === "head-and-tail" ? 2 : 1) * (1 + quote.length);
  const roomFor = (kept: number): number =>
    limits.maxCharacters - codePointCount(marker(kept)) - extras;
  const sourceRoom = limits.maxStringCharacters;
  const write = (start: number, end: number): string => escapeRange(text, start, end, style);
  if (strategy === "head") {
    const head = fill((room, from) => measureHead(text, room, sourceRoom, from, style), 0, 0);
    return `${quote}${write(0, head.units)}\n${marker(head.units)}`;
  }
  if (strategy === "tail") {
    const tail = fill((room, from) => measureTail(text, room, sourceRoom, 0, from, style), 0, 0);
    return `${marker(tail.units)}\n${write(total - tail.units, total)}${quote}`;
  }
  const widest = roomFor(total);
  const head = measureHead(
    text,
    widest - (widest >> 1),
    sourceRoom - (sourceRoom >> 1),
    undefined,
    style,
  );
  // The tail takes what the head left; only the tail grows in the later measures.
  const tail = fill(
    (room, from) =>
      measureTail(text, room - head.written, sourceRoom - head.taken, head.units, from, style),
    head.units,
    head.written,
  );
  const kept = head.units + tail.units;
  const ends = `${write(0, head.units)}\n${marker(kept)}\n${write(total - tail.units, total)}`;
  return `${quote}${ends}${quote}`;

  /**
   * Measures (`measure(room, from)`) to the largest room whose marker still
   * fits beside it. `baseUnits` and `baseWritten` are what a fixed head adds.
   */
  function fill(
    measure: (room: number, from: TextSpan | undefined) => TextSpan,
    baseUnits: number,
    baseWritten: number,
  ): TextSpan {
    const fits = (span: TextSpan): boolean =>
      baseWritten + span.written <= roomFor(baseUnits + span.units);
    const widestRoom = roomFor(total);
    const first = measure(widestRoom, undefined);
    const room = roomFor(baseUnits + first.units);
    if (room <= widestRoom) return first;
    const wider = measure(room, first);
    if (fits(wider)) return wider;
    // The longer count needs one more digit: measure again into the room it leaves.
    const exact = measure(roomFor(baseUnits + wider.units), first);
    return fits(exact) ? exact : first;
  }
}
