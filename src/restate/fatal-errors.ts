/**
 * Errors across the durable boundary: a registered NonRecoverableToolError
 * becomes Restate's TerminalError (the engine does not retry it), and the text
 * a model may read about a thrown value is taken the way the core takes it.
 */

import {
  type CourseToolCall,
  defineTool,
  executeToolCall,
  ToolRegistry,
} from "../../course/src/index.ts";
import { freeze, isProxy, ownDataValue } from "./restate-intrinsics.ts";
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

/**
 * The text a model may read about a thrown value, as the core takes it: its
 * own data `message` when that is a non-empty string, a non-empty thrown
 * string as it is, else `fallback`. No getter runs and no Proxy is touched.
 */
export function describeThrown(value: unknown, fallback: string): string {
  if (typeof value === "string") return value.length > 0 ? value : fallback;
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return fallback;
  if (isProxy(value)) return fallback;
  const message = ownDataValue(value, "message");
  return typeof message === "string" && message.length > 0 ? message : fallback;
}

// The core alone knows which values are registered NonRecoverableToolErrors (a
// look-alike made with Object.create stays recoverable). Its answer is asked
// through its public behaviour: a Tool that throws the value, run by
// executeToolCall, rejects with it exactly when it is registered.
let probeValue: unknown;
const probeRegistry = new ToolRegistry([
  defineTool({
    name: "toolbound-fatal-probe",
    description: "Throws the value under test so that the core classifies it.",
    validate: () => ({ ok: true as const, value: {} }),
    execute: () => {
      throw probeValue;
    },
  }),
]);
const probeCall: CourseToolCall = freeze({
  type: "toolCall",
  id: "toolbound-fatal-probe",
  name: "toolbound-fatal-probe",
  arguments: freeze({}),
});

/** Whether the core would stop a run for `value`: a registered NonRecoverableToolError. */
export async function isRegisteredFatal(value: unknown): Promise<boolean> {
  // executeToolCall runs `execute` synchronously, before its first await: the
  // value is read before any other probe can set its own.
  probeValue = value;
  const outcome = executeToolCall(probeRegistry, probeCall, new AbortController().signal);
  probeValue = undefined;
  try {
    await outcome;
    return false;
  } catch {
    return true;
  }
}
