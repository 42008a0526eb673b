/**
 * Reading the calls of a durable round, and the rule that makes idempotency
 * keys unique: the array is read as a round reads it (`snapshotCallList` in
 * `../rounds/round-calls.ts`), and a call id is refused when it appeared earlier in the round or in
 * an earlier durable call of the same handler run, all before any validator runs.
 */

import { type CourseToolCall, ToolContractError } from "../../course/src/index.ts";
import { setAdd, setHas, weakMapGet, weakMapSet } from "./restate-intrinsics.ts";
import type { DurableContext } from "./restate-sdk.ts";

function invalid(message: string): never {
  throw new ToolContractError("INVALID_TOOL_CALL", message);
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
