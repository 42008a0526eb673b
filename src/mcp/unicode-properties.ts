/**
 * The code points an ECMAScript Unicode property matches (`\p{Letter}`,
 * `\p{sc=Latn}`, `\p{ID_Start}`: names RE2 does not have), asked of the
 * platform's own engine, so that the linear-time engine can run the property
 * as a class with exactly ECMAScript's meaning.
 */

import { addSlot } from "../../course/src/internal.ts";
import type { CodePointRange } from "./code-point-ranges.ts";

// Captured at load: the platform's engine answers here, not a patched global.
const NativeRegExp = RegExp;
const regExpExec = RegExp.prototype.exec;
const regExpTest = RegExp.prototype.test;

/** Properties asked about most recently, kept (up to about 50 KB each). */
const KEPT_PROPERTIES = 128;

const kept = new Map<string, readonly CodePointRange[]>();

/** Code points below and above the surrogates, each run as one text; kept for the rest of the turn. */
interface CodePointTexts {
  readonly below: string;
  readonly above: string;
}

let texts: CodePointTexts | undefined;

function textOf(from: number, to: number): string {
  const chunks: string[] = [];
  for (let start = from; start <= to; start += 4_096) {
    const chunk: number[] = [];
    for (let codePoint = start; codePoint <= Math.min(to, start + 4_095); codePoint += 1) {
      chunk.push(codePoint);
    }
    chunks.push(String.fromCodePoint(...chunk));
  }
  return chunks.join("");
}

function codePointTexts(): CodePointTexts {
  if (texts !== undefined) return texts;
  const made = { below: textOf(0, 0xd7ff), above: textOf(0xe000, 0x10ffff) };
  texts = made;
  // 4 MB of text: dropped once the turn that needed it ends.
  queueMicrotask(() => {
    texts = undefined;
  });
  return made;
}

/** The code point whose last UTF-16 unit ends `text`. */
function lastCodePoint(text: string): number {
  const last = text.charCodeAt(text.length - 1);
  const isLow = last >= 0xdc00 && last <= 0xdfff;
  return (isLow && text.length > 1 ? text.codePointAt(text.length - 2) : last) as number;
}

/**
 * Whether {@link propertyRanges} has `property` at hand (no scan needed).
 *
 * @example
 * if (!isKnownProperty("\\p{Letter}")) chargeForAScan();
 */
export function isKnownProperty(property: string): boolean {
  return kept.has(property);
}

/**
 * The code points `property` (`\p{…}`, valid ECMAScript) matches under the
 * `u` flag, ascending and apart. One scan of every code point with
 * `\p{…}+` (a class repeated: linear, no backtracking) below and above the
 * surrogates, and a test of each lone surrogate.
 *
 * @example
 * propertyRanges("\\p{sc=Grek}")[0]; // [0x370, 0x373]
 */
export function propertyRanges(property: string): readonly CodePointRange[] {
  const known = kept.get(property);
  if (known !== undefined) {
    // Most recently asked last: the least recently asked goes first when the map is full.
    kept.delete(property);
    kept.set(property, known);
    return known;
  }
  const ranges: [number, number][] = [];
  const add = (low: number, high: number) => {
    // Never `ranges[-1]`, and defined rather than pushed: both would reach Array.prototype,
    // where a Tool's planted getter or setter could change what the class matches.
    const previous = ranges.length === 0 ? undefined : ranges[ranges.length - 1];
    if (previous !== undefined && previous[1] + 1 === low) previous[1] = high;
    else addSlot(ranges, ranges.length, [low, high]);
  };
  const { below, above } = codePointTexts();
  const runs = new NativeRegExp(`${property}+`, "gu");
  const scan = (text: string) => {
    runs.lastIndex = 0;
    for (;;) {
      const match = Reflect.apply(regExpExec, runs, [text]) as RegExpExecArray | null;
      if (match === null) return;
      const found = match[0];
      add(found.codePointAt(0) as number, lastCodePoint(found));
    }
  };
  scan(below);
  // The lone surrogates, which a text of pairs cannot hold, one by one and in order.
  const single = new NativeRegExp(`^${property}$`, "u");
  for (let unit = 0xd800; unit <= 0xdfff; unit += 1) {
    if (Reflect.apply(regExpTest, single, [String.fromCharCode(unit)])) add(unit, unit);
  }
  scan(above);
  if (kept.size >= KEPT_PROPERTIES) kept.delete(kept.keys().next().value as string);
  kept.set(property, ranges);
  return ranges;
}
