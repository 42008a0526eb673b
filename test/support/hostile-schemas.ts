/**
 * Schemas a hostile MCP server might list, shared by the suites that attack
 * fromMcpClient's checks and the bounded validator.
 */

/**
 * An object schema whose `x` is checked by a chain of definitions in which
 * `d0` applies `d1` twice, `d1` applies `d2` twice, and so on: checking
 * `{ x: 1 }` applies the last definition 2^levels times, from a schema of a
 * few kilobytes. With `combinator` `"anyOf"` and a `last` definition the
 * value fails, every branch fails and each is tried in turn.
 *
 * @example
 * doubling(60); // 2^60 applications for { x: 1 }
 * doubling(30, "anyOf", { type: "string" }); // 2^30 failing tries for { x: 1 }
 */
export function doubling(
  levels: number,
  combinator: "allOf" | "anyOf" = "allOf",
  last: object = { type: "number" },
): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let level = 0; level < levels; level += 1) {
    const next = { $ref: `#/$defs/d${level + 1}` };
    $defs[`d${level}`] = { [combinator]: [next, next] };
  }
  $defs[`d${levels}`] = last;
  return { $defs, type: "object", properties: { x: { $ref: "#/$defs/d0" } } };
}
