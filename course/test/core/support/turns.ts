/**
 * Waiting one turn of the event loop, and how a pending call ends within one:
 * the cancellation tests ask whether an abort reached a waiting call at once.
 */

/** Resolves after the current macrotask (a timer of 0 ms). */
export const nextTurn = (): Promise<unknown> => new Promise((wake) => setTimeout(wake, 0));

/** How `pending` ends within a turn: its rejection reason, "resolved", or "still waiting". */
export function outcomeWithinTurn(pending: Promise<unknown>): Promise<unknown> {
  return Promise.race([
    pending.then(
      () => "resolved",
      (error: unknown) => error,
    ),
    nextTurn().then(() => "still waiting"),
  ]);
}

/**
 * After a turn (so the call is waiting on its Tool), aborts `controller` with
 * a fresh reason and answers it with how `pending` ended within the next turn.
 */
export async function abortAndWatch(
  controller: AbortController,
  pending: Promise<unknown>,
): Promise<{ readonly reason: Error; readonly outcome: unknown }> {
  await nextTurn();
  const reason = new Error("stop");
  controller.abort(reason);
  return { reason, outcome: await outcomeWithinTurn(pending) };
}
