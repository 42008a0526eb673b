/**
 * The `toolbound/rounds` entry as a whole: its pinned runtime export names.
 */
import { expect, test } from "vitest";
import * as entry from "./index.ts";

const ENTRY_EXPORTS = [
  "ROUND_LISTENER_WARNING",
  "RoundBudget",
  "countCodePoints",
  "executeToolCalls",
  "reportListenerErrorAsWarning",
];

test("toolbound/rounds exports exactly the pinned runtime names", () => {
  expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
  expect(Object.keys(entry).sort()).toEqual([...ENTRY_EXPORTS].sort());
});
