/**
 * JSON Schema patterns in linear time: an Ajv `PatternEngine` that runs each
 * `pattern` (and `patternProperties` key) of another server's schema on
 * RE2JS, a linear-time engine, instead of the platform's backtracking one,
 * on which a pattern such as `^(a+)+$` and some forty characters of a
 * model's argument keep the event loop busy for minutes.
 */

import { cutText } from "./bounded-text.ts";
import { PatternRefusal, type PlatformQuestions, toRe2Syntax } from "./pattern-translation.ts";
import { propertyRanges } from "./unicode-properties.ts";

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
 * time in proportion to a pattern's text (about 65 µs per character for a
 * class of `\p{L}` written 800 times), whatever it compiles to.
 *
 * @example
 * MAX_PATTERN_CHARACTERS; // 4096
 */
export const MAX_PATTERN_CHARACTERS = 4_096;

/**
 * The most matching work one check may ask of the patterns: the sum, over
 * each text a pattern is matched against, of the pattern's instructions times
 * the text's length plus one (the bound of a linear-time match). A schema can
 * apply one pattern many times (`allOf`, `items`, a `$ref` used twice), so the
 * bound is on the whole check: about 50 ms of the event loop at most, for the
 * worst pattern. `fromMcpClient` gives each check of a call's arguments this
 * budget and refuses the arguments past it; anywhere else (the MCP SDK
 * client's own check), each synchronous turn of the event loop gets it.
 *
 * @example
 * MAX_PATTERN_WORK; // 1_000_000: a 6-instruction pattern against about 166,000 characters
 */
export const MAX_PATTERN_WORK = 1_000_000;

/**
 * The DFA memory a compiled pattern keeps between checks, in bytes (RE2JS's
 * own estimate), per instruction of its program, from 4 KB to 64 KB.
 * RE2JS caches the states it builds, up to 8 MB a pattern; a server's schema
 * may hold hundreds of patterns, so a larger cache is dropped after the
 * match that grew it (and built again as needed).
 */
const KEPT_DFA_BYTES_PER_INSTRUCTION = 512;
const KEPT_DFA_BYTES_MIN = 4 * 1024;
const KEPT_DFA_BYTES_MAX = 64 * 1024;

/**
 * The most instructions the patterns of one schema may compile to in all. A
 * compiled instruction takes about 170 bytes: a schema is short text, and
 * `.{0,1000}.{0,1000}.{0,450}b$` (28 characters) compiles to 4,905
 * instructions, about 800 KB. `fromMcpClient` gives each Tool's schema this
 * budget (through the engine's `compiling`); a host's own Ajv (the MCP SDK
 * client's) compiles without it, each pattern under
 * {@link MAX_PATTERN_INSTRUCTIONS}.
 *
 * @example
 * MAX_SCHEMA_PATTERN_INSTRUCTIONS; // 20_000: four patterns at the cap, or thousands of ordinary ones
 */
export const MAX_SCHEMA_PATTERN_INSTRUCTIONS = 20_000;

/** Compiled patterns kept by source (at most this many instructions in all), so a pattern repeated in schemas is compiled once. */
const KEPT_INSTRUCTIONS = 20_000;

/** What a compiled pattern offers Ajv: an unanchored search, and a text that tells patterns apart. */
export interface CompiledPattern {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Ajv's `code.regExp` option: builds a pattern from its source and flags
 * (always `"u"` here); `code` names it in standalone code, which we never
 * write. `metered` runs a check, and `compiling` compiles a schema, each with
 * a budget of its own.
 */
export type PatternEngine = ((pattern: string, flags: string) => CompiledPattern) & {
  readonly code: string;
  readonly metered?: <T>(check: () => T) => T;
  readonly compiling?: <T>(compile: () => T) => T;
};

/**
 * Thrown by a pattern's `test` when a check would go past
 * {@link MAX_PATTERN_WORK}: the check stops before that match runs.
 *
 * @example
 * if (thrown instanceof PatternWorkExceeded) return "send shorter strings";
 */
export class PatternWorkExceeded extends Error {
  constructor() {
    super(
      `checking these strings against the schema's patterns would take more than ${MAX_PATTERN_WORK} steps`,
    );
    this.name = "PatternWorkExceeded";
  }
}

/** The parts of RE2JS's DFA this module reads: its budget, what is left of it, and its reset. */
interface Re2Dfa {
  readonly maxMem: number;
  readonly memBudget: number;
  clearCache(): void;
}

interface Re2Program {
  test(input: string): boolean;
  programSize(): number;
  readonly re2Input?: { readonly lazyDFA?: Re2Dfa | null };
}

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

/**
 * A budget per scoped run (a check, a schema); outside one, per synchronous
 * turn of the event loop when `perTurn`, else none.
 */
class Budget {
  left: number;
  resetQueued = false;
  depth = 0;
  /** What the current scope has paid for already, by key: each is paid for once. */
  paid = new Set<string>();

  constructor(
    readonly limit: number,
    readonly perTurn: boolean,
    readonly exceeded: () => Error,
  ) {
    this.left = limit;
  }

  /**
   * Takes `amount` from the budget, or throws before the work it pays for is
   * done; with a `key`, once per scope.
   */
  charge(amount: number, key?: string): void {
    if (this.depth === 0 && !this.perTurn) return;
    if (key !== undefined) {
      if (this.paid.has(key)) return;
      this.paid.add(key);
    }
    if (this.depth === 0 && !this.resetQueued) {
      // Outside a scoped run the budget is the turn's: it comes back once the turn ends.
      this.resetQueued = true;
      queueMicrotask(() => {
        this.resetQueued = false;
        this.left = this.limit;
      });
    }
    if (amount > this.left) throw this.exceeded();
    this.left -= amount;
  }

  scoped<T>(run: () => T): T {
    const outer = this.left;
    const outerPaid = this.paid;
    this.left = this.limit;
    this.paid = new Set();
    this.depth += 1;
    try {
      return run();
    } finally {
      this.depth -= 1;
      this.left = outer;
      this.paid = outerPaid;
    }
  }
}

/** A compiled program as Ajv uses it: charged for each match, its DFA cache kept small. */
function compiledPattern(program: Re2Program, key: string, meter: Budget): CompiledPattern {
  const size = program.programSize();
  const keptDfa = Math.min(
    KEPT_DFA_BYTES_MAX,
    Math.max(KEPT_DFA_BYTES_MIN, size * KEPT_DFA_BYTES_PER_INSTRUCTION),
  );
  return {
    test: (text: string) => {
      meter.charge(size * (text.length + 1));
      const matched = program.test(text);
      // RE2JS's own DFA (its typed fields): dropped past what this pattern may keep.
      const dfa = program.re2Input?.lazyDFA;
      if (dfa != null && dfa.maxMem - dfa.memBudget > keptDfa) dfa.clearCache();
      return matched;
    },
    toString: () => key,
  };
}

/** The engine over a loaded RE2JS. */
function engineOver(re2: Re2Module): PatternEngine {
  // Matching is bounded everywhere; compiling only where a schema is compiled as a whole (a
  // host's own Ajv compiles every Tool's schema in one turn, which one budget would refuse).
  const work = new Budget(MAX_PATTERN_WORK, true, () => new PatternWorkExceeded());
  const instructions = new Budget(
    MAX_SCHEMA_PATTERN_INSTRUCTIONS,
    false,
    () =>
      new Error(
        `the schema's patterns compile to more than ${MAX_SCHEMA_PATTERN_INSTRUCTIONS} instructions in all`,
      ),
  );
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
    propertyRanges,
  };
  // Most recently used last; the oldest go when the kept instructions would pass the cap.
  const kept = new Map<string, { readonly compiled: CompiledPattern; readonly size: number }>();
  let keptSize = 0;
  const engine = (pattern: string, flags: string): CompiledPattern => {
    if (flags !== "u") throw new Error(`patterns are read with the u flag only, not "${flags}"`);
    if (pattern.length > MAX_PATTERN_CHARACTERS) {
      throw new Error(
        `pattern ${quote(pattern)} has ${pattern.length} characters, over ${MAX_PATTERN_CHARACTERS}`,
      );
    }
    const known = kept.get(pattern);
    if (known !== undefined) {
      // Charged to this schema too, whoever compiled it first (once: a repeat costs no memory).
      instructions.charge(known.size, pattern);
      kept.delete(pattern);
      kept.set(pattern, known);
      return known.compiled;
    }
    // JSON Schema patterns are ECMAScript's: one the platform refuses is refused here too
    // (building a RegExp parses it; nothing is matched).
    new NativeRegExp(pattern, flags);
    let source: string;
    try {
      source = toRe2Syntax(pattern, platform);
    } catch (thrown) {
      if (!(thrown instanceof PatternRefusal)) throw thrown;
      throw new Error(`pattern ${quote(pattern)}: ${thrown.message}`);
    }
    let program: Re2Program;
    try {
      program = re2.RE2JS.compile(source);
    } catch (thrown) {
      const why = thrown instanceof Error ? thrown.message : "it could not be compiled";
      throw new Error(`pattern ${quote(pattern)} has no linear-time form: ${why}`);
    }
    const size = program.programSize();
    if (size > MAX_PATTERN_INSTRUCTIONS) {
      throw new Error(
        `pattern ${quote(pattern)} compiles to ${size} instructions, over ${MAX_PATTERN_INSTRUCTIONS}`,
      );
    }
    instructions.charge(size, pattern);
    // Ajv keys compiled patterns by toString(): it must tell two patterns apart.
    const compiled = compiledPattern(program, `re2:${source}`, work);
    for (const [oldest, entry] of kept) {
      if (keptSize + size <= KEPT_INSTRUCTIONS) break;
      kept.delete(oldest);
      keptSize -= entry.size;
    }
    kept.set(pattern, { compiled, size });
    keptSize += size;
    return compiled;
  };
  // Ajv reads `code` only when it writes standalone validation code, which we never ask for.
  return Object.assign(engine, {
    code: "linearTimePatterns",
    metered: <T>(check: () => T): T => work.scoped(check),
    compiling: <T>(compile: () => T): T => instructions.scoped(compile),
  });
}

/** The engine when RE2JS is not installed: a schema with a pattern says what to install. */
const missingEngine: PatternEngine = Object.assign(
  (): CompiledPattern => {
    throw new Error(
      "patterns run on the linear-time engine of the optional peer dependency re2js; install it with: npm install re2js (or exclude the Tool)",
    );
  },
  { code: "linearTimePatterns" },
);

let loaded: Promise<PatternEngine> | undefined;

/**
 * Loads RE2JS once and resolves with an Ajv `PatternEngine` that runs JSON
 * Schema patterns in linear time, with ECMAScript's meaning (see
 * pattern-translation.ts). A pattern RE2 cannot run (lookaround,
 * backreferences, inline modifiers, a repeat count over 1,000), one over
 * {@link MAX_PATTERN_CHARACTERS} or {@link MAX_PATTERN_INSTRUCTIONS}, or
 * (within `compiling`) a schema over {@link MAX_SCHEMA_PATTERN_INSTRUCTIONS}
 * makes Ajv's `compile` throw, saying why; a match past
 * {@link MAX_PATTERN_WORK} throws {@link PatternWorkExceeded}.
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
 *   { jsonSchemaValidator: new AjvJsonSchemaValidator(new Ajv({ strict: false, code: { regExp } })) },
 * );
 */
export function linearTimePatterns(): Promise<PatternEngine> {
  loaded ??= (import("re2js") as Promise<Re2Module>).then(engineOver, () => {
    // Not kept: installing it later and listing again works.
    loaded = undefined;
    return missingEngine;
  });
  return loaded;
}
