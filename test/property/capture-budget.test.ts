import { expect, test } from "vitest";
import { captureCounts } from "./properties/capture-properties.ts";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "for any call, capture budget and redaction hook, each captured span attribute holds at most the budget, and nothing is captured when capture is off",
  async () => {
    expect(await checkProperty("captured-content-stays-within-its-budget")).toBeGreaterThan(0);
    // Not vacuous: content was captured in some cases, and not in others.
    expect(captureCounts.captured).toBeGreaterThan(0);
    expect(captureCounts.captured).toBeLessThan(captureCounts.cases);
  },
  PROPERTY_TIMEOUT_MS,
);
