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
  type CourseToolCall,
  snapshotToolCall,
} from "../../course/src/index.ts";
import {
  containerKind,
  getOwnPropertyDescriptor,
  hasOwn,
  isArray,
  isProxy,
  jsonTextExceeds,
  mapGet,
  mapSet,
  NativeMap,
  numberIsFinite,
} from "../../course/src/internal.ts";
import type { ArgumentLimits } from "./argument-parser.ts";

const objectKeys = Object.keys;

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

/** A call built from parsed arguments, or the reason the model is told they were refused. */
export type ObjectArgumentsOutcome =
  | { readonly ok: true; readonly call: CourseToolCall }
  | { readonly ok: false; readonly reason: string };

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * Snapshots a call whose arguments arrived as a value, then applies `limits`:
 * at most `maxDepth` levels, at most `maxCharacters` UTF-16 code units as
 * compact JSON text. `refuseHost` is called (and must throw) for a value only
 * host code can make.
 */
export function callFromValue(
  id: string,
  name: string,
  value: unknown,
  limits: ArgumentLimits,
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
  // Getters ran once in the snapshot; the copy is plain frozen data to measure.
  const args: CourseJsonObject = call.arguments;
  const fault = findModelFault(args, limits.maxDepth);
  if (fault !== undefined) return { ok: false, reason: describeFault(fault, limits) };
  if (jsonTextExceeds(args, limits.maxCharacters)) {
    return {
      ok: false,
      reason: `arguments are longer than the limit of ${limits.maxCharacters} characters as JSON text`,
    };
  }
  return { ok: true, call };
}

function describeFault(fault: "deep" | "not-finite", limits: ArgumentLimits): string {
  return fault === "deep"
    ? `arguments nest deeper than ${limits.maxDepth} levels`
    : "arguments contain a number that is not finite";
}
