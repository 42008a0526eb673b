/**
 * Arguments a provider sent already parsed (Anthropic's `input`, Gemini's
 * `args`): the same limits as argument text, applied to the value. What a
 * model can put in such a value (deep nesting; a number such as 1e999 that the
 * SDK's JSON reading turned into Infinity) is answered to the model; what only
 * host code can put there (a Proxy, a cycle, a class instance, a getter) is a
 * host mistake, refused with a TypeError.
 */

import {
  type CourseJsonObject,
  type CourseJsonValue,
  type CourseToolCall,
  snapshotToolCall,
} from "../../course/src/index.ts";
import {
  containerKind,
  getOwnPropertyDescriptor,
  hasOwn,
  isArray,
  isProxy,
  jsonTextLength,
  mapGet,
  mapSet,
  NativeMap,
  numberIsFinite,
} from "../../course/src/internal.ts";
import type { ArgumentLimits } from "./argument-parser.ts";

const objectKeys = Object.keys;

/** The compact JSON length of a primitive (its text for a string), or anything above `stopAbove`. */
function primitiveLength(value: unknown, stopAbove: number): number {
  return jsonTextLength(value as CourseJsonValue, stopAbove);
}

/** What {@link findModelFault} found: nothing, nesting past the limit, or a non-finite number. */
type ModelFault = "deep" | "not-finite" | undefined;

/** One container being walked: its own enumerable keys, the next to visit, and its tallest child. */
interface WalkFrame {
  readonly node: object;
  readonly keys: readonly string[];
  next: number;
  childHeight: number;
}

/**
 * Looks for what a model can cause in a parsed value, reading only own data
 * properties of plain, non-Proxy objects and arrays (accessors, Proxies and
 * exotic objects are passed over: the snapshot judges them, as the host's).
 * Iterative, so no depth exhausts the stack; each container's height is
 * remembered, so a value whose parts are shared costs its size, not its paths.
 */
function findModelFault(root: unknown, maxDepth: number): ModelFault {
  const heights = new NativeMap<object, number>();
  const onPath = new NativeMap<object, true>();
  const stack: WalkFrame[] = [];
  const enter = (node: unknown): ModelFault => {
    if (typeof node === "number") return numberIsFinite(node) ? undefined : "not-finite";
    if (typeof node !== "object" || node === null || isProxy(node)) return undefined;
    if (containerKind(node) === "exotic") return undefined;
    const parent = stack[stack.length - 1];
    const known = mapGet(heights, node);
    if (known !== undefined) {
      if (stack.length + known > maxDepth) return "deep";
      if (parent !== undefined && known > parent.childHeight) parent.childHeight = known;
      return undefined;
    }
    // A cycle is never JSON: the snapshot refuses it as the host's.
    if (mapGet(onPath, node) !== undefined) return undefined;
    if (stack.length + 1 > maxDepth) return "deep";
    mapSet(onPath, node, true);
    stack.push({ node, keys: objectKeys(node), next: 0, childHeight: 0 });
    return undefined;
  };
  const first = enter(root);
  if (first !== undefined) return first;
  for (;;) {
    const frame = stack[stack.length - 1];
    if (frame === undefined) return undefined;
    const key = frame.keys[frame.next];
    if (key === undefined) {
      stack.pop();
      const height = frame.childHeight + 1;
      mapSet(heights, frame.node, height);
      const parent = stack[stack.length - 1];
      if (parent !== undefined && height > parent.childHeight) parent.childHeight = height;
      continue;
    }
    frame.next += 1;
    const descriptor = getOwnPropertyDescriptor(frame.node, key);
    if (descriptor === undefined || !hasOwn(descriptor, "value")) continue;
    const fault = enter(descriptor.value);
    if (fault !== undefined) return fault;
  }
}

/** One container of a snapshot being measured: its keys (undefined for an array) and where it began. */
interface MeasureFrame {
  readonly node: object;
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  next: number;
  readonly start: number;
  tallest: number;
}

/** What a finished container of a snapshot measured: its levels and its compact JSON length. */
interface Measure {
  readonly height: number;
  readonly characters: number;
}

/**
 * The compact JSON length of a frozen snapshot (plain objects and arrays, own
 * data fields, finite numbers, no cycles), or "deep" past `maxDepth` levels,
 * or "long" past `limit` characters. One iterative walk for both limits; a
 * container met again (the snapshot keeps shared parts shared) is not walked
 * twice.
 */
function measureSnapshot(
  root: CourseJsonObject,
  maxDepth: number,
  limit: number,
): number | "deep" | "long" {
  const known = new NativeMap<object, Measure>();
  const stack: MeasureFrame[] = [];
  let total = 0;
  const enter = (node: unknown): "deep" | undefined => {
    if (typeof node !== "object" || node === null) {
      total += primitiveLength(node, limit - total);
      return undefined;
    }
    const parent = stack[stack.length - 1];
    const seen = mapGet(known, node);
    if (seen !== undefined) {
      if (stack.length + seen.height > maxDepth) return "deep";
      total += seen.characters;
      if (parent !== undefined && seen.height > parent.tallest) parent.tallest = seen.height;
      return undefined;
    }
    if (stack.length + 1 > maxDepth) return "deep";
    const keys = isArray(node) ? undefined : objectKeys(node);
    const length = keys === undefined ? (node as readonly unknown[]).length : keys.length;
    stack.push({ node, keys, length, next: 0, start: total, tallest: 0 });
    total += 1;
    return undefined;
  };
  if (enter(root) === "deep") return "deep";
  while (total <= limit) {
    const frame = stack[stack.length - 1];
    if (frame === undefined) return total;
    if (frame.next === frame.length) {
      total += 1;
      stack.pop();
      const height = frame.tallest + 1;
      mapSet(known, frame.node, { height, characters: total - frame.start });
      const parent = stack[stack.length - 1];
      if (parent !== undefined && height > parent.tallest) parent.tallest = height;
      continue;
    }
    const index = frame.next;
    frame.next = index + 1;
    if (index > 0) total += 1;
    let child: unknown;
    if (frame.keys === undefined) child = (frame.node as readonly unknown[])[index];
    else {
      const key = frame.keys[index] as string;
      total += primitiveLength(key, limit - total) + 1;
      child = (frame.node as { readonly [key: string]: unknown })[key];
    }
    if (enter(child) === "deep") return "deep";
  }
  return "long";
}

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
 * Snapshots a call whose arguments arrived as a value, then applies `limits`:
 * at most `maxDepth` levels, at most `maxCharacters` UTF-16 code units as
 * compact JSON text (the length is answered with the call), and at most
 * `room`, what the response's argument budget has left (`responseLimit` in
 * all). `refuseHost` is called (and must throw) for a value only host code can
 * make.
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
  let call: CourseToolCall;
  try {
    call = snapshotToolCall({ type: "toolCall", id, name, arguments: value });
  } catch (thrown) {
    // The snapshot refused: say whether the model or the host made that value.
    const fault = findModelFault(value, limits.maxDepth);
    if (fault === undefined) return refuseHost(thrown);
    return { ok: false, reason: describeFault(fault, limits) };
  }
  // Getters ran once in the snapshot; the copy is plain frozen data to measure, in one walk.
  const ownLimitBinds = limits.maxCharacters <= room;
  const measured = measureSnapshot(
    call.arguments,
    limits.maxDepth,
    ownLimitBinds ? limits.maxCharacters : room,
  );
  if (measured === "deep") return { ok: false, reason: describeFault("deep", limits) };
  if (measured === "long") {
    return {
      ok: false,
      reason: ownLimitBinds
        ? `arguments are longer than the limit of ${limits.maxCharacters} characters as JSON text`
        : responseBudgetReason(responseLimit),
    };
  }
  return { ok: true, call, characters: measured };
}

/**
 * The reason a call gets when the arguments read before it leave too little
 * of the response's budget for its own.
 */
export function responseBudgetReason(responseLimit: number): string {
  return `arguments are longer than what is left of the limit of ${responseLimit} characters for all the arguments of one response`;
}

function describeFault(fault: "deep" | "not-finite", limits: ArgumentLimits): string {
  return fault === "deep"
    ? `arguments nest deeper than ${limits.maxDepth} levels`
    : "arguments contain a number that is not finite";
}
