/**
 * JSON Schema patterns in linear time: an Ajv `PatternEngine` that runs each
 * `pattern` (and `patternProperties` key) of another server's schema on
 * RE2JS, a linear-time engine, instead of the platform's backtracking one,
 * on which a pattern such as `^(a+)+$` and some forty characters of a
 * model's argument keep the event loop busy for minutes.
 */

import { cutText } from "./bounded-text.ts";
import { PatternRefusal, toRe2Syntax } from "./pattern-translation.ts";

/**
 * The most instructions one pattern may compile to. A linear-time engine's
 * work is still its program's size times the text's length: this bounds the
 * first factor (`^[a-z0-9_-]+$` is 6; `^.{1,1000}$` about 2,000).
 *
 * @example
 * MAX_PATTERN_INSTRUCTIONS; // 5000
 */
export const MAX_PATTERN_INSTRUCTIONS = 5_000;

/** What a compiled pattern offers Ajv: an unanchored search, and a text that tells patterns apart. */
export interface CompiledPattern {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Ajv's `code.regExp` option: builds a pattern from its source and flags
 * (always `"u"` here); `code` names it in standalone code, which we never
 * write.
 */
export type PatternEngine = ((pattern: string, flags: string) => CompiledPattern) & {
  readonly code: string;
};

interface Re2Program {
  test(input: string): boolean;
  programSize(): number;
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

/** The engine over a loaded RE2JS. */
function engineOver(re2: Re2Module): PatternEngine {
  const engine = (pattern: string, flags: string): CompiledPattern => {
    if (flags !== "u") throw new Error(`patterns are read with the u flag only, not "${flags}"`);
    // JSON Schema patterns are ECMAScript's: one the platform refuses is refused here too
    // (building a RegExp parses it; nothing is matched).
    new NativeRegExp(pattern, flags);
    let source: string;
    try {
      source = toRe2Syntax(pattern, classHas);
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
    // Ajv keys compiled patterns by toString(): it must tell two patterns apart.
    const key = `re2:${source}`;
    return { test: (text: string) => program.test(text), toString: () => key };
  };
  // Ajv reads `code` only when it writes standalone validation code, which we never ask for.
  return Object.assign(engine, { code: "linearTimePatterns" });
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
 * backreferences, a repeat count over 1,000) or one over
 * {@link MAX_PATTERN_INSTRUCTIONS} makes Ajv's `compile` throw, saying why.
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
