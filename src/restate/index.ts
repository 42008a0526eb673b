/**
 * The `./restate` entry: durable Tool calls on Restate. `durableToolCall` and
 * `durableToolCalls` run the Tool boundary as steps of a Restate handler, so
 * a crash mid-call loses nothing and repeats no effect the Tool can see;
 * `toolIdempotencyKey` gives a Tool the key for effects outside the engine.
 * Importing this entry loads the Restate SDK (`@restatedev/restate-sdk`, an
 * optional peer); no other entry does.
 */

export type {
  DurableJournalOptions,
  DurableToolCallOptions,
  DurableToolRoundOptions,
} from "./durable-tool-calls.ts";
export { durableToolCall, durableToolCalls } from "./durable-tool-calls.ts";
export { isNonRecoverableToolFailure, NON_RECOVERABLE_TOOL_ERROR } from "./fatal-errors.ts";
export { durableIdempotencyKey, toolIdempotencyKey } from "./idempotency-key.ts";
export { DURABLE_MAX_JOURNAL_BYTES } from "./journal-budget.ts";
export type { JournaledResult } from "./journal-entry.ts";
export type { DurableContext } from "./restate-sdk.ts";
