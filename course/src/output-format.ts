/**
 * The output format: how a Tool's output becomes the text the model reads.
 * `"json"` is the course's JSON text (a string as a JSON string literal, every
 * control character as `\uxxxx`); `"text"` writes a top-level string as the
 * text itself and structured output as standard compact JSON.
 */

import { COURSE_ESCAPES, JSON_ESCAPES, RAW_TEXT, type TextStyle } from "./json-text.js";

/**
 * How a Tool's output is written into `content`.
 *
 * - `"json"` (the default): the course's JSON text, byte for byte; a string
 *   is a JSON string literal (`"line one\u000aline two"`).
 * - `"text"`: a top-level string is the content itself, no quotes and no
 *   escapes (a lone surrogate becomes U+FFFD; a cut never splits a pair);
 *   structured output is standard compact JSON with sorted keys and JSON's
 *   short escapes (`\n`, `\t`, `\"`), which `JSON.parse` reads back.
 *
 * @example
 * const registry = new ToolRegistry(tools, { format: "text" });
 */
export type OutputFormat = "json" | "text";

/** Reads a `format` setting; undefined stays unset, anything but the two names is refused. */
export function readFormat(
  value: unknown,
  where: string,
  refuse: (message: string) => never,
): OutputFormat | undefined {
  if (value === undefined || value === "json" || value === "text") return value;
  return refuse(`${where} must be "json" or "text"`);
}

/** How a top-level string is written in `format`: a JSON literal, or raw text. */
export function stringStyle(format: OutputFormat): TextStyle {
  return format === "text" ? RAW_TEXT : COURSE_ESCAPES;
}

/** How strings inside structured output are escaped in `format`. */
export function structuredStyle(format: OutputFormat): TextStyle {
  return format === "text" ? JSON_ESCAPES : COURSE_ESCAPES;
}
