/**
 * The `toolbound/schema` entry as a whole: its pinned runtime export names.
 */
import { expect, test } from "vitest";
import * as entry from "./index.ts";

const ENTRY_EXPORTS = [
  "PROVIDER_NAME_RULES",
  "SCHEMA_MAX_ISSUE_CHARACTERS",
  "SCHEMA_MAX_REPORTED_ISSUES",
  "SchemaToolError",
  "assertToolName",
  "dropNullOptionals",
  "dropsStrictNulls",
  "formatIssuePath",
  "formatIssues",
  "schemaTool",
  "toGeminiSchema",
  "toOpenAIStrictSchema",
  "toProviderTools",
];

test("toolbound/schema exports exactly the pinned runtime names", () => {
  expect(ENTRY_EXPORTS.length).toBeGreaterThan(0);
  expect(Object.keys(entry).sort()).toEqual([...ENTRY_EXPORTS].sort());
});
