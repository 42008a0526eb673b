/**
 * The deadline of a durable call: `timeoutMs` read like `executeToolCall`
 * reads it, and what a passed deadline yields. The timer itself is Restate's
 * (`ctx.sleep`), started when the Tool starts and journaled with its wake-up
 * time, so a deadline that passes while the service is down has passed when
 * it comes back, and the call's result is `TOOL_TIMEOUT` without the Tool
 * running again.
 */

import {
  type CourseToolCall,
  type CourseToolResultMessage,
  ToolContractError,
  toolErrorResult,
} from "../../course/src/index.ts";
import { deadlineRule, isDeadline } from "../../course/src/internal.ts";
import { apply } from "./restate-intrinsics.ts";

// The deadline rules are the core's own: the same limit (2^31 - 1 ms) and wording.
export { deadlineRule, isDeadline };

/**
 * The deadline for one Tool, in milliseconds, or undefined for none: a number
 * as it is, a function asked once with the Tool's name. Throws
 * ToolContractError INVALID_TOOL_CALL for a bad answer or a throwing function.
 */
export function resolveDeadline(
  setting: number | ((toolName: string) => number | undefined) | undefined,
  toolName: string,
): number | undefined {
  let value: unknown = setting;
  if (typeof setting === "function") {
    try {
      value = apply(setting, undefined, [toolName]);
    } catch (thrown) {
      throw new ToolContractError("INVALID_TOOL_CALL", "timeoutMs could not be resolved", {
        cause: thrown,
      });
    }
  }
  if (value === undefined || value === Number.POSITIVE_INFINITY) return undefined;
  if (!isDeadline(value)) {
    throw new ToolContractError(
      "INVALID_TOOL_CALL",
      deadlineRule(`timeoutMs for Tool "${toolName}"`),
    );
  }
  return value;
}

/** What the Tool's signal aborts with when its deadline passes: the core's `TimeoutError`. */
export function deadlineReason(toolName: string, timeoutMs: number): DOMException {
  return new DOMException(
    `Tool "${toolName}" did not finish within ${timeoutMs} ms`,
    "TimeoutError",
  );
}

/**
 * The recoverable `TOOL_TIMEOUT` result of a passed deadline, with the core's
 * message. It is written with the course's error limits (4,096 characters),
 * not a configured output budget: the core's result differs only when it is
 * longer than that budget (about 160 characters and the Tool's name).
 *
 * @example
 * deadlineResult(call, 5_000).content;
 * // '{"error":{"code":"TOOL_TIMEOUT","message":"Tool \\"search\\" did not finish within 5000 ms and was asked to stop; it may still be running, and its effects are unknown"}}'
 */
export function deadlineResult(call: CourseToolCall, timeoutMs: number): CourseToolResultMessage {
  return toolErrorResult(
    call,
    "TOOL_TIMEOUT",
    `Tool "${call.name}" did not finish within ${timeoutMs} ms and was asked to stop; ` +
      "it may still be running, and its effects are unknown",
  );
}
