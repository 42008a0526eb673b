import { expect, test } from "vitest";
import { ABORT_POINTS } from "./properties/cancellation-properties.ts";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "rejects with the exact abort reason and no result at every cancellation point, leaving no abort listener",
  async () => {
    expect(ABORT_POINTS.length).toBeGreaterThan(0);
    expect(await checkProperty("cancellation-wins-everywhere")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
