/**
 * The `./mcp` entry as a whole: its pinned runtime export names.
 */
import { expect, test } from "vitest";
import * as entry from "./index.ts";

const ENTRY_EXPORTS = [
  "MAX_ARGUMENT_ERROR_CHARACTERS",
  "MAX_FAILURE_CHARACTERS",
  "MAX_NOTICE_CHARACTERS",
  "MAX_PATTERN_CHARACTERS",
  "MAX_PATTERN_INSTRUCTIONS",
  "MAX_PATTERN_WORK",
  "MAX_SCHEMA_COMPILE_COST",
  "MAX_LISTING_COMPILE_COST",
  "MAX_CHECK_MILLISECONDS",
  "MAX_CHECK_STEPS",
  "MAX_CHECKED_DEPTH",
  "MAX_LEADING_LOOKAHEADS",
  "PatternWorkExceeded",
  "boundedJsonSchemaValidator",
  "callRegistryTool",
  "createMcpToolServer",
  "fromMcpClient",
  "linearTimePatterns",
  "partUri",
  "reportProgress",
  "sendLogMessage",
  "serveToolRegistry",
  "serveToolRegistryHttp",
  "toMcpResult",
];

test("toolbound/mcp exports exactly the pinned runtime names", () => {
  expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
  expect(Object.keys(entry).sort()).toEqual([...ENTRY_EXPORTS].sort());
});
