/**
 * The AI SDK's parsed input, checked by the rules `toolbound/providers`
 * applies to parsed arguments, on every path the SDK takes: the check is the
 * `validate` of each bridged Tool's input schema, which the SDK runs on its
 * parsed value before anything else sees it (approval, `refineToolInput`,
 * callbacks, the history, `execute`). What a model can cause there (nesting
 * past 64 levels, more than 1,000,000 characters as JSON text, a number the
 * SDK's JSON reading made `Infinity`, a lone surrogate, arguments that are not
 * an object) does not fail validation, which would send the SDK's own error
 * text, quoting the whole input, to the model; the input is replaced by a
 * stand-in that carries our reason, and the Tool answers it with
 * `TOOL_ARGUMENTS_INVALID` without running. The deep value goes no further:
 * the SDK copies the stand-in into its history, not the value.
 *
 * A value keeps no trace of the text it was read from, so the rules that need
 * the text (duplicate keys, which `JSON.parse` resolves to the last; numbers
 * a double cannot hold exactly) are applied by `repairAiSdkModel`, which
 * reads the model's text before the SDK does.
 */

import { isArray, isProxy } from "../../course/src/internal.ts";
import { REPAIR_KEY } from "../frameworks/pending-repairs.ts";
import {
  PROVIDER_ARGUMENTS_MAX_CHARACTERS,
  PROVIDER_ARGUMENTS_MAX_DEPTH,
} from "../providers/argument-parser.ts";
import { describeValueFault } from "../providers/object-arguments.ts";
import { measureArgumentValue } from "../providers/value-rules.ts";
import { aiSdkRepairs } from "./repair-ai-sdk-tool-call.ts";

/** The limits of `toolbound/providers`' defaults, which the AI SDK paths share. */
const LIMITS = Object.freeze({
  maxCharacters: PROVIDER_ARGUMENTS_MAX_CHARACTERS,
  maxDepth: PROVIDER_ARGUMENTS_MAX_DEPTH,
});

/** What a `validate` of the SDK's `jsonSchema()` answers. */
export type AiSdkValidation = { readonly success: true; readonly value: unknown };

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * Why our rules refuse the SDK's parsed input, or undefined when they accept
 * it (a stand-in with the reserved key is left for the Tool to answer).
 *
 * @example
 * inputRefusal({ n: Number.POSITIVE_INFINITY }); // "arguments contain a number that is not finite"
 */
export function inputRefusal(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || isArray(value)) {
    return `arguments must be a JSON object, not ${kindOf(value)}`;
  }
  // Only host code can hand the SDK a Proxy; our boundary refuses it without running a trap.
  if (isProxy(value)) return undefined;
  if (Object.getOwnPropertyDescriptor(value, REPAIR_KEY) !== undefined) return undefined;
  const measured = measureArgumentValue(value, LIMITS.maxDepth, LIMITS.maxCharacters);
  if (measured.fault === undefined) return undefined;
  return describeValueFault(
    measured.fault,
    LIMITS,
    `arguments are longer than the limit of ${LIMITS.maxCharacters} characters as JSON text`,
  );
}

/**
 * The `validate` of a bridged Tool's input schema: the SDK's parsed input as
 * it is when our rules accept it, or the stand-in carrying the reason they
 * refuse it for. It never answers failure: the SDK would quote the input.
 *
 * @example
 * const inputSchema = jsonSchema(schema, { validate: checkAiSdkInput(() => bridged) });
 */
export function checkAiSdkInput(tool: () => object): (value: unknown) => Promise<AiSdkValidation> {
  return async (value) => {
    const reason = inputRefusal(value);
    if (reason === undefined) return { success: true, value };
    const stand = await aiSdkRepairs.standIn(tool(), reason);
    return { success: true, value: stand ?? value };
  };
}
