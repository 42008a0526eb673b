/**
 * A pattern run as parts: each part's DFA cache is dropped before the next
 * part runs, and the check's time is asked between parts, so a match of many
 * parts holds neither every part's cache nor the event loop for all of them.
 * Programs and time are stand-ins here, so every count is exact.
 */
import { expect, test } from "vitest";
import { compiledPattern, type Part, type Re2Program } from "./compiled-pattern.ts";
import { MatchClock, PatternWorkExceeded } from "./pattern-budgets.ts";

/** A program that answers `verdict`, writing what happens to it into `events`. */
function program(name: string, verdict: boolean, events: string[]): Re2Program {
  // A DFA that has used more than any part may keep (4 KB).
  const lazyDFA = {
    maxMem: 8_000_000,
    memBudget: 0,
    numClasses: 1,
    clearCache: () => {
      events.push(`clear ${name}`);
    },
  };
  return {
    test: () => {
      events.push(`test ${name}`);
      return verdict;
    },
    programSize: () => 10,
    re2Input: { lazyDFA, dfa: lazyDFA },
  };
}

function parts(verdicts: readonly boolean[], events: string[]): Part[] {
  return verdicts.map((verdict, index) => ({
    program: program(String(index), verdict, events),
    matches: true,
    kept: 4_096,
  }));
}

/** A clock whose every reading is `step` ms after the one before. */
function steppingClock(step: number): MatchClock {
  let time = 0;
  return new MatchClock(() => {
    time += step;
    return time;
  });
}

test("each part's DFA cache is dropped before the next part runs", () => {
  const events: string[] = [];
  const compiled = compiledPattern(parts([true, true, true], events), "k", steppingClock(0), 30);
  expect(compiled.test("text")).toBe(true);
  expect(events).toEqual(["test 0", "clear 0", "test 1", "clear 1", "test 2", "clear 2"]);
});

test("attack: a match of many parts stops at the first part after the check's time", () => {
  // Each part takes 20 ms: the third ends past 50, so the fourth is refused before it runs.
  const events: string[] = [];
  const clock = steppingClock(20);
  const compiled = compiledPattern(parts([true, true, true, true, true], events), "k", clock, 50);
  expect(() => clock.scoped(() => compiled.test("text"))).toThrow(PatternWorkExceeded);
  expect(events.filter((event) => event.startsWith("test"))).toEqual([
    "test 0",
    "test 1",
    "test 2",
  ]);
  // The caches of the parts that ran were dropped all the same.
  expect(events.filter((event) => event.startsWith("clear"))).toHaveLength(3);
});

test("a part that answers against what it must ends the match: the rest never run", () => {
  const events: string[] = [];
  const answered = parts([true, false, true], events);
  const compiled = compiledPattern(answered, "k", steppingClock(0), 30);
  expect(compiled.test("text")).toBe(false);
  expect(events.filter((event) => event.startsWith("test"))).toEqual(["test 0", "test 1"]);
  // A part that must not match: its match fails the text.
  const forbidden = [{ ...(answered[0] as Part), matches: false }];
  expect(compiledPattern(forbidden, "k", steppingClock(0), 10).test("text")).toBe(false);
});
