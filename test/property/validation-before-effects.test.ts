import { expect, test } from "vitest";
import { MALFORMED_CALLS, REFUSALS } from "./properties/boundary-properties.ts";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "never executes a Tool whose validator refuses, throws, answers asynchronously or returns a malformed decision",
  async () => {
    expect(REFUSALS.length).toBeGreaterThan(0);
    expect(await checkProperty("refused-arguments-never-execute")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

test(
  "rejects malformed, Proxy and cyclic calls as INVALID_TOOL_CALL before the Tool runs, running no toJSON and no trap in hostile arguments but at most one getPrototypeOf trap of a Proxy prototype",
  async () => {
    expect(MALFORMED_CALLS.length).toBeGreaterThan(0);
    expect(await checkProperty("malformed-calls-never-reach-the-tool")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
