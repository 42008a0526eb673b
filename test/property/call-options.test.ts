import { expect, test } from "vitest";
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

test(
  "refuses arguments before validation exactly when their compact JSON exceeds maxArgumentCharacters, lone surrogates included",
  async () => {
    expect(await checkProperty("argument-budget-matches-compact-json")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

test(
  "answers arguments that reuse objects with a result or INVALID_TOOL_CALL by their depth where each object appears, never a RangeError",
  async () => {
    expect(
      await checkProperty("shared-arguments-are-depth-checked-where-they-appear"),
    ).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
