import { expect, test } from "vitest";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "readToolCalls never throws on a well-formed response, and a call reaches execute only when its argument text was valid JSON within the limits",
  async () => {
    expect(await checkProperty("argument-text-only-runs-when-valid")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
