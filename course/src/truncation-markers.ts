/**
 * The markers of configured output budgets: they say which budget ran out,
 * the original size where it is known at no cost (a top-level string's
 * length, a top-level array's), and where the full output went. Without a
 * configured budget the course's fixed marker is used instead, unchanged.
 */

import type { OutputLimitName, WalkLimits } from "./output-walk.js";

const OPEN = "[Tool output truncated: ";

/** The limit's value as the marker states it. */
function limitValue(limit: OutputLimitName, limits: WalkLimits): string {
  switch (limit) {
    case "characters":
      return `${limits.maxCharacters}`;
    case "depth":
      return `${limits.maxDepth}`;
    case "values":
      return `${limits.maxNodes}`;
    case "entries":
      return `${limits.maxEntries}`;
    case "string characters":
      return `${limits.maxStringCharacters}`;
    case "BigInt size":
      return `${limits.maxBigIntBits} bits`;
  }
}

function referencePart(reference: string | undefined): string {
  return reference === undefined ? "" : `; full output: ${reference}`;
}

/**
 * The bracketed marker of structured (or non-string) output, for example
 * `[Tool output truncated: entries limit 256 reached; the array has 300 items]`.
 * `rootArrayLength` is a top-level array's length, or -1.
 */
export function structuredMarker(
  limit: OutputLimitName,
  limits: WalkLimits,
  rootArrayLength: number,
  reference: string | undefined,
): string {
  const size = rootArrayLength === -1 ? "" : `; the array has ${rootArrayLength} items`;
  return `${OPEN}${limit} limit ${limitValue(limit, limits)} reached${size}${referencePart(reference)}]`;
}

/**
 * The bracketed marker of a cut top-level string, for example
 * `[Tool output truncated: 49942 of 183211 characters kept]`. Characters are
 * the string's UTF-16 code units, as its `length` counts them.
 */
export function textMarker(
  kept: number,
  total: number,
  limit: OutputLimitName,
  limits: WalkLimits,
  reference: string | undefined,
): string {
  const why = limit === "characters" ? "" : `, ${limit} limit ${limitValue(limit, limits)} reached`;
  return `${OPEN}${kept} of ${total} characters kept${why}${referencePart(reference)}]`;
}
