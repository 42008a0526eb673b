/**
 * The one line a failed schema check is answered with: where the first
 * error is, what is wrong, and the offending key if any, bounded.
 */

import type { ErrorObject } from "ajv";
import { cutText, oneLine } from "./bounded-text.ts";

/**
 * The longest argument-error message, in code points.
 *
 * @example
 * MAX_ARGUMENT_ERROR_CHARACTERS; // 500
 */
export const MAX_ARGUMENT_ERROR_CHARACTERS = 500;

/**
 * One readable line for the first error: where it is (under `subject`), what
 * is wrong, and the offending key if any.
 */
function describeError(
  error: ErrorObject | undefined,
  subject: "arguments" | "structuredContent" | "data",
): string {
  if (error === undefined && subject === "arguments") {
    return "arguments do not match the Tool's input schema";
  }
  if (error === undefined) return `${subject} does not match the Tool's schema`;
  const where = error.instancePath === "" ? subject : `${subject}${error.instancePath}`;
  const params = error.params as { additionalProperty?: unknown; missingProperty?: unknown };
  const key = params.additionalProperty ?? undefined;
  const detail = typeof key === "string" ? ` (${JSON.stringify(cutText(key, 64, () => "…"))})` : "";
  return `${where} ${error.message ?? "is invalid"}${detail}`;
}

/**
 * The first error as one bounded line, under `subject`: at most
 * {@link MAX_ARGUMENT_ERROR_CHARACTERS} code points.
 *
 * @example
 * errorLine({ instancePath: "/sum", message: "must be number", params: {} } as ErrorObject, "structuredContent");
 * // "structuredContent/sum must be number"
 */
export function errorLine(
  error: ErrorObject | undefined,
  subject: "arguments" | "structuredContent" | "data",
): string {
  return cutText(oneLine(describeError(error, subject)), MAX_ARGUMENT_ERROR_CHARACTERS, () => "…");
}
