/**
 * Call snapshots: the copy of an untrusted Tool call (its four fields read
 * once each, its arguments copied by json-snapshot.ts), frozen wherever code
 * outside sees it, and the call made for arguments whose text was refused.
 */

import { contractError } from "./errors.js";
import { freeze, hasOwn, isProxy } from "./intrinsics.js";
import { snapshotJsonObject } from "./json-snapshot.js";
import { isNonBlankString, MISSING, readOwnPlainValue } from "./own-fields.js";
import { isMarkable, MarkHost } from "./private-marks.js";
import type { CourseToolCall } from "./protocol.js";

/**
 * The mark of a call snapshot this module made, set before it is frozen. It
 * holds why the arguments were refused for a call made by
 * {@link toolCallWithInvalidArguments}, else undefined: one mark answers both
 * questions a call is asked on its way (see private-marks.ts).
 */
class CallSnapshotMark extends MarkHost {
  readonly #refusal: string | undefined;

  constructor(snapshot: object, refusal: string | undefined) {
    super(snapshot);
    this.#refusal = refusal;
  }

  static has(value: unknown): boolean {
    return isMarkable(value) && #refusal in value;
  }

  static refusalOf(value: unknown): string | undefined {
    return isMarkable(value) && #refusal in value ? value.#refusal : undefined;
  }
}

/** The fields of a call, as the snapshot reads them. */
interface CallFields {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly arguments?: unknown;
}

/** Refuses a call field whose getter threw. */
function fieldThrew(key: string, thrown: unknown): never {
  throw contractError("INVALID_TOOL_CALL", `Tool call field "${key}" threw when read`, {
    cause: thrown,
  });
}

/** Refuses a call without an own `key` field, or answers the value read. */
function present(value: unknown, key: string): unknown {
  if (value === MISSING) {
    throw contractError("INVALID_TOOL_CALL", `Tool call must have an own "${key}" field`);
  }
  return value;
}

/**
 * Reads one own field of a call; the caller has refused Proxies already. The
 * hot path (snapshotToolCall) reads each field by name instead, one own-key
 * check and one read of its own, so that the engine can specialize each read.
 */
function readCallField(call: object, key: string): unknown {
  let value: unknown;
  try {
    value = readOwnPlainValue(call, key);
  } catch (thrown) {
    return fieldThrew(key, thrown);
  }
  return present(value, key);
}

/**
 * Snapshots an untrusted Tool call: four own fields read once each (type, id,
 * name, arguments), in that order, each checked before the next is read;
 * arguments deep-copied and frozen. A snapshot made here is returned as it
 * is. Throws ToolContractError INVALID_TOOL_CALL for anything that is not a
 * well-formed call.
 */
export function snapshotToolCall(call: unknown): CourseToolCall {
  return takeToolCall(call, true);
}

/**
 * The call as `executeToolCall` takes it (for tool.ts; not re-exported). One
 * of our snapshots is returned as it is; anything else is read and checked
 * exactly as {@link snapshotToolCall} does and copied, arguments deep-copied
 * and frozen. When `shown` (code outside will see the copy: an observer's
 * record, the approval gate, a prepared handle), the copy is marked and frozen
 * like any snapshot. Otherwise it is left unmarked and unfrozen: a copy that
 * never leaves the call is never changed by us either, and its `freeze` was
 * 3% to 5% of a small call's instructions.
 *
 * @example
 * const call = takeToolCall(untrusted, record !== undefined); // frozen when an observer will see it
 */
export function takeToolCall(call: unknown, shown: boolean): CourseToolCall {
  // Our own snapshots are frozen all the way down: copying one again would only cost time.
  if (CallSnapshotMark.has(call)) return call as CourseToolCall;
  if (typeof call !== "object" || call === null) {
    throw contractError("INVALID_TOOL_CALL", "Tool call must be an object");
  }
  if (isProxy(call)) {
    throw contractError("INVALID_TOOL_CALL", "Tool call must not be a Proxy");
  }
  // Each field by name: an own-key check, then one ordinary read, which for a non-Proxy
  // never reaches the prototype chain and runs no code but an own getter, once.
  const fields = call as CallFields;
  let type: unknown;
  try {
    type = hasOwn(call, "type") ? fields.type : MISSING;
  } catch (thrown) {
    return fieldThrew("type", thrown);
  }
  if (present(type, "type") !== "toolCall") {
    throw contractError("INVALID_TOOL_CALL", 'Tool call type must be "toolCall"');
  }
  let id: unknown;
  try {
    id = hasOwn(call, "id") ? fields.id : MISSING;
  } catch (thrown) {
    return fieldThrew("id", thrown);
  }
  if (!isNonBlankString(present(id, "id"))) {
    throw contractError("INVALID_TOOL_CALL", "Tool call id must be a non-blank string");
  }
  let name: unknown;
  try {
    name = hasOwn(call, "name") ? fields.name : MISSING;
  } catch (thrown) {
    return fieldThrew("name", thrown);
  }
  if (!isNonBlankString(present(name, "name"))) {
    throw contractError("INVALID_TOOL_CALL", "Tool call name must be a non-blank string");
  }
  let args: unknown;
  try {
    args = hasOwn(call, "arguments") ? fields.arguments : MISSING;
  } catch (thrown) {
    return fieldThrew("arguments", thrown);
  }
  const copy = snapshotJsonObject(present(args, "arguments"), "Tool call arguments");
  const snapshot: CourseToolCall = {
    type: "toolCall",
    id: id as string,
    name: name as string,
    arguments: copy,
  };
  if (!shown) return snapshot;
  // Marked just before it is frozen: a mark always means a frozen snapshot.
  new CallSnapshotMark(snapshot, undefined);
  return freeze(snapshot);
}

/**
 * Builds the frozen Tool call for a model's call whose argument text could not
 * be accepted (not valid JSON, too long, too deep, not an object): the call
 * keeps its id and name, its `arguments` are an empty frozen object, and
 * `executeToolCall` (and `executeToolCalls`) answer it with a linked
 * `TOOL_ARGUMENTS_INVALID` result whose message is `reason`, without running
 * the validator or the Tool. The mark lives with this very object: pass it on
 * as it is (a copy such as `{ ...call }` is an ordinary call with empty
 * arguments). Throws ToolContractError INVALID_TOOL_CALL for a blank id,
 * name or reason.
 *
 * @example
 * const call = toolCallWithInvalidArguments({ id: "call-1", name: "add" }, "arguments are not valid JSON at position 9");
 * (await executeToolCall(registry, call, signal)).content;
 * // '{"error":{"code":"TOOL_ARGUMENTS_INVALID","message":"arguments are not valid JSON at position 9"}}'
 */
export function toolCallWithInvalidArguments(
  call: { readonly id: string; readonly name: string },
  reason: string,
): CourseToolCall {
  if (typeof call !== "object" || call === null || isProxy(call)) {
    throw contractError("INVALID_TOOL_CALL", "Tool call must be a non-Proxy object");
  }
  const id = readCallField(call, "id");
  if (!isNonBlankString(id)) {
    throw contractError("INVALID_TOOL_CALL", "Tool call id must be a non-blank string");
  }
  const name = readCallField(call, "name");
  if (!isNonBlankString(name)) {
    throw contractError("INVALID_TOOL_CALL", "Tool call name must be a non-blank string");
  }
  if (!isNonBlankString(reason)) {
    throw contractError(
      "INVALID_TOOL_CALL",
      "the reason arguments were refused must be a non-blank string",
    );
  }
  const snapshot: CourseToolCall = { type: "toolCall", id, name, arguments: freeze({}) };
  new CallSnapshotMark(snapshot, reason);
  return freeze(snapshot);
}

/**
 * The reason a call's arguments were refused, for a call made by
 * {@link toolCallWithInvalidArguments}; undefined for every other value.
 *
 * @example
 * invalidArgumentsReason(call); // "arguments are not valid JSON at position 9"
 */
export function invalidArgumentsReason(call: unknown): string | undefined {
  // A private field of the snapshot: asking runs nothing of `call`, a Proxy's traps included.
  return CallSnapshotMark.refusalOf(call);
}
