/**
 * The pattern clock of a check: the time its matches take and the pauses
 * between them, each pause counted up to 5 µs. Before, only the matches were
 * timed, and 200 `patternProperties` over 90,000 keys held the event loop for
 * 290 ms against the 50 ms budget. A fake time source makes each count exact.
 */
import { describe, expect, test } from "vitest";
import { MAX_CHECK_MILLISECONDS, MatchClock, PatternWorkExceeded } from "./pattern-budgets.ts";

/** A clock on a time source the test moves by hand, in ms. */
function fakeClock() {
  const time = { now: 0 };
  const clock = new MatchClock(() => time.now);
  /** One match of `took` ms. */
  const match = (took: number) =>
    clock.timed(() => {
      time.now += took;
      return true;
    });
  return { clock, time, match };
}

describe("what a check's clock counts", () => {
  test("a match, and the pause since the previous match up to 5 µs", () => {
    const { clock, time, match } = fakeClock();
    clock.scoped(() => {
      match(0.001);
      time.now += 0.003; // the loop between two matches: counted whole
      match(0.001);
      time.now += 1; // the check's other work: counted up to 5 µs
      match(0.001);
      expect(clock.spent).toBeCloseTo(0.001 + 0.003 + 0.001 + 0.005 + 0.001, 9);
    });
  });

  test("a check's first match counts no pause before it, whatever ran before the check", () => {
    const { clock, time, match } = fakeClock();
    match(0.001);
    time.now += 0.004;
    clock.scoped(() => {
      match(0.002);
      expect(clock.spent).toBeCloseTo(0.002, 9);
    });
  });

  test("a nested check's time counts for the one around it, which goes on from its last match", () => {
    const { clock, time, match } = fakeClock();
    clock.scoped(() => {
      match(0.001);
      clock.scoped(() => {
        time.now += 0.002; // before the inner check's first match: not the inner's
        match(0.001);
      });
      time.now += 0.003;
      match(0.001);
      expect(clock.spent).toBeCloseTo(0.001 + 0.001 + 0.003 + 0.001, 9);
    });
  });

  test("a nested check without a match leaves the enclosing check's pause counted", () => {
    const { clock, time, match } = fakeClock();
    clock.scoped(() => {
      match(0.001);
      clock.scoped(() => {
        time.now += 0.001;
      });
      time.now += 0.002;
      match(0.001);
      expect(clock.spent).toBeCloseTo(0.001 + 0.003 + 0.001, 9);
    });
  });

  test("attack: cheap matches 3 µs apart stop once matches and pauses reach the budget", () => {
    // What `patternProperties` over many keys does: each key is tried against each pattern.
    const { clock, time, match } = fakeClock();
    let matches = 0;
    expect(() =>
      clock.scoped(() => {
        for (;;) {
          clock.before(1);
          match(0.0002);
          matches += 1;
          time.now += 0.003;
        }
      }),
    ).toThrow(PatternWorkExceeded);
    // 3.2 µs a match: 15,625 fit the budget. Timing the matches alone let 250,000 run.
    const each = 0.0002 + 0.003;
    expect(matches).toBeGreaterThanOrEqual(Math.floor(MAX_CHECK_MILLISECONDS / each) - 1);
    expect(matches).toBeLessThanOrEqual(Math.ceil(MAX_CHECK_MILLISECONDS / each) + 1);
  });
});
