/**
 * Cutting text that came from elsewhere (another MCP server's descriptions
 * and errors, a Tool's progress messages) to a number of code points, never
 * splitting a surrogate pair, with a marker that says what was cut.
 */

/** Index in UTF-16 code units just past the first `count` code points of `text`. */
function codeUnitsOf(text: string, count: number): number {
  let index = 0;
  for (let seen = 0; seen < count && index < text.length; seen += 1) {
    const unit = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    // A high surrogate followed by a low one is one code point: step over both.
    index += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return index;
}

/** Whether `text` has more than `max` code points (reading at most `max` of them). */
function exceeds(text: string, max: number): boolean {
  // A string of at most `max` code units has at most `max` code points.
  return text.length > max && codeUnitsOf(text, max) < text.length;
}

/**
 * `text` when it has at most `max` code points; otherwise its head, cut on a
 * code point boundary, followed by `marker(total)` (where `total` is the
 * text's length in code units, cheap to know), the whole at most `max` code
 * points. A marker longer than `max` is itself cut.
 *
 * @example
 * cutText("a".repeat(10), 8, (total) => ` [${total}]`); // "aaa [10]"
 */
export function cutText(text: string, max: number, marker: (total: number) => string): string {
  if (!exceeds(text, max)) return text;
  const note = marker(text.length);
  const noteLength = [...note].length;
  if (noteLength >= max) return note.slice(0, codeUnitsOf(note, max));
  return text.slice(0, codeUnitsOf(text, max - noteLength)) + note;
}

/**
 * One line for a log or an error: line breaks and other control characters
 * become spaces, so what a remote server wrote cannot forge extra lines.
 *
 * @example
 * oneLine("a\nb\u0000c"); // "a b c"
 */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ");
}
