/**
 * Reading the totals of a callgrind output file: the `events:` line names the
 * counted events, the `summary:` (or `totals:`) line gives their counts for
 * the whole run.
 */

/** The event counts of one callgrind run, by event name (`Ir`, `I1mr`, `Bcm`, …). */
export type EventTotals = ReadonlyMap<string, number>;

/**
 * Parses a callgrind output file's text into its event totals. Throws an
 * Error naming what is wrong when the text has no `events:` line or no
 * `summary:`/`totals:` line, counts more events than it names, or a count
 * is not a whole number.
 *
 * @example
 * callgrindTotals("events: Ir Dr\nsummary: 1200 300\n").get("Ir"); // 1200
 */
export function callgrindTotals(text: string): EventTotals {
  let names: string[] | undefined;
  let counts: string[] | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("events:")) names = line.slice(7).trim().split(/\s+/);
    else if (line.startsWith("summary:") || line.startsWith("totals:")) {
      counts = line
        .slice(line.indexOf(":") + 1)
        .trim()
        .split(/\s+/);
    }
  }
  if (names === undefined) throw new Error("the callgrind output has no events: line");
  if (counts === undefined) throw new Error("the callgrind output has no summary: or totals: line");
  if (counts.length > names.length) {
    throw new Error(
      `the callgrind output counts ${counts.length} events but names ${names.length}`,
    );
  }
  const totals = new Map<string, number>();
  for (const [index, name] of names.entries()) {
    // callgrind leaves trailing zero counts out of a line.
    const text = counts[index] ?? "0";
    if (!/^\d+$/.test(text)) throw new Error(`the callgrind output counts ${name} as "${text}"`);
    totals.set(name, Number(text));
  }
  return totals;
}

/**
 * What one call costs, from two runs that differ only in how many calls they
 * make: the difference of their totals over the difference of their calls,
 * so start-up and loading cancel out.
 *
 * @example
 * perCall(new Map([["Ir", 1_000]]), new Map([["Ir", 6_000]]), 100); // Map { "Ir" => 50 }
 */
export function perCall(fewer: EventTotals, more: EventTotals, extraCalls: number): EventTotals {
  const result = new Map<string, number>();
  for (const [name, count] of more) result.set(name, (count - (fewer.get(name) ?? 0)) / extraCalls);
  return result;
}
