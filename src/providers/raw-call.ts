/**
 * A Tool call as a provider's response holds it, before its arguments are
 * checked: what each format's reader hands to `readToolCalls`.
 */

import type { ResponseReader } from "./response-fields.ts";

/** The arguments as the provider sent them: JSON text to parse, or an already-parsed value. */
export type RawArguments =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "value"; readonly value: unknown };

/** One call of a response, in the provider's order. */
export interface RawToolCall {
  /** The provider's id, or the one given to a Gemini call that had none. */
  readonly id: string;
  readonly name: string;
  /** Where the call sits in the response, for error messages (`content[2]`). */
  readonly path: string;
  readonly arguments: RawArguments;
  /**
   * Why the provider's own signals say this call may be incomplete (the turn
   * stopped at the output token limit), or undefined.
   */
  cutOff: string | undefined;
}

/** Reads the calls of one format's response; refuses anything else with the reader's TypeError. */
export type CallReader = (reader: ResponseReader, response: unknown) => RawToolCall[];

/**
 * Marks the last call as possibly incomplete: a provider that stopped at its
 * output limit cut the call it was writing, and arguments the provider parsed
 * for us (Anthropic, Gemini) can be a valid object with keys missing.
 */
export function markLastCallCutOff(calls: RawToolCall[], reason: string): void {
  // Never `calls[-1]`: an empty list's "-1" is read through Array.prototype.
  if (calls.length === 0) return;
  const last = calls[calls.length - 1] as RawToolCall;
  last.cutOff = reason;
}
