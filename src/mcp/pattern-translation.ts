/**
 * Rewrites a JSON Schema `pattern` (an ECMAScript regular expression, `u`
 * flag) into RE2 syntax with the same meaning, so that a linear-time engine
 * can run it. Where the two dialects read the same text differently (`.`,
 * `\s`, `\S`, `[]`, `[^]`, `\b` in a class, `\0`, `\cX`, `\u` escapes, named
 * groups, Unicode properties RE2 has no name for), the ECMAScript meaning is
 * spelled out; what RE2 cannot run at all
 * (lookaround, backreferences, inline modifiers) is refused with the reason.
 */

import {
  addSlot,
  numberIsFinite,
  regExpTest,
  sealedRegExp,
  stringCharCodeAt,
  stringSlice,
} from "../../course/src/internal.ts";
import {
  type CodePointRange,
  codePointEscape,
  complement,
  rangesOf,
  rangesText,
  WHITE_SPACE_CODE_POINTS,
  WHITE_SPACE_RANGES,
} from "./code-point-ranges.ts";

// A remote server's schemas may be compiled after a Tool of this process replaced built-ins
// (`indexOf`, `slice`, `startsWith`, `toString`, `parseInt`), which could make the RE2 text check
// another pattern than the one declared: what this calls is captured at load, or the core's.
const nativeParseInt = Number.parseInt;
const nativeFromCodePoint = String.fromCodePoint;

/** The index of the first `unit` in `text` at or after `from`, or -1 (no live `indexOf`). */
function indexOfUnit(text: string, unit: number, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    if (stringCharCodeAt(text, index) === unit) return index;
  }
  return -1;
}

/**
 * Why a pattern cannot be rewritten: the message says what it uses.
 *
 * @example
 * toRe2Syntax("(?=a)", platform); // throws PatternRefusal: lookaround cannot run in linear time
 */
export class PatternRefusal extends Error {}

/**
 * The refusal of a pattern whose RE2 text passes the limit given to
 * {@link toRe2Syntax} (a caller writing several parts under one limit says
 * so in its own words).
 *
 * @example
 * try { toRe2Syntax(pattern, platform, 65_536); } catch (thrown) { if (thrown instanceof SourceTooLong) … }
 */
export class SourceTooLong extends PatternRefusal {}

// What `.` matches in ECMAScript without the `s` flag: anything but a line terminator
// (RE2's `.` leaves out only "\n").
const NOT_LINE_TERMINATOR = "[^\\n\\r\\x{2028}\\x{2029}]";

const ANY = "[\\x{0}-\\x{10FFFF}]";
const NOTHING = "[^\\x{0}-\\x{10FFFF}]";

/** A property's name as RE2 would spell it (no `Script=` or `General_Category=` prefix), if it has one. */
function re2Spelling(body: string): string | undefined {
  const equals = indexOfUnit(body, 0x3d, 0);
  if (equals < 0) return body;
  const key = stringSlice(body, 0, equals);
  if (key === "Script" || key === "sc" || key === "General_Category" || key === "gc") {
    return stringSlice(body, equals + 1);
  }
  return undefined;
}

/**
 * `\p{body}` (or `\P{…}` when `negated`) in RE2: by RE2's own name when it
 * has the property, else as the code points the platform's engine says it
 * matches (`\p{Letter}`, `\p{sc=Latn}`, `\p{ID_Start}` have no RE2 name).
 */
function property(
  body: string,
  negated: boolean,
  withinClass: boolean,
  platform: PlatformQuestions,
): string {
  const name = re2Spelling(body);
  if (name !== undefined && platform.re2Knows(name)) return `\\${negated ? "P" : "p"}{${name}}`;
  const matched = platform.propertyRanges(`\\p{${body}}`);
  const listed = rangesText(negated ? complement(matched) : matched);
  // In a class the ranges join its body (an empty body is handled there); alone, a class.
  if (withinClass) return listed;
  return listed === "" ? NOTHING : `[${listed}]`;
}

/** One escape and where the pattern goes on after it. */
interface Escape {
  readonly text: string;
  readonly next: number;
}

// Sealed: its own `exec` is the original, whatever `RegExp.prototype.exec` becomes.
const HEX4 = sealedRegExp(/^[0-9A-Fa-f]{4}$/);

/**
 * Reads the escape at `at` (the backslash). `withinClass`: inside `[…]`, where
 * `\b` is a backspace. `\s` and `\S` are left to the caller, which knows
 * where it stands.
 */
function readEscape(
  pattern: string,
  at: number,
  withinClass: boolean,
  platform: PlatformQuestions,
): Escape {
  const letter = pattern[at + 1] ?? "";
  switch (letter) {
    case "d":
    case "D":
    case "w":
    case "W":
    case "t":
    case "n":
    case "v":
    case "f":
    case "r":
      return { text: `\\${letter}`, next: at + 2 };
    case "b":
    case "B":
      if (!withinClass) return { text: `\\${letter}`, next: at + 2 };
      // `[\b]` is a backspace in ECMAScript (`\B` in a class is a syntax error there).
      return { text: "\\x08", next: at + 2 };
    case "0":
      return { text: "\\x00", next: at + 2 };
    case "c": {
      // `\cX` takes an ASCII letter under the `u` flag: its code unit is its code point.
      const unit = stringCharCodeAt(pattern, at + 2);
      const code = (numberIsFinite(unit) ? unit : 0) % 32;
      return { text: codePointEscape(code), next: at + 3 };
    }
    case "x":
      return { text: `\\x${stringSlice(pattern, at + 2, at + 4)}`, next: at + 4 };
    case "u":
      return unicodeEscape(pattern, at);
    case "p":
    case "P": {
      const close = indexOfUnit(pattern, 0x7d, at);
      const body = stringSlice(pattern, at + 3, close);
      return { text: property(body, letter === "P", withinClass, platform), next: close + 1 };
    }
    case "k":
      throw new PatternRefusal("a backreference (\\k<name>) cannot run in linear time");
    default:
      if (letter >= "1" && letter <= "9") {
        throw new PatternRefusal(`a backreference (\\${letter}) cannot run in linear time`);
      }
      // A syntax character, "/" or "-": escaped as it is, which RE2 reads the same way.
      return { text: `\\${letter}`, next: at + 2 };
  }
}

/** `\u{…}`, `\uXXXX`, or a surrogate pair written as two `\uXXXX` (one code point with `u`). */
function unicodeEscape(pattern: string, at: number): Escape {
  if (pattern[at + 2] === "{") {
    const close = indexOfUnit(pattern, 0x7d, at);
    return {
      text: codePointEscape(nativeParseInt(stringSlice(pattern, at + 3, close), 16)),
      next: close + 1,
    };
  }
  const high = nativeParseInt(stringSlice(pattern, at + 2, at + 6), 16);
  const after = stringSlice(pattern, at + 8, at + 12);
  const pairs = stringSlice(pattern, at + 6, at + 8) === "\\u" && regExpTest(HEX4, after);
  if (high >= 0xd800 && high <= 0xdbff && pairs) {
    const low = nativeParseInt(after, 16);
    if (low >= 0xdc00 && low <= 0xdfff) {
      return {
        text: codePointEscape((high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000),
        next: at + 12,
      };
    }
  }
  return { text: codePointEscape(high), next: at + 6 };
}

/**
 * Whether `char` (one code point) matches the ECMAScript character class
 * `source` (`[…]`), asked of the platform's own engine.
 *
 * @example
 * const inClass: ClassTest = (source, char) => new RegExp(`^${source}$`, "u").test(char);
 */
export type ClassTest = (source: string, char: string) => boolean;

/**
 * What the rewrite asks of the engines themselves.
 *
 * @example
 * const platform: PlatformQuestions = { inClass, re2Knows: (name) => name === "L", propertyRanges };
 */
export interface PlatformQuestions {
  /** Asked only for a negated class holding `\S`. */
  readonly inClass: ClassTest;
  /** Whether RE2 has a Unicode property of this name (`L`, `Greek`). */
  readonly re2Knows: (name: string) => boolean;
  /** The code points an ECMAScript `\p{…}` matches, ascending and apart. */
  readonly propertyRanges: (property: string) => readonly CodePointRange[];
}

/** Refuses text that passed `maxCharacters`: the rewrite stops there, not at its end. */
function within(text: string, maxCharacters: number): void {
  if (text.length > maxCharacters) {
    throw new SourceTooLong(
      `written out for RE2 (its Unicode properties and classes as ranges), it passes ${maxCharacters} characters`,
    );
  }
}

/** A character class and where the pattern goes on after it. */
function readClass(
  pattern: string,
  at: number,
  platform: PlatformQuestions,
  maxCharacters: number,
): Escape {
  const negated = pattern[at + 1] === "^";
  let index = negated ? at + 2 : at + 1;
  let body = "";
  let notSpace = false;
  while (pattern[index] !== "]") {
    const char = pattern[index] as string;
    if (char === "\\") {
      const letter = pattern[index + 1];
      if (letter === "s") {
        body += WHITE_SPACE_RANGES;
        index += 2;
      } else if (letter === "S") {
        notSpace = true;
        index += 2;
      } else {
        const read = readEscape(pattern, index, true, platform);
        body += read.text;
        index = read.next;
        // A class of many properties grows by thousands of ranges each: stopped as it passes.
        within(body, maxCharacters);
      }
    } else {
      // "[" is literal here in both dialects, but RE2 would read "[:" as a POSIX class; "^"
      // is literal here too, but once a leading `\S` is taken out of the body it could
      // come first, where RE2 would read it as negation (`[\S^a]`).
      body += char === "[" || char === "^" ? `\\${char}` : char;
      index += 1;
    }
  }
  const next = index + 1;
  if (!notSpace) {
    // ECMAScript's `[]` matches nothing and `[^]` anything; RE2 reads a leading "]" as a literal.
    if (body === "") return { text: negated ? ANY : NOTHING, next };
    return { text: `[${negated ? "^" : ""}${body}]`, next };
  }
  if (!negated) {
    return {
      text: body === "" ? `[^${WHITE_SPACE_RANGES}]` : `(?:[^${WHITE_SPACE_RANGES}]|[${body}])`,
      next,
    };
  }
  // `[^…\S]` is the white space the rest of the class leaves out: listed, each asked of the
  // ECMAScript class itself (one character against a class: no backtracking).
  const source = stringSlice(pattern, at, next);
  const kept: number[] = [];
  for (let index = 0; index < WHITE_SPACE_CODE_POINTS.length; index += 1) {
    const codePoint = WHITE_SPACE_CODE_POINTS[index] as number;
    if (platform.inClass(source, nativeFromCodePoint(codePoint))) {
      addSlot(kept, kept.length, codePoint);
    }
  }
  return { text: kept.length === 0 ? NOTHING : `[${rangesText(rangesOf(kept))}]`, next };
}

/**
 * Rewrites `pattern`, a valid ECMAScript pattern under the `u` flag, into RE2
 * syntax that matches the same strings, asking `platform` what only the
 * engines can answer (see {@link PlatformQuestions}). Throws PatternRefusal
 * for lookaround, backreferences and inline modifiers, and as soon as the
 * text passes `maxCharacters` (default: no limit).
 *
 * @example
 * toRe2Syntax("^\\S+$", platform); // "^[^\\x{9}-\\x{D}\\x{20}…\\x{FEFF}]+$"
 */
export function toRe2Syntax(
  pattern: string,
  platform: PlatformQuestions,
  maxCharacters = Number.POSITIVE_INFINITY,
): string {
  let out = "";
  let index = 0;
  while (index < pattern.length) {
    // Each step adds at most one property's ranges: the text stops growing soon after the limit.
    within(out, maxCharacters);
    const char = pattern[index] as string;
    if (char === "\\") {
      const letter = pattern[index + 1];
      if (letter === "s" || letter === "S") {
        out += `[${letter === "S" ? "^" : ""}${WHITE_SPACE_RANGES}]`;
        index += 2;
        continue;
      }
      const read = readEscape(pattern, index, false, platform);
      out += read.text;
      index = read.next;
    } else if (char === "[") {
      const part = readClass(pattern, index, platform, maxCharacters);
      out += part.text;
      index = part.next;
    } else if (char === ".") {
      out += NOT_LINE_TERMINATOR;
      index += 1;
    } else if (char === "(" && pattern[index + 1] === "?") {
      const kind = stringSlice(pattern, index, index + 4);
      const opens = stringSlice(kind, 0, 3);
      if (opens === "(?=" || opens === "(?!" || kind === "(?<=" || kind === "(?<!") {
        throw new PatternRefusal(
          "lookaround cannot run in linear time (only lookaheads right after a leading ^ are checked, each as a pattern of its own)",
        );
      }
      if (opens === "(?<") {
        // A named group: nothing reads captures (backreferences are refused), so it is
        // written as a plain group, whatever characters its name uses.
        out += "(?:";
        index = indexOfUnit(pattern, 0x3e, index) + 1;
      } else if (opens === "(?:") {
        out += "(?:";
        index += 3;
      } else {
        // Newer engines read `(?i:…)`, `(?m:…)` and `(?s:…)` as modifiers, which RE2 reads
        // with other line terminators and case rules: refused rather than run differently.
        throw new PatternRefusal("inline modifiers (?…) are not supported");
      }
    } else {
      out += char;
      index += 1;
    }
  }
  within(out, maxCharacters);
  return out;
}
