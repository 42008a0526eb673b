/**
 * What the linear-time pattern engine may spend: on one match, on one check
 * of a call's arguments, on compiling one schema (its objects and patterns)
 * and on compiling one listing's. Linear is not free: a match is still the program's size
 * times the text's length, a schema may apply a pattern many times, and 28
 * characters of pattern can compile to 800 KB.
 */

/**
 * The most work one match may take: the pattern's instructions times the
 * text's length plus one (the bound of a linear-time match), refused before
 * the match runs. The heaviest pattern (5,000 instructions) may match 999
 * characters, in up to about 200 ms; `^[\s\S]{0,1000}$` (2,004
 * instructions) 2,494.
 *
 * @example
 * MAX_PATTERN_WORK; // 5_000_000
 */
export const MAX_PATTERN_WORK = 5_000_000;

/**
 * The most time one check may spend matching, measured: once a check's
 * matches, and the pauses between them (up to 5 µs each: Ajv's loop over
 * keys and patterns), have taken this long, the next match is refused (so a
 * check's matching takes this long plus one match at most). `fromMcpClient` gives each check of a
 * call's arguments this budget; anywhere else (the MCP SDK client's own
 * check), each synchronous run of code gets it.
 *
 * @example
 * MAX_CHECK_MILLISECONDS; // 50
 */
export const MAX_CHECK_MILLISECONDS = 50;

/**
 * What one schema may cost to compile: {@link SCHEMA_OBJECT_COST} for each
 * object in it (Ajv writes code for each), plus, for each array or object
 * holding other objects, their number squared over 100 (Ajv nests each
 * sibling's code in the one before), and for each distinct pattern
 * (once) its instructions (about 170 bytes each), plus its Unicode classes
 * (RE2JS's DFA keeps a table of that many slots per state), plus a quarter of
 * its text as rewritten for RE2, plus {@link PROPERTY_ESCAPE_COST} for each
 * Unicode property escape it writes (`\p{…}`, `\P{…}`) and
 * {@link PROPERTY_SCAN_COST} for each Unicode property the process had to
 * look up for it. About 100 a millisecond of compiling.
 *
 * @example
 * MAX_SCHEMA_COMPILE_COST; // 20_000: 2,000 objects, four patterns of about 4,900 instructions, or hundreds of ordinary ones
 */
export const MAX_SCHEMA_COMPILE_COST = 20_000;

/**
 * What all the schemas of one listing (`fromMcpClient`, `refresh()`) may
 * cost to compile, counted as {@link MAX_SCHEMA_COMPILE_COST} counts: a
 * server may list a thousand Tools.
 *
 * @example
 * MAX_LISTING_COMPILE_COST; // 500_000
 */
export const MAX_LISTING_COMPILE_COST = 500_000;

/**
 * What looking a Unicode property up costs, the first time the process needs
 * it (a scan of every code point, about 50 ms).
 *
 * @example
 * PROPERTY_SCAN_COST; // 5_000: four look-ups fill a schema's budget
 */
export const PROPERTY_SCAN_COST = 5_000;

/**
 * What one object of a schema costs to compile: Ajv writes code for each
 * (about 0.1 ms, with references compiled once rather than pasted where they
 * are used, and without its code optimizer). Paid before Ajv reads the schema.
 *
 * @example
 * SCHEMA_OBJECT_COST; // 10: 2,000 objects fill a schema's budget
 */
export const SCHEMA_OBJECT_COST = 10;

/**
 * What compiling one Unicode property escape costs, at the rate of
 * {@link PROPERTY_SCAN_COST} (100 a millisecond): both engines merge the
 * property's ranges into its class, about half a millisecond for `\p{L}`
 * or `\p{sc=Latn}` on a shared 2-core machine. Paid before either engine
 * reads the pattern: 800 escapes in 4,096 characters compiled for about
 * 220 ms before they were priced.
 *
 * @example
 * PROPERTY_ESCAPE_COST; // 50: 400 escapes fill a schema's budget
 */
export const PROPERTY_ESCAPE_COST = 50;

/**
 * How many Unicode property escapes (`\p{…}`, `\P{…}`) `pattern` writes: a
 * backslash escapes the character after it, so `\\p{L}` (a literal
 * backslash, then `p{L}`) writes none.
 *
 * @example
 * propertyEscapes("^[\\p{L}\\p{N}_-]+$"); // 2
 */
export function propertyEscapes(pattern: string): number {
  let count = 0;
  for (let index = pattern.indexOf("\\"); index >= 0; index = pattern.indexOf("\\", index + 2)) {
    const letter = pattern[index + 1];
    if (letter === "p" || letter === "P") count += 1;
  }
  return count;
}

/**
 * Thrown by a pattern's `test` when the match would take more than
 * {@link MAX_PATTERN_WORK}, or the check has matched for
 * {@link MAX_CHECK_MILLISECONDS} already: the match does not run.
 *
 * @example
 * if (thrown instanceof PatternWorkExceeded) return "send shorter or fewer strings";
 */
export class PatternWorkExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatternWorkExceeded";
  }
}

// Captured at load: a check's clock is not a place for a patched global.
const performanceNow = performance.now.bind(performance);

/**
 * The most of the pause between two matches that counts as matching, in ms
 * (5 µs). What runs between them is mostly the matching's own work (Ajv's loop
 * over keys and patterns, the engine's wrapper): 200 `patternProperties` over
 * 90,000 keys took 290 ms of wall time while the matches alone counted 50 ms.
 * Capped, so that a check's other work between two matches (its steps bound
 * that) is not put down to its patterns.
 */
const MOST_COUNTED_GAP = 0.005;

/**
 * The time matches take, with the pauses between them (up to
 * {@link MOST_COUNTED_GAP} each): per scoped check, else per synchronous run
 * of code (until the microtask it queues runs).
 *
 * @example
 * clock.before(size * (text.length + 1));
 * const matched = clock.timed(() => program.test(text));
 */
export class MatchClock {
  spent = 0;
  depth = 0;
  resetQueued = false;
  /** When the last match of this check (or run) ended; undefined before its first. */
  lastEnd: number | undefined;

  /** `now` reads the time in ms (the captured `performance.now` unless a test gives another). */
  constructor(readonly now: () => number = performanceNow) {}

  /** Refuses a match over the work bound, or one after the check's time is spent. */
  before(work: number): void {
    if (work > MAX_PATTERN_WORK) {
      throw new PatternWorkExceeded(
        `one string would take ${work} steps against one of the schema's patterns, over ${MAX_PATTERN_WORK}`,
      );
    }
    if (this.depth === 0 && !this.resetQueued) {
      // Outside a check the time is the synchronous run's: it comes back once that run ends.
      // Queued before it is marked queued: a queue that throws must not stop every reset.
      queueMicrotask(() => {
        this.resetQueued = false;
        this.spent = 0;
        this.lastEnd = undefined;
      });
      this.resetQueued = true;
    }
    this.withinTime();
  }

  /** Refuses what comes next once the check's (or the run's) time is spent. */
  withinTime(): void {
    if (this.spent >= MAX_CHECK_MILLISECONDS) {
      throw new PatternWorkExceeded(
        `matching its strings against the schema's patterns took over ${MAX_CHECK_MILLISECONDS} ms`,
      );
    }
  }

  /** Runs one match and adds the time it took, and the pause since the last (see {@link MOST_COUNTED_GAP}). */
  timed<T>(match: () => T): T {
    const start = this.now();
    if (this.lastEnd !== undefined) {
      const gap = start - this.lastEnd;
      // biome-ignore lint/complexity/useMathMinMax: no global is called on the clock's path (a Tool may patch Math.min).
      this.spent += gap < MOST_COUNTED_GAP ? gap : MOST_COUNTED_GAP;
    }
    try {
      return match();
    } finally {
      const end = this.now();
      this.spent += end - start;
      this.lastEnd = end;
    }
  }

  /** Runs `check` with a clock of its own; its time also counts for an enclosing check. */
  scoped<T>(check: () => T): T {
    const outer = this.spent;
    const outerEnd = this.lastEnd;
    this.spent = 0;
    this.lastEnd = undefined;
    this.depth += 1;
    try {
      return check();
    } finally {
      this.depth -= 1;
      this.spent = this.depth > 0 ? outer + this.spent : outer;
      // Nested, the enclosing check goes on from the inner one's last match; outside every
      // check, the run's own pause resumes.
      this.lastEnd = this.depth > 0 ? (this.lastEnd ?? outerEnd) : outerEnd;
    }
  }
}

/**
 * A compile budget: a schema's or a listing's. Each pattern is paid for once
 * (a pattern a schema repeats costs no more memory); an Error past the limit
 * refuses the schema (and, for a listing's, the listing).
 *
 * @example
 * const listing = new CompileAccount(MAX_LISTING_COMPILE_COST, "the server's schemas, all Tools together,");
 */
export class CompileAccount {
  left: number;
  readonly paid = new Set<string>();

  constructor(
    readonly limit: number,
    readonly what: string,
  ) {
    this.left = limit;
  }

  /** Takes `cost` (once per `key`), or throws past the limit before the work is kept. */
  charge(cost: number, key: string | undefined): void {
    if (key !== undefined) {
      if (this.paid.has(key)) return;
      this.paid.add(key);
    }
    if (cost > this.left) {
      throw new Error(
        `${this.what} cost more than ${this.limit} to compile (objects, instructions, Unicode classes, rewritten text, Unicode property escapes and look-ups)`,
      );
    }
    this.left -= cost;
  }
}
