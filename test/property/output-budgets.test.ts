import { expect, test } from "vitest";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "for any budget and strategy, content stays within maxCharacters with its marker once and where the strategy says, and no getter, toJSON or trap of the output runs",
  async () => {
    expect(await checkProperty("budgeted-serializer-keeps-its-promises")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

test(
  "through a whole call with any budget, the spill hook runs exactly when the content was cut, its reference is named, and the output's code never runs",
  async () => {
    expect(await checkProperty("budgeted-call-spills-only-what-was-cut")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
