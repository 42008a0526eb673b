/**
 * The bounded parser for a model's argument text: the length is checked before
 * a single character is read, nesting is limited before and while the text is
 * read, and the result is frozen plain data that later code can trust.
 *
 * Two readers share the work. Ordinary text is read by the engine's own
 * `JSON.parse`, guarded so that it answers only what the exact reader would
 * (`engine-arguments.ts`); whatever that path cannot vouch for, every refusal
 * included, is read by the exact reader (`exact-argument-reader.ts`), which
 * names the first fault and its position.
 */

import type { CourseJsonObject } from "../../course/src/index.ts";
import { adoptParsedArguments, isArray } from "../../course/src/internal.ts";
import { readWithEngine } from "./engine-arguments.ts";
import { Refusal, readExactly } from "./exact-argument-reader.ts";

/**
 * The default longest argument text, in UTF-16 code units: 1,000,000.
 *
 * @example
 * readToolCalls("openai-chat", completion, { maxArgumentCharacters: PROVIDER_ARGUMENTS_MAX_CHARACTERS / 10 });
 */
export const PROVIDER_ARGUMENTS_MAX_CHARACTERS = 1_000_000;

/**
 * The default deepest nesting of the arguments: 64 objects and arrays, the
 * outer object included. Real arguments nest a few levels; the core refuses
 * anything deeper than 256 (`COURSE_TOOL_ARGUMENTS_MAX_DEPTH`), so no limit
 * can be set above that.
 *
 * @example
 * readToolCalls("anthropic", message, { maxArgumentDepth: PROVIDER_ARGUMENTS_MAX_DEPTH / 8 });
 */
export const PROVIDER_ARGUMENTS_MAX_DEPTH = 64;

/** Limits on a model's arguments, checked and defaulted (see `ReadToolCallsOptions`). */
export interface ArgumentLimits {
  readonly maxCharacters: number;
  readonly maxDepth: number;
}

/** What the parser answers: the arguments as plain data, or why they were refused. */
export type ParsedArguments =
  | { readonly ok: true; readonly value: { readonly [key: string]: unknown } }
  | { readonly ok: false; readonly reason: string };

/** Names the kind of a parsed value that is not an object, for a refusal. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return "an array";
  return `a ${typeof value}`;
}

/**
 * Parses a model's argument text under `limits`: the text must be at most
 * `maxCharacters` UTF-16 code units (checked first, so a longer text costs
 * nothing to refuse) and one JSON object nesting at most `maxDepth` levels.
 * It is strict RFC 8259 JSON (no comments, no trailing commas, no leading
 * byte-order mark), and also refuses duplicate keys, lone surrogates and
 * numbers that do not fit a double. A `__proto__` key is an ordinary own key.
 * Never throws: a refusal is `{ ok: false, reason }`, where `reason` names
 * the rule and a position (UTF-16 code units from 0) and never quotes the text.
 *
 * @example
 * parseArgumentText('{"left":1', { maxCharacters: 1_000_000, maxDepth: 64 });
 * // { ok: false, reason: "arguments are not valid JSON at position 9: unexpected end of input" }
 */
export function parseArgumentText(text: string, limits: ArgumentLimits): ParsedArguments {
  if (text.length > limits.maxCharacters) {
    return {
      ok: false,
      reason: `arguments are ${text.length} characters long, more than the limit of ${limits.maxCharacters}`,
    };
  }
  try {
    // The engine reads ordinary text; what it cannot vouch for, the exact reader reads anew.
    const value = readWithEngine(text, limits.maxDepth) ?? readExactly(text, limits.maxDepth);
    if (typeof value !== "object" || value === null || isArray(value)) {
      return { ok: false, reason: `arguments must be a JSON object, not ${kindOf(value)}` };
    }
    // Frozen plain data within the core's limits, made here from text alone: the core takes
    // it as its snapshot instead of copying it again (a second copy doubled the memory).
    return { ok: true, value: adoptParsedArguments(value as CourseJsonObject) };
  } catch (thrown) {
    if (thrown instanceof Refusal) return { ok: false, reason: thrown.reason };
    throw thrown;
  }
}
