/**
 * A stand-in for the network, for the documentation's examples that call a
 * provider through its official SDK: a `fetch` answering each request with
 * the next scripted reply, as JSON. The SDK client still builds every request
 * and parses every reply itself.
 */

/**
 * A `fetch` that answers with `replies` in turn; the requests' parsed bodies
 * are recorded in `bodies`.
 *
 * @example
 * const openai = new OpenAI({ apiKey: "test", fetch: scriptedFetch([completion]).fetch });
 */
export function scriptedFetch(replies: readonly unknown[]) {
  const bodies: unknown[] = [];
  const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    const reply = replies[bodies.length - 1];
    if (reply === undefined) throw new Error("the example sent more requests than were scripted");
    return new Response(JSON.stringify(reply), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { fetch, bodies };
}

/**
 * A `fetch` for a client that takes the global one: each request is answered
 * with the reply of the first route its URL's path ends with.
 *
 * @example
 * globalThis.fetch = routedFetch({ "/chat/completions": completion });
 */
export function routedFetch(routes: Readonly<Record<string, unknown>>): typeof fetch {
  return async (url) => {
    const path = new URL(url instanceof Request ? url.url : String(url)).pathname;
    const route = Object.keys(routes).find((suffix) => path.endsWith(suffix));
    if (route === undefined) throw new Error(`no scripted reply for ${path}`);
    return new Response(JSON.stringify(routes[route]), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  };
}
