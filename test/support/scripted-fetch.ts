/**
 * Test support for running the official provider SDKs without a network: a
 * `fetch` that answers with scripted replies and records every request body
 * the SDK serialized, and helpers to read those bodies.
 */

/** A `fetch` that answers with `replies` in turn and records every request body it was sent. */
export function scriptedFetch(replies: readonly unknown[]) {
  const bodies: Record<string, unknown>[] = [];
  let turn = 0;
  const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const reply = replies[turn];
    turn += 1;
    if (reply === undefined) throw new Error("the script has no reply for this request");
    return new Response(JSON.stringify(reply), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch, bodies };
}

/** A list field of a recorded request body. */
export function sent(body: Record<string, unknown> | undefined, field: string): unknown[] {
  const value = body?.[field];
  if (!Array.isArray(value)) throw new Error(`the request had no ${field} list`);
  return value;
}

/** Runs steps until the model answers (at most four). */
export async function converse(
  step: () => Promise<string | undefined>,
): Promise<string | undefined> {
  let answer: string | undefined;
  for (let turn = 0; turn < 4 && answer === undefined; turn += 1) answer = await step();
  return answer;
}
