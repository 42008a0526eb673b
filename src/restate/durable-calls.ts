/**
 * Reading the calls of a durable round, and the rule that makes idempotency
 * keys unique: the array is read by index through own property descriptors
 * (never its iterator or methods, never a Proxy), each call is snapshotted
 * once, and a call id is refused when it appeared earlier in the round or in
 * an earlier durable call of the same handler run, all before any validator runs.
 */

import {
  type CourseToolCall,
  snapshotToolCall,
  ToolContractError,
} from "../../course/src/index.ts";
import {
  apply,
  getOwnPropertyDescriptor,
  hasOwn,
  isArray,
  isProxy,
  isSafeInteger,
  setAdd,
  setHas,
  store,
  weakMapGet,
  weakMapSet,
} from "./restate-intrinsics.ts";
import type { DurableContext } from "./restate-sdk.ts";

function invalid(message: string, cause?: unknown): never {
  throw cause === undefined
    ? new ToolContractError("INVALID_TOOL_CALL", message)
    : new ToolContractError("INVALID_TOOL_CALL", message, { cause });
}

function readLength(calls: unknown): number {
  if (typeof calls !== "object" || calls === null || isProxy(calls) || !isArray(calls)) {
    return invalid("Tool round calls must be an array (not a Proxy)");
  }
  // An array's own `length` is always a data property; read it without `calls.length`.
  const length = getOwnPropertyDescriptor(calls, "length")?.value as unknown;
  if (typeof length !== "number" || !isSafeInteger(length) || length < 0) {
    return invalid("Tool round calls have no readable length");
  }
  return length;
}

/** One slot, read once: a data value, or an own getter run once; a hole is refused. */
function readSlot(calls: object, index: number): unknown {
  const descriptor = getOwnPropertyDescriptor(calls, index);
  if (descriptor === undefined) return invalid(`Tool round calls have a hole at index ${index}`);
  if (hasOwn(descriptor, "value")) return descriptor.value;
  const get = descriptor.get;
  if (get === undefined) return undefined;
  try {
    return apply(get, calls, []);
  } catch (thrown) {
    return invalid(`calls[${index}] threw when read`, thrown);
  }
}

/**
 * Snapshots every call of a round in call order. Throws ToolContractError
 * INVALID_TOOL_CALL for a non-array, a Proxy, a hole, or an unreadable or
 * malformed call; no validator has run when it throws.
 */
export function snapshotDurableCalls(calls: unknown): readonly CourseToolCall[] {
  const length = readLength(calls);
  const snapshots: CourseToolCall[] = [];
  for (let index = 0; index < length; index += 1) {
    const value = readSlot(calls as object, index);
    let snapshot: CourseToolCall;
    try {
      snapshot = snapshotToolCall(value);
    } catch (thrown) {
      const why = thrown instanceof ToolContractError ? thrown.message : "could not be read";
      return invalid(`calls[${index}]: ${why}`, thrown);
    }
    store(snapshots, index, snapshot);
  }
  return snapshots;
}

/** The call ids each handler run has used, by its context (a retry gets a new context). */
const usedIds = new WeakMap<object, Set<string>>();

/**
 * Claims the ids of `calls` for this handler run, in call order. Throws
 * ToolContractError INVALID_TOOL_CALL, claiming none, when an id appears
 * twice in `calls` or was claimed by an earlier durable call of the same run:
 * the idempotency key (invocation id and call id) would repeat, and an
 * external system would take the second call's effect for the first's.
 */
export function claimCallIds(ctx: DurableContext, calls: readonly CourseToolCall[]): void {
  let used = weakMapGet(usedIds, ctx);
  if (used === undefined) {
    used = new Set<string>();
    weakMapSet(usedIds, ctx, used);
  }
  const seen = new Set<string>();
  for (let index = 0; index < calls.length; index += 1) {
    const id = (calls[index] as CourseToolCall).id;
    if (setHas(seen, id)) {
      let earlier = 0;
      while ((calls[earlier] as CourseToolCall).id !== id) earlier += 1;
      invalid(`Duplicate Tool call id "${id}" at calls[${earlier}] and calls[${index}]`);
    }
    if (setHas(used, id)) {
      invalid(
        `Tool call id "${id}" was already used by a durable call of this invocation; ` +
          "its idempotency key would repeat",
      );
    }
    setAdd(seen, id);
  }
  for (let index = 0; index < calls.length; index += 1) {
    setAdd(used, (calls[index] as CourseToolCall).id);
  }
}
