/**
 * The `toolbound/pi` entry as a whole: its pinned runtime export names.
 */
import { expect, test } from "vitest";
import * as entry from "./index.ts";

const ENTRY_EXPORTS = [
  "PI_ARGUMENT_ERRORS_SHOWN",
  "PI_CONTENT_MAX_BLOCKS",
  "PI_EMPTY_OBJECT_SCHEMA",
  "PI_TEXT_MAX_UNITS",
  "PiToolResultError",
  "compileTypeBoxChecker",
  "fromPiTool",
  "piResultOutput",
  "piResultText",
  "toPiTools",
];

test("toolbound/pi exports exactly the pinned runtime names", () => {
  expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
  expect(Object.keys(entry).sort()).toEqual([...ENTRY_EXPORTS].sort());
});
