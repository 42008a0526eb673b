/**
 * JSON Schema patterns in linear time: an Ajv `PatternEngine` that runs each
 * `pattern` (and `patternProperties` key) of another server's schema on
 * RE2JS, a linear-time engine, instead of the platform's backtracking one,
 * on which a pattern such as `^(a+)+$` and some forty characters of a
 * model's argument keep the event loop busy for minutes. What it may spend
 * is bounded in pattern-budgets.ts.
 */

import { cutText } from "./bounded-text.ts";
import {
  type CompiledPattern,
  compiledPattern,
  keptDfaBytes,
  type Part,
  type Re2Program,
} from "./compiled-pattern.ts";
import {
  type CompileAccount,
  MatchClock,
  PROPERTY_ESCAPE_COST,
  PROPERTY_SCAN_COST,
  propertyEscapes,
} from "./pattern-budgets.ts";
import { splitLeadingLookaheads } from "./pattern-lookaheads.ts";
import { estimatePatternSize } from "./pattern-size.ts";
import {
  PatternRefusal,
  type PlatformQuestions,
  SourceTooLong,
  toRe2Syntax,
} from "./pattern-translation.ts";
import { isKnownProperty, propertyRanges } from "./unicode-properties.ts";

/**
 * The most instructions one pattern may compile to. A linear-time engine's
 * work is still its program's size times the text's length: this bounds the
 * first factor (`^[a-z0-9_-]+$` is 6; `^.{1,1000}$` about 2,000).
 *
 * @example
 * MAX_PATTERN_INSTRUCTIONS; // 5000
 */
export const MAX_PATTERN_INSTRUCTIONS = 5_000;

/**
 * The longest pattern read, in UTF-16 code units: parsing and compiling cost
 * time in proportion to a pattern's text (about 50 µs per character for a
 * class of `\p{L}` written 800 times), whatever it compiles to.
 *
 * @example
 * MAX_PATTERN_CHARACTERS; // 4096
 */
export const MAX_PATTERN_CHARACTERS = 4_096;

/**
 * The longest text a pattern may be rewritten to for RE2 (a Unicode property
 * RE2 has no name for is written out as its ranges: `\p{ID_Continue}` is
 * about 10,000 characters), checked before RE2 parses it.
 */
const MAX_RE2_SOURCE_CHARACTERS = 65_536;

/** Compiled patterns kept by source (at most this much compile cost in all), so a pattern repeated in schemas is compiled once. */
const KEPT_COST = 100_000;

/**
 * Ajv's `code.regExp` option: builds a pattern from its source and flags
 * (always `"u"` here); `code` names it in standalone code, which we never
 * write. `metered` and `compiling` are internal (`compileArgumentCheck`
 * runs each check with a clock of its own, and compiles each schema under a
 * budget of its own and its listing's).
 *
 * @example
 * const regExp: PatternEngine = await linearTimePatterns();
 * new Ajv({ strict: false, code: { regExp } });
 */
export type PatternEngine = ((pattern: string, flags: string) => CompiledPattern) & {
  readonly code: string;
  readonly metered?: <T>(check: () => T) => T;
  readonly compiling?: <T>(compile: () => T, accounts: readonly CompileAccount[]) => T;
};

interface Re2Module {
  readonly RE2JS: { compile(pattern: string): Re2Program };
}

// Captured at load: the check of a pattern's ECMAScript syntax is not a place for a patched global.
const NativeRegExp = RegExp;
const regExpTest = RegExp.prototype.test;

/** Whether one character matches an ECMAScript class; one character against a class cannot backtrack. */
function classHas(source: string, char: string): boolean {
  return Reflect.apply(regExpTest, new NativeRegExp(`^${source}$`, "u"), [char]);
}

function quote(pattern: string): string {
  return JSON.stringify(cutText(pattern, 64, () => "…"));
}

/** A pattern compiled once: what Ajv gets, and what it costs a schema that holds it. */
interface Kept {
  readonly compiled: CompiledPattern;
  readonly cost: number;
}

/**
 * Whether this RE2JS has the DFA fields the engine bounds memory and prices
 * classes with (typed in its declarations, read here); without them the
 * bounds would silently lapse, so the engine refuses patterns instead.
 */
function hasDfaFields(re2: Re2Module): boolean {
  try {
    const dfa = re2.RE2JS.compile("a").re2Input?.dfa;
    return (
      dfa !== undefined &&
      typeof dfa.numClasses === "number" &&
      typeof dfa.maxMem === "number" &&
      typeof dfa.memBudget === "number" &&
      typeof dfa.clearCache === "function"
    );
  } catch {
    return false;
  }
}

/** An engine that refuses every pattern with `reason` (a schema without one is unaffected). */
function refusingEngine(reason: string): PatternEngine {
  return Object.assign(
    (): CompiledPattern => {
      throw new Error(reason);
    },
    { code: "linearTimePatterns" },
  );
}

/** The engine over a loaded RE2JS. */
function engineOver(re2: Re2Module): PatternEngine {
  if (!hasDfaFields(re2)) {
    return refusingEngine(
      "patterns run on re2js 2.10 or a later 2.x with the same DFA fields (re2Input.dfa: numClasses, maxMem, memBudget, clearCache); this re2js has other ones",
    );
  }
  const clock = new MatchClock();
  // The accounts a schema being compiled is charged to (none outside `compiling`: a host's
  // own Ajv compiles every Tool's schema in one run, which one budget would refuse).
  let accounts: readonly CompileAccount[] = [];
  const charge = (cost: number, key: string | undefined) => {
    for (const account of accounts) account.charge(cost, key);
  };
  const re2Names = new Map<string, boolean>();
  const platform: PlatformQuestions = {
    inClass: classHas,
    re2Knows: (name) => {
      let known = re2Names.get(name);
      if (known === undefined) {
        try {
          re2.RE2JS.compile(`\\p{${name}}`);
          known = true;
        } catch {
          known = false;
        }
        // Names come from valid ECMAScript patterns: a finite set.
        re2Names.set(name, known);
      }
      return known;
    },
    propertyRanges: (property) => {
      // Paid for before the scan; a property the process has at hand costs nothing.
      if (!isKnownProperty(property)) charge(PROPERTY_SCAN_COST, `scan:${property}`);
      return propertyRanges(property);
    },
  };
  // Most recently used last; the oldest go when the kept cost would pass the cap.
  const kept = new Map<string, Kept>();
  let keptCost = 0;
  const compile = (pattern: string): Kept => {
    // Both engines merge each property's ranges into its class, half a millisecond each:
    // paid before either reads the pattern (a repeat of a pattern compiles nothing and pays
    // only what it keeps).
    const escapes = propertyEscapes(pattern);
    if (escapes > 0) charge(escapes * PROPERTY_ESCAPE_COST, `escapes:${pattern}`);
    // JSON Schema patterns are ECMAScript's: one the platform refuses is refused here too
    // (building a RegExp parses it; nothing is matched).
    new NativeRegExp(pattern, "u");
    // RE2JS writes `x{n,m}` out in full and compiles programs of a million instructions: one
    // estimated far past the bound is refused before it is built (twice the bound: the
    // estimate counts an alternative of single characters at more than RE2's class costs).
    const estimate = estimatePatternSize(pattern);
    if (estimate > 2 * MAX_PATTERN_INSTRUCTIONS) {
      throw new Error(
        `pattern ${quote(pattern)} would compile to about ${estimate} instructions, over ${MAX_PATTERN_INSTRUCTIONS}`,
      );
    }
    let pieces: readonly (readonly [string, boolean])[];
    try {
      const split = splitLeadingLookaheads(pattern);
      pieces =
        split === undefined
          ? [[pattern, true]]
          : [
              ...split.required.map((part) => [part, true] as const),
              ...split.forbidden.map((part) => [part, false] as const),
              [split.rest, true],
            ];
    } catch (thrown) {
      if (!(thrown instanceof PatternRefusal)) throw thrown;
      throw new Error(`pattern ${quote(pattern)}: ${thrown.message}`);
    }
    const parts: Part[] = [];
    // Summed over the parts: each runs on every text the pattern checks, and each is kept.
    let size = 0;
    let cost = 0;
    let written = 0;
    for (const [piece, matches] of pieces) {
      let source: string;
      try {
        // Stopped as soon as the text passes the cap: a 4,096-character `[\p{ID_Continue}…]`
        // was written out whole (3,500,000 characters) before it was refused.
        source = toRe2Syntax(piece, platform, MAX_RE2_SOURCE_CHARACTERS - written);
      } catch (thrown) {
        if (!(thrown instanceof PatternRefusal)) throw thrown;
        const why =
          thrown instanceof SourceTooLong && pieces.length > 1
            ? `written out for RE2 (its Unicode properties and classes as ranges), its ${pieces.length} parts together pass ${MAX_RE2_SOURCE_CHARACTERS} characters`
            : thrown.message;
        throw new Error(`pattern ${quote(pattern)}: ${why}`);
      }
      written += source.length;
      let program: Re2Program;
      try {
        program = re2.RE2JS.compile(source);
      } catch (thrown) {
        const why = thrown instanceof Error ? thrown.message : "it could not be compiled";
        throw new Error(`pattern ${quote(pattern)} has no linear-time form: ${why}`);
      }
      size += program.programSize();
      if (size > MAX_PATTERN_INSTRUCTIONS) {
        const what = pieces.length === 1 ? "" : ` (its ${pieces.length} parts together)`;
        throw new Error(
          `pattern ${quote(pattern)} compiles to ${size} instructions${what}, over ${MAX_PATTERN_INSTRUCTIONS}`,
        );
      }
      // The DFA made now, so its classes are known (and paid for) before any match.
      const classes = program.re2Input?.dfa?.numClasses ?? 0;
      parts.push({ program, matches, kept: keptDfaBytes(program.programSize(), classes) });
      // What it keeps and what it took: its program, its classes' tables, its rewritten text.
      cost += program.programSize() + classes + Math.ceil(source.length / 4);
    }
    // Ajv keys compiled patterns by toString(): the pattern itself tells two apart (the
    // rewrite is deterministic), and keeps no second copy of a long rewritten source.
    return { compiled: compiledPattern(parts, `re2:${pattern}`, clock, size), cost };
  };
  const engine = (pattern: string, flags: string): CompiledPattern => {
    if (flags !== "u") throw new Error(`patterns are read with the u flag only, not "${flags}"`);
    if (pattern.length > MAX_PATTERN_CHARACTERS) {
      throw new Error(
        `pattern ${quote(pattern)} has ${pattern.length} characters, over ${MAX_PATTERN_CHARACTERS}`,
      );
    }
    let entry = kept.get(pattern);
    if (entry === undefined) {
      entry = compile(pattern);
      for (const [oldest, old] of kept) {
        if (keptCost + entry.cost <= KEPT_COST) break;
        kept.delete(oldest);
        keptCost -= old.cost;
      }
      keptCost += entry.cost;
    } else {
      kept.delete(pattern);
    }
    kept.set(pattern, entry);
    // Charged to this schema too, whoever compiled it first (once: a repeat costs no memory).
    charge(entry.cost, `pattern:${pattern}`);
    return entry.compiled;
  };
  const compiling = <T>(run: () => T, charged: readonly CompileAccount[]): T => {
    const outer = accounts;
    accounts = charged;
    try {
      return run();
    } finally {
      accounts = outer;
    }
  };
  // Ajv reads `code` only when it writes standalone validation code, which we never ask for.
  return Object.assign(engine, {
    code: "linearTimePatterns",
    metered: <T>(check: () => T): T => clock.scoped(check),
    compiling,
  });
}

/** The engine when RE2JS is not installed: a schema with a pattern says what to install. */
const missingEngine = refusingEngine(
  "patterns run on the linear-time engine of the optional peer dependency re2js; install it with: npm install re2js (or exclude the Tool)",
);

let loaded: Promise<PatternEngine> | undefined;

/**
 * Loads RE2JS once and resolves with an Ajv `PatternEngine` that runs JSON
 * Schema patterns in linear time, with ECMAScript's meaning (see
 * pattern-translation.ts); lookaheads right after a leading `^` run as
 * patterns of their own (pattern-lookaheads.ts). A pattern RE2 cannot run
 * (other lookaround, backreferences, inline modifiers, a repeat count over
 * 1,000), one over
 * {@link MAX_PATTERN_CHARACTERS} or {@link MAX_PATTERN_INSTRUCTIONS}, or
 * (within `compiling`) a schema over its budget (see pattern-budgets.ts)
 * makes Ajv's `compile` throw, saying why; a match over its bounds throws
 * `PatternWorkExceeded`.
 * Without RE2JS installed, only a schema with a pattern is refused, with
 * the command that installs it. `fromMcpClient` uses it unless
 * `patterns: "native"`; give it to the MCP SDK's own output check too.
 *
 * @example
 * import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
 * import { Ajv } from "ajv";
 * const regExp = await linearTimePatterns();
 * const client = new Client(
 *   { name: "my-agent", version: "1.0.0" },
 *   { jsonSchemaValidator: new AjvJsonSchemaValidator(new Ajv({ strict: false, inlineRefs: false, code: { regExp, optimize: false } })) },
 * );
 */
export function linearTimePatterns(): Promise<PatternEngine> {
  loaded ??= (import("re2js") as Promise<Re2Module>).then(engineOver, (thrown: unknown) => {
    // Not kept: installing it later and listing again works.
    loaded = undefined;
    // Not installed, as Node says it (a loader that wraps the error keeps it as the cause).
    const error = thrown as { code?: unknown; cause?: { code?: unknown } } | null;
    const code = error?.code ?? error?.cause?.code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") return missingEngine;
    const why = thrown instanceof Error ? thrown.message : String(thrown);
    return refusingEngine(`patterns run on re2js, which is installed but failed to load: ${why}`);
  });
  return loaded;
}
