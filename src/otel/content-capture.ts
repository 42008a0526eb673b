/**
 * Opt-in content capture: a call's arguments and its result's content as
 * span attributes, each run through the host's redaction hook first and then
 * bounded by the capture budget. Off by default: arguments and results can
 * hold anything a user or a Tool saw (personal data, secrets), and span
 * attributes leave the process.
 */

import { serializeToolOutput } from "../../course/src/index.ts";
import { mathMax } from "../../course/src/internal.ts";
import { boundText } from "./bounded-text.ts";

/**
 * Which content a redaction hook is handed, and for which call.
 *
 * @example
 * { kind: "arguments", toolName: "read_file", toolCallId: "call-1" }
 */
export interface CapturedContentInfo {
  readonly kind: "arguments" | "result";
  readonly toolName: string;
  readonly toolCallId: string;
}

/**
 * The redaction hook: receives the call's arguments (the frozen snapshot the
 * validator saw) or the result's `content` (a string) and returns what may be
 * recorded: a string (kept as it is, then bounded), any other value (written
 * as JSON by the bounded serializer, then bounded), or `undefined` to record
 * nothing. It runs synchronously, once per captured value; if it throws, the
 * attribute holds {@link REDACTION_FAILED} instead, never the unredacted content.
 *
 * @example
 * // Results are not recorded (a Tool may echo what it was given); a key is masked where present.
 * const redact: ContentRedactor = (content, { kind }) =>
 *   kind === "result"
 *     ? undefined
 *     : Object.hasOwn(content as object, "apiKey")
 *       ? { ...(content as object), apiKey: "[redacted]" }
 *       : content;
 */
export type ContentRedactor = (content: unknown, info: CapturedContentInfo) => unknown;

/**
 * What a captured attribute holds when the redaction hook threw.
 *
 * @example
 * span.attributes["gen_ai.tool.call.result"] === REDACTION_FAILED; // the hook threw
 */
export const REDACTION_FAILED = "[redaction failed]";

/**
 * How content is captured: the budget per attribute and the optional redaction hook.
 *
 * @example
 * const settings: CaptureSettings = { maxCharacters: 4096, redact: undefined };
 */
export interface CaptureSettings {
  readonly maxCharacters: number;
  readonly redact: ContentRedactor | undefined;
}

/** The serializer's floor for a configured budget; the capture budget may be lower. */
const SERIALIZER_FLOOR = 1024;
/**
 * Room past the capture budget for the serializer's own marker (at most about
 * a hundred code points): when the serializer cuts, its marker lies wholly
 * beyond what the capture keeps, so a cut capture ends with the capture's
 * marker alone.
 */
const MARKER_ROOM = 200;

/**
 * The text one captured attribute holds, at most `settings.maxCharacters`
 * code points, or undefined when the hook asked for nothing.
 *
 * @example
 * capturedText({ q: "hi" }, { kind: "arguments", toolName: "echo", toolCallId: "c1" }, settings); // '{"q":"hi"}'
 */
export function capturedText(
  content: unknown,
  info: CapturedContentInfo,
  settings: CaptureSettings,
): string | undefined {
  let value = content;
  if (settings.redact !== undefined) {
    try {
      value = settings.redact(content, info);
    } catch {
      return REDACTION_FAILED;
    }
  }
  if (value === undefined) return undefined;
  if (typeof value === "string") return boundText(value, settings.maxCharacters);
  // Whatever the hook returned is written as the boundary writes Tool output: no getter, no
  // toJSON, no Proxy trap runs, and the work stops at the budget.
  let text: string;
  try {
    const serialized = serializeToolOutput(value, {
      outputBudget: {
        // The captured `Math.max`: a Tool may have replaced the global.
        maxCharacters: mathMax(settings.maxCharacters + MARKER_ROOM, SERIALIZER_FLOOR),
      },
    });
    text = serialized.ok ? serialized.content : `[not captured: ${serialized.message}]`;
  } catch {
    // Only a Proxy prototype's trap can throw here.
    text = "[not captured: the value could not be written]";
  }
  return boundText(text, settings.maxCharacters);
}
