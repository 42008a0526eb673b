/**
 * The argument limits a host chooses (`maxArgumentCharacters`,
 * `maxArgumentDepth`), read once and checked, and `parseToolArguments`: the
 * bounded parser on its own, for argument text that reaches a host some other
 * way (a stream it accumulated, a provider this package does not read).
 */

import {
  COURSE_TOOL_ARGUMENTS_MAX_DEPTH,
  type CourseJsonObject,
  snapshotJsonObject,
} from "../../course/src/index.ts";
import {
  freeze,
  isProxy,
  isSafeInteger,
  NativeTypeError,
  reflectGet,
} from "../../course/src/internal.ts";
import {
  type ArgumentLimits,
  PROVIDER_ARGUMENTS_MAX_CHARACTERS,
  PROVIDER_ARGUMENTS_MAX_DEPTH,
  parseArgumentText,
} from "./argument-parser.ts";
import { describeFound } from "./describe-found.ts";

/**
 * Limits on a model's arguments.
 *
 * - `maxArgumentCharacters`: the longest argument text, in UTF-16 code units
 *   (for arguments a provider sends already parsed, the length of their
 *   compact JSON text); a positive integer or `Infinity`. Default 1,000,000
 *   (`PROVIDER_ARGUMENTS_MAX_CHARACTERS`). Longer text is refused before any
 *   of it is read.
 * - `maxArgumentDepth`: the deepest nesting of objects and arrays, the outer
 *   object included; an integer from 1 to 256 (the core refuses deeper
 *   arguments anyway). Default 64 (`PROVIDER_ARGUMENTS_MAX_DEPTH`).
 *
 * @example
 * readToolCalls("openai-chat", completion, { maxArgumentCharacters: 20_000, maxArgumentDepth: 8 });
 */
export interface ArgumentLimitOptions {
  readonly maxArgumentCharacters?: number;
  readonly maxArgumentDepth?: number;
}

const DEFAULT_LIMITS: ArgumentLimits = freeze({
  maxCharacters: PROVIDER_ARGUMENTS_MAX_CHARACTERS,
  maxDepth: PROVIDER_ARGUMENTS_MAX_DEPTH,
});

/**
 * Reads each option once (a getter could answer differently the second time)
 * and checks it; a bad option is the host's mistake, a TypeError naming it.
 */
export function readArgumentLimits(options: unknown, caller: string): ArgumentLimits {
  if (options === undefined) return DEFAULT_LIMITS;
  if (typeof options !== "object" || options === null || isProxy(options)) {
    throw new NativeTypeError(
      `${caller} options must be an object; found ${describeFound(options)}`,
    );
  }
  const characters = reflectGet(options, "maxArgumentCharacters") as unknown;
  const depth = reflectGet(options, "maxArgumentDepth") as unknown;
  if (
    characters !== undefined &&
    characters !== Number.POSITIVE_INFINITY &&
    // Number.isSafeInteger never converts: a string or a boxed number fails it.
    !(isSafeInteger(characters) && (characters as number) > 0)
  ) {
    throw new NativeTypeError(
      `${caller} option maxArgumentCharacters must be a positive integer or Infinity`,
    );
  }
  if (
    depth !== undefined &&
    !(
      isSafeInteger(depth) &&
      (depth as number) >= 1 &&
      (depth as number) <= COURSE_TOOL_ARGUMENTS_MAX_DEPTH
    )
  ) {
    throw new NativeTypeError(
      `${caller} option maxArgumentDepth must be an integer from 1 to ${COURSE_TOOL_ARGUMENTS_MAX_DEPTH}`,
    );
  }
  return freeze({
    maxCharacters: characters === undefined ? DEFAULT_LIMITS.maxCharacters : (characters as number),
    maxDepth: depth === undefined ? DEFAULT_LIMITS.maxDepth : (depth as number),
  });
}

/**
 * What {@link parseToolArguments} answers: the frozen arguments, or the reason to give the model.
 *
 * @example
 * const parsed: ToolArgumentsParse = parseToolArguments(text);
 * if (!parsed.ok) console.log(parsed.reason);
 */
export type ToolArgumentsParse =
  | { readonly ok: true; readonly value: CourseJsonObject }
  | { readonly ok: false; readonly reason: string };

/**
 * Parses a model's argument text with the same limits and rules as
 * `readToolCalls`: at most `maxArgumentCharacters` (checked before any of it
 * is read), at most `maxArgumentDepth` levels, one JSON object, strict JSON,
 * no duplicate keys, no lone surrogates, every number finite; a `__proto__`
 * key stays an ordinary key. Never throws for any text: a refusal is
 * `{ ok: false, reason }`, a reason to give the model (it names a position in
 * UTF-16 code units and never quotes the text). Answers a frozen deep copy.
 * Throws a TypeError for a `text` that is not a string or bad options.
 *
 * @example
 * parseToolArguments('{"path":"a.txt"}'); // { ok: true, value: { path: "a.txt" } }
 * parseToolArguments('{"path":"a.t');     // { ok: false, reason: "arguments are not valid JSON at position 12: unexpected end of input" }
 */
export function parseToolArguments(
  text: string,
  options?: ArgumentLimitOptions,
): ToolArgumentsParse {
  if (typeof text !== "string") {
    throw new NativeTypeError(
      `parseToolArguments needs the argument text as a string; found ${describeFound(text)}`,
    );
  }
  const parsed = parseArgumentText(text, readArgumentLimits(options, "parseToolArguments"));
  if (!parsed.ok) return freeze({ ok: false, reason: parsed.reason });
  // Frozen plain data the parser built and the core adopted: the snapshot takes it as it is.
  return freeze({ ok: true, value: snapshotJsonObject(parsed.value, "arguments") });
}
