/**
 * Errors across the durable boundary: a registered NonRecoverableToolError
 * becomes Restate's TerminalError (the engine does not retry it), and the text
 * a model may read about a thrown value is the core's own `describeThrown`.
 */

import type { CourseToolCall } from "../../course/src/index.ts";
import { describeThrown, isRegisteredNonRecoverable } from "../../course/src/internal.ts";
import { TerminalError } from "./restate-sdk.ts";

/**
 * The `code` metadata of the TerminalError a NonRecoverableToolError becomes
 * (its other metadata: `toolCallId`, `toolName`).
 *
 * @example
 * if (error instanceof TerminalError && error.metadata?.code === NON_RECOVERABLE_TOOL_ERROR) alertOnCall();
 */
export const NON_RECOVERABLE_TOOL_ERROR = "NON_RECOVERABLE_TOOL_ERROR";

/**
 * Whether `error` is the TerminalError a durable call made of a
 * NonRecoverableToolError (on the first run, or read back from the journal
 * on a replay): a TerminalError whose metadata `code` is
 * `NON_RECOVERABLE_TOOL_ERROR`.
 *
 * @example
 * try { await durableToolCalls(ctx, registry, calls) } catch (error) {
 *   if (isNonRecoverableToolFailure(error)) ctx.console.error(error.metadata?.toolName, error.message);
 *   throw error;
 * }
 */
export function isNonRecoverableToolFailure(error: unknown): error is TerminalError {
  return error instanceof TerminalError && error.metadata?.code === NON_RECOVERABLE_TOOL_ERROR;
}

/**
 * The TerminalError a registered NonRecoverableToolError from `call` becomes:
 * the error's own message, HTTP code 500, and metadata naming the call.
 */
export function terminalFromFatal(fatal: unknown, call: CourseToolCall): TerminalError {
  return new TerminalError(describeThrown(fatal, "non-recoverable Tool error"), {
    errorCode: 500,
    metadata: { code: NON_RECOVERABLE_TOOL_ERROR, toolCallId: call.id, toolName: call.name },
  });
}

/** Whether the core would stop a run for `value`: a registered NonRecoverableToolError. */
export function isRegisteredFatal(value: unknown): boolean {
  return isRegisteredNonRecoverable(value);
}

/** The text a model may read about a thrown value, as the core takes it (re-exported). */
export { describeThrown };
