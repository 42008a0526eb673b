/**
 * The frozen result messages that link a Tool's outcome back to its call:
 * successes, and recoverable errors written as `{"error":{"code","message"}}`.
 */

import { freeze, NativeTypeError } from "./intrinsics.js";
import type { OutputFormat } from "./output-format.js";
import type { WalkLimits } from "./output-walk.js";
import type { CourseToolCall, CourseToolResultMessage, ToolResultPart } from "./protocol.js";
import { serializeTrusted } from "./serializer.js";

/**
 * Builds the frozen message that links a Tool's outcome to its call; the id is
 * `tool-result-${toolCall.id}`.
 *
 * @example
 * toolResultMessage(call, '{"sum":42}', false);
 * // { id: "tool-result-call-1", role: "toolResult", toolCallId: "call-1", toolName: "add", content: '{"sum":42}', isError: false }
 */
export function toolResultMessage(
  toolCall: Pick<CourseToolCall, "id" | "name">,
  content: string,
  isError: boolean,
): CourseToolResultMessage {
  return freeze({
    id: `tool-result-${toolCall.id}`,
    role: "toolResult",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    content,
    isError,
  });
}

/**
 * The frozen success message of a `toolContent` output: the course's fields
 * in their order, then `parts` when there are any (never for an error).
 */
export function contentResultMessage(
  toolCall: Pick<CourseToolCall, "id" | "name">,
  content: string,
  parts: readonly ToolResultPart[] | undefined,
): CourseToolResultMessage {
  if (parts === undefined) return toolResultMessage(toolCall, content, false);
  return freeze({
    id: `tool-result-${toolCall.id}`,
    role: "toolResult",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    content,
    isError: false,
    parts,
  });
}

const ERROR_RESULT_UNWRITABLE =
  '{"error":{"code":"TOOL_OUTPUT_SERIALIZATION_FAILED","message":"the error result could not be written"}}';

/**
 * Builds a linked, frozen error result whose content is
 * `{"error":{"code":…,"message":…}}`, written by the bounded serializer (so a
 * long message is truncated with the marker, never dropped).
 *
 * @example
 * toolErrorResult(call, "TOOL_NOT_FOUND", 'Unknown Tool "rm"').content;
 * // '{"error":{"code":"TOOL_NOT_FOUND","message":"Unknown Tool \\"rm\\""}}'
 */
export function toolErrorResult(
  toolCall: Pick<CourseToolCall, "id" | "name">,
  code: string,
  message: string,
): CourseToolResultMessage {
  return errorResultWithin(toolCall, code, message, undefined);
}

/**
 * Like {@link toolErrorResult}, under a call's configured limits (undefined:
 * the course's), so that an error result obeys the same `maxCharacters` as a
 * success would; under `format: "text"` it is standard JSON (a line feed in
 * the message as `\n`).
 */
export function errorResultWithin(
  toolCall: Pick<CourseToolCall, "id" | "name">,
  code: string,
  message: string,
  limits: WalkLimits | undefined,
  format: OutputFormat = "json",
): CourseToolResultMessage {
  // A host's mistake, refused before anything is read: a non-string (a Proxy,
  // say) would otherwise be turned into text by running its code.
  if (typeof code !== "string" || typeof message !== "string") {
    throw new NativeTypeError("toolErrorResult needs a string code and a string message");
  }
  // Null prototypes: an enumerable key planted on Object.prototype is not
  // walked (nor counted against the visit budget), and the captured own-key
  // check means a patched Object.hasOwn cannot empty the error either.
  const serialized = serializeTrusted(
    { __proto__: null, error: { __proto__: null, code, message } },
    limits,
    format,
  );
  // Two strings always serialize (a long one is cut at the marker); the constant
  // fallback only guards a defect, and interpolates nothing.
  const content = serialized.ok ? serialized.content : ERROR_RESULT_UNWRITABLE;
  return toolResultMessage(toolCall, content, true);
}
