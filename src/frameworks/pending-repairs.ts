/**
 * Repaired calls waiting for their Tool: when a framework's hook finds a
 * model's argument text our bounded parser refuses, it keeps the refusal's
 * reason here under the bridged Tool and a fresh random token, and hands the
 * framework the call with `{"__toolbound_repair":"<token>"}` as its arguments;
 * the bridged Tool's `execute` takes the reason back by that token and refuses
 * the call with it, never reading the stand-in arguments. Only reasons are
 * kept, never arguments: a framework's approval and hooks see the stand-in
 * alone, so no repaired call may run.
 *
 * Why a token and not the call id: ids repeat (two calls of one step may share
 * one, and short ids like `call_0` come back in every run of a local server),
 * so a record kept by id could answer a different call than the one repaired.
 * A token is written into the repaired call itself, so only that call can
 * carry it, and an ordinary call never takes a record.
 */

import { isProxy } from "../../course/src/internal.ts";

/**
 * The argument key a repaired call carries its token under. An arguments
 * object with this key is always answered from a record (or refused when there
 * is none), never validated or run: the key is reserved.
 */
export const REPAIR_KEY = "__toolbound_repair";

/**
 * The most repaired calls one bridged Tool holds at once. A record is taken
 * when its call runs; one whose call never runs (a denied approval, a step
 * aborted between parsing and running) stays, and past this many the oldest
 * record is dropped, so a long run cannot grow the records without end. A call
 * whose record was dropped is refused when it runs.
 */
export const MAX_PENDING_REPAIRS = 1_000;

/**
 * The reason a call carrying {@link REPAIR_KEY} without a held record gets:
 * its record was taken, dropped past the limit, or never made here.
 */
export const UNHELD_REPAIR_REASON = `arguments use the reserved key "${REPAIR_KEY}" of a repaired call that is not held (already answered, dropped past ${MAX_PENDING_REPAIRS.toLocaleString("en-US")} waiting, or never repaired)`;

/**
 * The repaired calls of the bridged Tools of one framework adapter, each
 * Tool's refusal reasons, by token, in a map its own `execute` holds.
 *
 * @example
 * const repairs = new PendingRepairs();
 * const mine = new Map<string, string>();
 * repairs.serve(bridgedTool, mine);
 * const text = repairs.hold(bridgedTool, "arguments are not valid JSON at position 8");
 * takeRepair(mine, JSON.parse(text)); // "arguments are not valid JSON at position 8"
 */
export class PendingRepairs {
  readonly #byTool = new WeakMap<object, Map<string, string>>();

  /** Makes `tool` one this serves, its records kept in `records`. */
  serve(tool: object, records: Map<string, string>): void {
    this.#byTool.set(tool, records);
  }

  /** Whether `tool` is a bridged Tool this serves. */
  serves(tool: unknown): boolean {
    return typeof tool === "object" && tool !== null && this.#byTool.has(tool);
  }

  /**
   * Keeps `reason` for a repaired call of `tool` and returns the argument
   * text the framework gets in place of the model's; undefined (nothing kept)
   * for a tool this does not serve. At {@link MAX_PENDING_REPAIRS} records the
   * oldest is dropped first.
   */
  hold(tool: unknown, reason: string): string | undefined {
    if (typeof tool !== "object" || tool === null) return undefined;
    const records = this.#byTool.get(tool);
    if (records === undefined) return undefined;
    if (records.size >= MAX_PENDING_REPAIRS) {
      // Maps iterate in insertion order: the first key is the oldest record.
      for (const oldest of records.keys()) {
        records.delete(oldest);
        break;
      }
    }
    // Random, so that a model cannot name the record of a call it did not make.
    const token = globalThis.crypto.randomUUID();
    records.set(token, reason);
    return JSON.stringify({ [REPAIR_KEY]: token });
  }
}

/**
 * The refusal reason for the arguments a framework passed a bridged Tool:
 * undefined for an ordinary call (no {@link REPAIR_KEY}); for a repaired one,
 * its held reason, taken out of `records` (a reason answers one call only),
 * or {@link UNHELD_REPAIR_REASON} when none is held for its token.
 *
 * @example
 * const refused = takeRepair(records, input);
 * const call = refused === undefined ? ordinaryCall : toolCallWithInvalidArguments({ id, name }, refused);
 */
export function takeRepair(records: Map<string, string>, input: unknown): string | undefined {
  // A Proxy is never asked (its traps could run host code): our boundary reads it as arguments.
  if (typeof input !== "object" || input === null || Array.isArray(input) || isProxy(input)) {
    return undefined;
  }
  // Read once, as a descriptor: a getter is never run.
  const descriptor = Object.getOwnPropertyDescriptor(input, REPAIR_KEY);
  if (descriptor === undefined) return undefined;
  const token = "value" in descriptor ? descriptor.value : undefined;
  const reason = typeof token === "string" ? records.get(token) : undefined;
  if (reason === undefined) return UNHELD_REPAIR_REASON;
  records.delete(token as string);
  return reason;
}
