/**
 * Lookaheads at the start of an anchored pattern, read as patterns of their
 * own. A linear-time engine has no lookaround, but `^(?=A)(?!B)C` (the form
 * of password rules, of zod's `hostname` and `emoji` formats) asks three
 * independent questions of the text's start: `A` matches there, `B` does
 * not, and `C` does. Each is a pattern a linear-time engine can run, so the
 * pattern is checked as three, with its meaning kept; any other lookaround
 * is still refused (pattern-translation.ts).
 */

import { PatternRefusal } from "./pattern-translation.ts";

/**
 * The most lookaheads one pattern may open with: each becomes a program of
 * its own, run on every text the pattern checks (real patterns have a few).
 *
 * @example
 * MAX_LEADING_LOOKAHEADS; // 16
 */
export const MAX_LEADING_LOOKAHEADS = 16;

/**
 * A pattern split at its leading lookaheads, each part anchored at the
 * text's start: the text matches the pattern when every `required` part
 * matches, no `forbidden` part does, and `rest` does.
 *
 * @example
 * const split: LeadingLookaheads = { required: ["^(?:.*\\d)"], forbidden: [], rest: "^(?:.{8,}$)" };
 */
export interface LeadingLookaheads {
  readonly required: readonly string[];
  readonly forbidden: readonly string[];
  readonly rest: string;
}

/**
 * Where the token at `index` ends. The pattern is valid ECMAScript under the
 * `u` flag (checked by the caller), so an escape is a backslash and what
 * follows it (no multi-character escape holds a parenthesis or a `|`), and a
 * class ends at its first unescaped `]` (classes do not nest without the `v`
 * flag, and `[]` is empty): parentheses and `|` are structure only outside
 * both.
 */
function tokenEnd(pattern: string, index: number): number {
  const char = pattern[index];
  if (char === "\\") return index + 2;
  if (char !== "[") return index + 1;
  let at = index + 1;
  while (at < pattern.length) {
    const inside = pattern[at];
    if (inside === "\\") at += 2;
    else if (inside === "]") return at + 1;
    else at += 1;
  }
  return pattern.length;
}

/** Where the group opened at `open` closes; -1 (unreachable for a valid pattern) when it does not. */
function groupEnd(pattern: string, open: number): number {
  let depth = 0;
  for (let index = open; index < pattern.length; index = tokenEnd(pattern, index)) {
    const char = pattern[index];
    if (char === "(") depth += 1;
    else if (char === ")") {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** Whether the pattern has an alternative at its top level (`^(?=a)b|c` is `(^(?=a)b)|c`). */
function hasTopLevelAlternative(pattern: string): boolean {
  let depth = 0;
  for (let index = 0; index < pattern.length; index = tokenEnd(pattern, index)) {
    const char = pattern[index];
    if (char === "(") depth += 1;
    else if (char === ")") depth -= 1;
    else if (char === "|" && depth === 0) return true;
  }
  return false;
}

/**
 * Splits `pattern`, a valid ECMAScript pattern under the `u` flag, into its
 * leading lookaheads and the rest when it has the form `^(?=A)(?!B)…C`;
 * undefined for a pattern that does not open with a lookahead after `^`
 * (which is translated as it is). Each part is anchored and grouped, so an
 * alternative inside it stays inside. Without the `m` flag `^` matches only
 * at the text's start, and a lookahead's captures are read by nothing (a
 * backreference is refused), so the parts' verdicts combine to the
 * pattern's. Throws PatternRefusal for such a pattern with an alternative at
 * its top level, and past {@link MAX_LEADING_LOOKAHEADS}.
 *
 * @example
 * splitLeadingLookaheads("^(?=.*\\d)(?!.*\\s).{8,}$");
 * // { required: ["^(?:.*\\d)"], forbidden: ["^(?:.*\\s)"], rest: "^(?:.{8,}$)" }
 */
export function splitLeadingLookaheads(pattern: string): LeadingLookaheads | undefined {
  if (pattern[0] !== "^") return undefined;
  const opensWithLookahead = (at: number) =>
    pattern.startsWith("(?=", at) || pattern.startsWith("(?!", at);
  if (!opensWithLookahead(1)) return undefined;
  if (hasTopLevelAlternative(pattern)) {
    // `^(?=a)b|c` is `(^(?=a)b)|c`: its lookaheads do not hold for the whole text's start.
    throw new PatternRefusal(
      "lookaheads right after a leading ^ are checked only in a pattern without an alternative (|) at its top level",
    );
  }
  const required: string[] = [];
  const forbidden: string[] = [];
  let at = 1;
  while (opensWithLookahead(at)) {
    if (required.length + forbidden.length === MAX_LEADING_LOOKAHEADS) {
      throw new PatternRefusal(
        `more than ${MAX_LEADING_LOOKAHEADS} leading lookaheads, each checked as a pattern of its own`,
      );
    }
    const end = groupEnd(pattern, at);
    if (end < 0) return undefined;
    const part = `^(?:${pattern.slice(at + 3, end)})`;
    if (pattern[at + 2] === "=") required.push(part);
    else forbidden.push(part);
    at = end + 1;
  }
  return { required, forbidden, rest: `^(?:${pattern.slice(at)})` };
}
