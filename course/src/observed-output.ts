/**
 * Serializing a Tool's output for an observed call: the same text, through
 * the same steps (the same walk, the same calls of the live `Object.hasOwn`,
 * the same spill hook) as the unobserved path, while noting on the call's
 * record what was cut, by which budget, and where the full output went.
 */

import type { CallRecord } from "./call-observer.js";
import type { OutputSettings } from "./output-settings.js";
import { serializeConfigured } from "./output-spill.js";
import { liveHasOwn, walkValue } from "./output-walk.js";
import type { CourseToolCall } from "./protocol.js";
import { COURSE_LIMITS, courseResult, type SerializedOutput } from "./serializer.js";

/**
 * `serializeToolOutput(output)` (no settings) or `serializeConfigured(output,
 * settings, call)`, noting the cut's facts on `record`.
 */
export function serializeObserved(
  output: unknown,
  settings: OutputSettings | undefined,
  call: CourseToolCall,
  record: CallRecord,
): SerializedOutput {
  if (typeof output === "string") record.textLength = output.length;
  let serialized: SerializedOutput;
  if (settings === undefined) {
    const walked = walkValue(output, COURSE_LIMITS, liveHasOwn);
    record.limits = COURSE_LIMITS;
    if (walked.kind === "cut") record.limit = walked.limit;
    serialized = courseResult(walked);
  } else {
    record.limits = settings.limits;
    serialized = serializeConfigured(output, settings, call, record);
  }
  if (serialized.ok) record.truncated = serialized.truncated;
  return serialized;
}
