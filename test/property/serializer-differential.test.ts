import { expect, test } from "vitest";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "writes plain JSON within every budget as sorted canonical JSON that JSON.parse reads back, and beyond a budget as a marked prefix of it",
  async () => {
    expect(await checkProperty("serializer-matches-engine-json")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
