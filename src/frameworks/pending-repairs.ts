/**
 * Repaired calls waiting for their Tool: when a framework's hook finds a
 * model's argument text our bounded parser refuses, it keeps our parser's
 * outcome here under the bridged Tool and the call id, and hands the framework
 * the call with `{}` arguments; the bridged Tool's `execute` takes the outcome
 * back by the call id and answers from it, never from the `{}`.
 */

/**
 * The most repaired calls one bridged Tool holds at once. A record is taken
 * when its call runs; one whose call never runs (a denied approval, a step
 * aborted between parsing and running) stays, and past this many a hook
 * declines to repair, so a long run cannot grow the records without end.
 */
export const MAX_PENDING_REPAIRS = 1_000;

/**
 * The repaired calls of the bridged Tools of one framework adapter, each
 * Tool's records in a map its own `execute` holds.
 *
 * @example
 * const repairs = new PendingRepairs<string>();
 * const mine = new Map<string, string>();
 * repairs.serve(bridgedTool, mine);
 * repairs.hold(bridgedTool, "call-1", "arguments are not valid JSON at position 8"); // true
 * takeRepair(mine, "call-1"); // "arguments are not valid JSON at position 8"
 */
export class PendingRepairs<T> {
  readonly #byTool = new WeakMap<object, Map<string, T>>();

  /** Makes `tool` one this serves, its records kept in `records`. */
  serve(tool: object, records: Map<string, T>): void {
    this.#byTool.set(tool, records);
  }

  /** Whether `tool` is a bridged Tool this serves. */
  serves(tool: unknown): boolean {
    return typeof tool === "object" && tool !== null && this.#byTool.has(tool);
  }

  /**
   * Keeps `outcome` for the call `id` of `tool`; false (nothing kept) for a
   * tool this does not serve, a blank id, or a tool already holding
   * {@link MAX_PENDING_REPAIRS} records and none for this id.
   */
  hold(tool: unknown, id: string, outcome: T): boolean {
    if (typeof tool !== "object" || tool === null || id.trim() === "") return false;
    const records = this.#byTool.get(tool);
    if (records === undefined) return false;
    if (!records.has(id) && records.size >= MAX_PENDING_REPAIRS) return false;
    records.set(id, outcome);
    return true;
  }
}

/**
 * Takes the record of call `id` out of a bridged Tool's `records`: a record
 * answers one call only. Undefined when there is none (an ordinary call).
 *
 * @example
 * const outcome = takeRepair(records, toolCallId);
 */
export function takeRepair<T>(records: Map<string, T>, id: unknown): T | undefined {
  if (typeof id !== "string") return undefined;
  const outcome = records.get(id);
  if (outcome !== undefined) records.delete(id);
  return outcome;
}
