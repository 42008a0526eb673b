/**
 * The provider formats of the round trip: the four whose responses carry Tool
 * calls to read and whose next request carries results back. MCP is not among
 * them: its calls arrive one at a time through `toolbound/mcp`.
 */

import { NativeTypeError } from "../../course/src/internal.ts";
import { describeFound } from "./describe-found.ts";

/**
 * The formats `readToolCalls` and `toToolResultMessages` speak.
 *
 * @example
 * const format: RoundTripFormat = "anthropic";
 */
export type RoundTripFormat = "openai-chat" | "openai-responses" | "anthropic" | "gemini";

const FORMATS: readonly RoundTripFormat[] = Object.freeze([
  "openai-chat",
  "openai-responses",
  "anthropic",
  "gemini",
]);

/**
 * Throws a TypeError, naming the caller and the formats, unless `format` is a
 * round-trip format. `"mcp"` is named too: it is a format of `toProviderTools`.
 */
export function assertRoundTripFormat(
  format: unknown,
  caller: string,
): asserts format is RoundTripFormat {
  if (
    format === "openai-chat" ||
    format === "openai-responses" ||
    format === "anthropic" ||
    format === "gemini"
  ) {
    return;
  }
  const mcp = format === "mcp" ? " (MCP calls arrive one at a time through toolbound/mcp)" : "";
  // The host's own string, shortened: a format is a few characters.
  const found =
    typeof format === "string"
      ? JSON.stringify(format.length > 40 ? `${format.slice(0, 40)}…` : format)
      : describeFound(format);
  throw new NativeTypeError(
    `${caller} format must be one of ${FORMATS.join(", ")}${mcp}; found ${found}`,
  );
}
