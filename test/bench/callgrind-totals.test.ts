/**
 * Reading callgrind's totals for `npm run bench:instructions`: the event
 * names and counts of a real output file's header and summary, trailing
 * zeros left out, and a clear error for a file that lacks either line.
 */
import { describe, expect, test } from "vitest";
import { callgrindTotals, perCall } from "../../bench/instructions/callgrind-totals.ts";

const OUTPUT = [
  "# callgrind format",
  "version: 1",
  "creator: callgrind-3.19.0",
  "events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim",
  "fn=(1) main",
  "0 12 3",
  "summary: 2844002517 807932445 425001768 95265485 25588034 7396344 70867 56871 231295 490906887 31989682",
  "totals: 2844002517 807932445 425001768 95265485 25588034 7396344 70867 56871 231295 490906887 31989682",
].join("\n");

describe("callgrind totals", () => {
  test("reads each event's count by its name, and a left-out trailing count as 0", () => {
    const totals = callgrindTotals(OUTPUT);
    expect(totals.get("Ir")).toBe(2_844_002_517);
    expect(totals.get("I1mr")).toBe(95_265_485);
    expect(totals.get("Bcm")).toBe(31_989_682);
    expect(totals.get("Bi")).toBe(0);
    expect(totals.get("Bim")).toBe(0);
    expect(totals.size).toBe(13);
  });

  test("takes totals: when there is no summary: line", () => {
    expect(callgrindTotals("events: Ir\ntotals: 42\n").get("Ir")).toBe(42);
  });

  test.each([
    ["no events line", "summary: 1 2\n", "no events: line"],
    ["no summary or totals line", "events: Ir Dr\nfn=main\n", "no summary: or totals: line"],
    ["more counts than names", "events: Ir\nsummary: 1 2\n", "counts 2 events but names 1"],
    ["a count that is not a whole number", "events: Ir Dr\nsummary: 1 x\n", 'counts Dr as "x"'],
  ])("refuses a file with %s", (_, text, message) => {
    expect(() => callgrindTotals(text)).toThrow(message);
  });

  test("one call is the difference of two runs over the extra calls", () => {
    const fewer = callgrindTotals("events: Ir I1mr\nsummary: 1000000 500\n");
    const more = callgrindTotals("events: Ir I1mr\nsummary: 6000000 1500\n");
    const one = perCall(fewer, more, 100);
    expect(one.get("Ir")).toBe(50_000);
    expect(one.get("I1mr")).toBe(10);
  });
});
