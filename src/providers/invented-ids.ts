/**
 * Ids `readToolCalls` makes up, for calls the provider sent without one (a
 * Gemini call, which may have no id; a call from an OpenAI-compatible server
 * that left its id blank), and how `toToolResultMessages` knows them again.
 *
 * A result message carries its call's id as a string, nothing more, so the
 * mark has to live in the id itself; and it must not be a shape a provider
 * could send too (Gemini's own ids are free text: one that reads
 * `gemini-call-0` is still Gemini's, and must go back). So every made-up id
 * ends with a random token drawn once, when this module loads: an id is ours
 * when it is exactly one this module would make, token included, and no
 * provider can send that without having been shown it (none is: a made-up id
 * never goes back to the provider).
 */

import { stringCharCodeAt, stringSlice } from "../../course/src/internal.ts";
import { DIGIT_0, isDigit } from "./json-characters.ts";

/** The providers whose calls may come without an id, and the prefix of the ids made for them. */
export type InventedIdPrefix = "gemini-call" | "openai-call";

const PREFIXES: readonly InventedIdPrefix[] = Object.freeze(["gemini-call", "openai-call"]);

function randomToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let token = "";
  for (const byte of bytes) token += (byte < 16 ? "0" : "") + byte.toString(16);
  return token;
}

/** Drawn once per load of this module; never shown to a provider. */
const TOKEN = randomToken();

/**
 * The id made up for the call at `index` (0-based, among the response's
 * calls): `<prefix>-<index>-<token>`.
 *
 * @example
 * inventedId("gemini-call", 0); // "gemini-call-0-3f9c…"
 */
export function inventedId(prefix: InventedIdPrefix, index: number): string {
  return `${prefix}-${index}-${TOKEN}`;
}

/** True for an id this module made up (with either prefix), and for no other string. */
export function isInventedId(id: string): boolean {
  const tail = `-${TOKEN}`;
  const end = id.length - tail.length;
  if (end <= 0 || stringSlice(id, end, id.length) !== tail) return false;
  for (const prefix of PREFIXES) {
    const start = prefix.length + 1;
    if (end <= start || stringSlice(id, 0, start) !== `${prefix}-`) continue;
    // Between them, exactly the text inventedId writes for an index: digits, no leading zero.
    if (stringCharCodeAt(id, start) === DIGIT_0 && end - start > 1) return false;
    for (let at = start; at < end; at += 1) if (!isDigit(stringCharCodeAt(id, at))) return false;
    return true;
  }
  return false;
}
