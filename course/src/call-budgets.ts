/**
 * The budgets a call will run under, resolved as `executeToolCall` resolves
 * them (call, then Tool, then registry, field by field), without running a
 * call: for surfaces that must fit a result into a store of their own, such
 * as a durable journal with a size limit.
 */

import { toolOutputFields } from "./definitions.js";
import { freeze } from "./intrinsics.js";
import { PART_BUDGET_DEFAULTS, type PartLimits } from "./output-budget.js";
import { type OutputLevel, resolveOutputSettings } from "./output-settings.js";
import { lookupTool, registryOutput, type ToolRegistry } from "./registry.js";
import { COURSE_LIMITS } from "./serializer.js";

/** A call's character cap and part budgets. */
export interface CallBudgets {
  /** The most code points of `content` (and of a `toolContent` value's text parts together). */
  readonly maxCharacters: number;
  /** The part budgets of a `toolContent` value. */
  readonly parts: PartLimits;
}

const COURSE_BUDGETS: CallBudgets = freeze({
  maxCharacters: COURSE_LIMITS.maxCharacters,
  parts: PART_BUDGET_DEFAULTS,
});

/**
 * The character cap and part budgets of a call of the Tool named `toolName`
 * whose call-level output settings are `callOutput` (as `readCallOptions`
 * read them). An unknown Tool has the call's and the registry's. Runs no
 * code of anyone's: every level was read and frozen when it was given.
 *
 * @example
 * resolvedCallBudgets(registry, "screenshot", undefined).parts.maxTotalBytes; // 20971520 unless a level sets it
 */
export function resolvedCallBudgets(
  registry: ToolRegistry,
  toolName: string,
  callOutput: OutputLevel | undefined,
): CallBudgets {
  const settings = resolveOutputSettings(
    callOutput,
    toolOutputFields(lookupTool(registry, toolName)),
    registryOutput(registry),
  );
  if (settings === undefined) return COURSE_BUDGETS;
  return freeze({ maxCharacters: settings.limits.maxCharacters, parts: settings.parts });
}
