/**
 * Reading a round's calls: the array is read by index through own property
 * descriptors (never its iterator or methods, never a Proxy), every call is
 * snapshotted once, and duplicate ids are refused, all before any validator runs.
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
  mapGet,
  mapSet,
  NativeMap,
} from "../../course/src/internal.ts";
import { store } from "./round-intrinsics.ts";

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

function snapshotAt(calls: object, index: number): CourseToolCall {
  const value = readSlot(calls, index);
  try {
    return snapshotToolCall(value);
  } catch (thrown) {
    const why = thrown instanceof ToolContractError ? thrown.message : "could not be read";
    return invalid(`calls[${index}]: ${why}`, thrown);
  }
}

/** Snapshots in call order; with `refuseDuplicateIds`, an id seen before stops it at once. */
function snapshotCalls(calls: unknown, refuseDuplicateIds: boolean): readonly CourseToolCall[] {
  const length = readLength(calls);
  const snapshots: CourseToolCall[] = [];
  const firstIndexOfId = refuseDuplicateIds ? new NativeMap<string, number>() : undefined;
  for (let index = 0; index < length; index += 1) {
    const snapshot = snapshotAt(calls as object, index);
    if (firstIndexOfId !== undefined) {
      const earlier = mapGet(firstIndexOfId, snapshot.id);
      if (earlier !== undefined) {
        invalid(`Duplicate Tool call id "${snapshot.id}" at calls[${earlier}] and calls[${index}]`);
      }
      mapSet(firstIndexOfId, snapshot.id, index);
    }
    store(snapshots, index, snapshot);
  }
  return snapshots;
}

/**
 * Snapshots every call of a list in call order, without looking at their ids.
 * Throws ToolContractError INVALID_TOOL_CALL for a non-array, a Proxy, a
 * hole, or an unreadable or malformed call; no validator has run when it
 * throws. Durable rounds (`toolbound/restate`) use it and claim ids their own way.
 *
 * @example
 * snapshotCallList([{ type: "toolCall", id: "a", name: "echo", arguments: {} }]); // frozen snapshots
 */
export function snapshotCallList(calls: unknown): readonly CourseToolCall[] {
  return snapshotCalls(calls, false);
}

/**
 * Snapshots every call of a round in call order and refuses duplicate ids.
 * Throws ToolContractError INVALID_TOOL_CALL for a non-array, a Proxy, a
 * hole, an unreadable or malformed call, or two calls with the same id; no
 * validator has run when it throws.
 *
 * @example
 * snapshotRoundCalls([{ type: "toolCall", id: "a", name: "echo", arguments: {} }]); // frozen snapshots
 */
export function snapshotRoundCalls(calls: unknown): readonly CourseToolCall[] {
  return snapshotCalls(calls, true);
}
