import { expect, test } from "vitest";
import { findProperty } from "./properties/catalogue.ts";
import { APPROVALS } from "./properties/options-properties.ts";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "runs a Tool only after its approval gate answers true, and refuses, fails or cancels before any effect otherwise",
  async () => {
    expect(APPROVALS.length).toBeGreaterThan(0);
    expect(await checkProperty("approval-gate-decides-before-effects")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

test(
  "turns a Tool that overstays its deadline into TOOL_TIMEOUT, aborting only the Tool's own signal",
  async () => {
    expect(await checkProperty("deadline-stops-only-overstaying-tools")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

// KNOWN BUG, reported to the lead engineer: the argument budget counts a lone
// surrogate as one character, while compact JSON writes it as a six-character
// escape, so arguments several times over the budget reach the validator.
// With this file's fixed seed the property fails at once and shrinks to
//   arguments {"":{"":{"\ud800":null}}}, maxArgumentCharacters 23
// (25 characters of compact JSON, validated anyway). Remove `.fails` once fixed.
test.fails(
  "refuses arguments before validation exactly when their compact JSON exceeds maxArgumentCharacters, lone surrogates included",
  async () => {
    expect(findProperty("argument-budget-matches-compact-json").knownBug).toBeDefined();
    await checkProperty("argument-budget-matches-compact-json");
  },
  PROPERTY_TIMEOUT_MS,
);
