/**
 * Arguments a provider sent already parsed (Anthropic's `input`, Gemini's
 * `args`): the same limits as argument text, applied to the value before it
 * is copied (see `value-rules.ts`). What a model can put in such a value
 * (deep nesting, too much text, a number such as 1e999 that the SDK's JSON
 * reading turned into Infinity, a lone surrogate) is answered to the model;
 * what only host code can put there (a Proxy, a cycle, a class instance, a
 * getter) is a host mistake, refused with a TypeError.
 */

import {
  type CourseJsonObject,
  type CourseToolCall,
  snapshotToolCall,
} from "../../course/src/index.ts";
import { isArray, isProxy } from "../../course/src/internal.ts";
import type { ArgumentLimits } from "./argument-parser.ts";
import { measureArgumentValue, type ValueFault } from "./value-rules.ts";

/** A call built from parsed arguments, or the reason the model is told they were refused. */
export type ObjectArgumentsOutcome =
  | { readonly ok: true; readonly call: CourseToolCall; readonly characters: number }
  | { readonly ok: false; readonly reason: string };

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * The reason a call gets when the arguments read before it leave too little
 * of the response's budget for its own.
 */
export function responseBudgetReason(responseLimit: number): string {
  return `arguments are longer than what is left of the limit of ${responseLimit} characters for all the arguments of one response`;
}

/**
 * The reason the model reads for a fault of a parsed value under `limits`,
 * `lengthReason` standing for "long".
 */
export function describeValueFault(
  fault: ValueFault,
  limits: ArgumentLimits,
  lengthReason: string,
): string {
  switch (fault) {
    case "deep":
      return `arguments nest deeper than ${limits.maxDepth} levels`;
    case "not-finite":
      return "arguments contain a number that is not finite";
    case "lone-surrogate":
      return "arguments contain a lone surrogate";
    case "long":
      return lengthReason;
  }
}

/**
 * Checks a call whose arguments arrived as a value against `limits` (at most
 * `maxDepth` levels, at most `maxCharacters` UTF-16 code units as compact
 * JSON text, every number finite, no lone surrogate) and against `room`, what
 * the response's argument budget has left (`responseLimit` in all), then
 * snapshots it; the length is answered with the call. The value is measured
 * before it is copied, so a value past a limit costs no copy. `refuseHost` is
 * called (and must throw) for a value only host code can make.
 */
export function callFromValue(
  id: string,
  name: string,
  value: unknown,
  limits: ArgumentLimits,
  room: number,
  responseLimit: number,
  refuseHost: (cause: unknown) => never,
): ObjectArgumentsOutcome {
  if (typeof value !== "object" || value === null || (!isProxy(value) && isArray(value))) {
    return { ok: false, reason: `arguments must be a JSON object, not ${kindOf(value)}` };
  }
  const ownLimitBinds = limits.maxCharacters <= room;
  const limit = ownLimitBinds ? limits.maxCharacters : room;
  const lengthReason = ownLimitBinds
    ? `arguments are longer than the limit of ${limits.maxCharacters} characters as JSON text`
    : responseBudgetReason(responseLimit);
  const measured = measureArgumentValue(value, limits.maxDepth, limit);
  if (measured.fault !== undefined) {
    return { ok: false, reason: describeValueFault(measured.fault, limits, lengthReason) };
  }
  let call: CourseToolCall;
  try {
    call = snapshotToolCall({ type: "toolCall", id, name, arguments: value });
  } catch (thrown) {
    // What a model can cause was found above: the rest is what host code built.
    return refuseHost(thrown);
  }
  if (measured.complete) return { ok: true, call, characters: measured.characters };
  // The walk passed over what only host code builds (a getter, a value of another realm):
  // the copy is plain frozen data now, so measure what the getters answered too.
  const args: CourseJsonObject = call.arguments;
  const copied = measureArgumentValue(args, limits.maxDepth, limit);
  if (copied.fault !== undefined) {
    return { ok: false, reason: describeValueFault(copied.fault, limits, lengthReason) };
  }
  return { ok: true, call, characters: copied.characters };
}
