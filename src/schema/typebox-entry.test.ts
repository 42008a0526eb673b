/**
 * The `toolbound/schema/typebox` entry as a whole: its pinned runtime export names.
 */
import { expect, test } from "vitest";
import * as entry from "./typebox.ts";

const ENTRY_EXPORTS = ["fromTypeBox"];

test("toolbound/schema/typebox exports exactly the pinned runtime names", () => {
  expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
  expect(Object.keys(entry).sort()).toEqual([...ENTRY_EXPORTS].sort());
});
