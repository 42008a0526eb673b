/**
 * A pattern compiled for Ajv: the RE2JS programs it runs (one, or one per
 * part of a pattern that opens with lookaheads), each match bounded by the
 * engine's clock and timed, each program's DFA cache kept small.
 */

import type { MatchClock } from "./pattern-budgets.ts";

/**
 * The DFA memory a compiled pattern keeps between matches, in bytes (RE2JS's
 * own estimate): 512 per instruction, from 4 KB to 64 KB, and never less than
 * eight states' tables (a table has a slot per Unicode class, and a pattern
 * that could not keep a few would build them again at every match). RE2JS
 * would keep up to 8 MB a pattern; a larger cache is dropped after the match
 * that grew it.
 *
 * @example
 * keptDfaBytes(6, 3); // 4096
 * keptDfaBytes(200, 3); // 65536 (200 × 512 is past the cap)
 */
export function keptDfaBytes(size: number, classes: number): number {
  const bySize = Math.min(64 * 1024, Math.max(4 * 1024, size * 512));
  return Math.max(bySize, 8 * (classes + 1) * 8 + 8 * 150);
}

/**
 * What a compiled pattern offers Ajv: an unanchored search, and a text that
 * tells patterns apart (Ajv caches compiled patterns by it).
 *
 * @example
 * const compiled: CompiledPattern = (await linearTimePatterns())("^\\d+$", "u");
 * compiled.test("2026"); // true
 */
export interface CompiledPattern {
  test(text: string): boolean;
  toString(): string;
}

/**
 * The parts of RE2JS's DFA read here: its budget, what is left of it, its
 * classes, its reset.
 *
 * @example
 * const dfa: Re2Dfa | undefined = program.re2Input?.dfa;
 * const used = dfa === undefined ? 0 : dfa.maxMem - dfa.memBudget; // bytes of DFA states kept
 */
export interface Re2Dfa {
  readonly maxMem: number;
  readonly memBudget: number;
  readonly numClasses: number;
  clearCache(): void;
}

/**
 * The parts of an RE2JS program this module and the engine read.
 *
 * @example
 * const program: Re2Program = RE2JS.compile("^(?:a+)$");
 * program.test("aaa"); // true
 */
export interface Re2Program {
  test(input: string): boolean;
  programSize(): number;
  readonly re2Input?: { readonly lazyDFA?: Re2Dfa | null; readonly dfa?: Re2Dfa };
}

/**
 * One program a pattern runs: the whole pattern, or one of its parts when it
 * opens with lookaheads (pattern-lookaheads.ts), with the verdict it must
 * give for the text to match and the DFA memory it may keep.
 *
 * @example
 * const forbidden: Part = { program: RE2JS.compile("^(?:.*\\s)"), matches: false, kept: 4_096 };
 */
export interface Part {
  readonly program: Re2Program;
  readonly matches: boolean;
  readonly kept: number;
}

/** Runs one part's program, then drops its DFA cache past what it may keep. */
function runPart(part: Part, text: string, clock: MatchClock): boolean {
  try {
    return clock.timed(() => part.program.test(text));
  } finally {
    // RE2JS's own DFA (its typed fields), dropped before the next part builds its own: a
    // match holds one part's cache at a time. Also after a match that threw (the engine's
    // stack can run out under a deep check).
    const dfa = part.program.re2Input?.lazyDFA;
    if (dfa != null && dfa.maxMem - dfa.memBudget > part.kept) dfa.clearCache();
  }
}

/**
 * A compiled pattern as Ajv uses it: each match bounded by `clock` (paid for
 * as `size`, the parts' instructions together, times the text's length plus
 * one) and timed part by part, each part's DFA cache kept small; `key` is
 * what Ajv caches it by.
 *
 * @example
 * const compiled = compiledPattern([{ program, matches: true, kept: 4_096 }], "re2:^a$", clock, 4);
 * compiled.test("a"); // true
 */
export function compiledPattern(
  parts: readonly Part[],
  key: string,
  clock: MatchClock,
  size: number,
): CompiledPattern {
  return {
    test: (text: string) => {
      // Every part's program is paid for before the first runs: `size` is their sum.
      clock.before(size * (text.length + 1));
      for (let index = 0; index < parts.length; index += 1) {
        const part = parts[index] as Part;
        // Between parts too: filling a DFA's tables costs by its classes, not its
        // instructions, so sixteen small parts against one text took 350 to 470 ms where
        // each alone took 50. A match now ends at the first part after the check's time.
        if (index > 0) clock.withinTime();
        if (runPart(part, text, clock) !== part.matches) return false;
      }
      return true;
    },
    toString: () => key,
  };
}
