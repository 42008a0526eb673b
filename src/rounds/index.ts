/**
 * Tool rounds: `executeToolCalls` runs one model turn's Tool calls through the
 * Tool boundary with ordering, bounded concurrency, events, deadlines,
 * approval and a round-wide character budget.
 */

export { executeToolCalls } from "./execute-tool-calls.ts";
export { countCodePoints, RoundBudget } from "./round-budget.ts";
export type {
  ToolFinishedEvent,
  ToolRoundEvent,
  ToolRoundEventErrorHandler,
  ToolRoundEventListener,
  ToolStartedEvent,
} from "./round-events.ts";
export { ROUND_LISTENER_WARNING, reportListenerErrorAsWarning } from "./round-events.ts";
export type { ToolRoundOptions } from "./round-options.ts";
