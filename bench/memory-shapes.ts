/**
 * The argument texts of the memory rows, and the subjects measured on them.
 */

/** What a memory child runs: our reader or `JSON.parse`, on one call or on a 16-call response. */
export type MemorySubject =
  | "JSON.parse"
  | "ours-text"
  | "ours-value"
  | "JSON.parse-response"
  | "ours-response";

/** The shapes of argument text: the review's nested empty arrays, and ordinary records. */
export type MemoryShape = "nested-arrays" | "records";

/** The length of each argument text: the default `maxArgumentCharacters`. */
export const MEMORY_TEXT_CHARACTERS = 1_000_000;

/**
 * An argument text of exactly 1,000,000 characters, within the default limits:
 * `{"a":[u,u,…,pad]}` where `u` is 60 nested empty arrays (`[[…]]`, depth 62
 * with the outer object and list) or a small record.
 *
 * @example
 * argumentText("records").length; // 1000000
 */
export function argumentText(shape: MemoryShape): string {
  const unit =
    shape === "nested-arrays" ? `${"[".repeat(60)}${"]".repeat(60)}` : '{"id":12345,"ok":true}';
  const head = '{"a":[';
  const tail = "]}";
  const room = MEMORY_TEXT_CHARACTERS - head.length - tail.length;
  const count = Math.floor((room + 1) / (unit.length + 1));
  let body = Array.from({ length: count }, () => unit).join(",");
  // Pad with a string so the text is exactly the limit, whatever the unit's length.
  const left = room - body.length;
  if (left > 0) body += left >= 3 ? `,"${"x".repeat(left - 3)}"` : " ".repeat(left);
  return `${head}${body}${tail}`;
}
