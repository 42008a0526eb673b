/**
 * Formats the location of a value inside a Tool call or output for error
 * messages, such as `$.items[3]` or `$["odd key"]`. Long keys are shortened,
 * so a hostile key cannot flood a message.
 */

import { regExpTest, sealedRegExp, stringCharCodeAt, stringSlice } from "./intrinsics.js";

const IDENTIFIER = sealedRegExp(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
const MAX_KEY_CHARACTERS = 40;

function quote(text: string): string {
  let quoted = '"';
  for (let index = 0; index < text.length; index += 1) {
    const unit = stringCharCodeAt(text, index);
    if (unit === 0x22 || unit === 0x5c) quoted += `\\${stringSlice(text, index, index + 1)}`;
    else if (unit < 0x20) quoted += "?";
    else quoted += stringSlice(text, index, index + 1);
  }
  return `${quoted}"`;
}

/** A path segment: an array index or an object key. */
export type PathSegment = string | number;

/**
 * Formats `segments[1..depth]` (index 0 is the root) as a JSONPath-like string.
 *
 * @example
 * formatJsonPath([undefined, "items", 3], 2); // "$.items[3]"
 */
export function formatJsonPath(
  segments: readonly (PathSegment | undefined)[],
  depth: number,
): string {
  let text = "$";
  for (let index = 1; index <= depth; index += 1) {
    const segment = segments[index];
    if (typeof segment === "number") text += `[${segment}]`;
    else if (segment !== undefined) {
      const short =
        segment.length > MAX_KEY_CHARACTERS
          ? `${stringSlice(segment, 0, MAX_KEY_CHARACTERS)}…`
          : segment;
      text += regExpTest(IDENTIFIER, short) ? `.${short}` : `[${quote(short)}]`;
    }
  }
  return text;
}

/**
 * A four-slot array for a path being walked: most outputs nest a level or two, and
 * an array grown from empty would take 17 slots at once. Deeper walks grow it
 * as usual (one element at a time, at its end, so it stays packed).
 */
export function newPathArray(): unknown[] {
  return [undefined, undefined, undefined, undefined];
}
