/**
 * What `toolbound/restate` takes from the Restate SDK (`@restatedev/restate-sdk`
 * 1.x, an optional peer): the handler context type, the deterministic promise
 * combinators, and the terminal and cancellation errors. Only this entry loads
 * the SDK; nothing else in the package imports it.
 */

import {
  CancelledError,
  type Context,
  RestatePromise,
  TerminalError,
} from "@restatedev/restate-sdk";

export { CancelledError, RestatePromise, TerminalError };

/**
 * The Restate handler context a durable call runs in: a service's `Context`,
 * or a virtual object's or workflow's, which extend it.
 *
 * @example
 * const agent = restate.service({ name: "agent", handlers: { run: async (ctx: DurableContext, turn: Turn) => durableToolCalls(ctx, registry, turn.toolCalls) } });
 */
export type DurableContext = Context;
