import { expect, test } from "vitest";
import { THROW_SITES, THROWN_KINDS } from "./properties/boundary-properties.ts";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "lets only a registered NonRecoverableToolError reject the call, from any site; look-alikes and Proxies stay recoverable",
  async () => {
    expect(THROW_SITES.length).toBeGreaterThan(0);
    expect(THROWN_KINDS.length).toBeGreaterThan(0);
    expect(await checkProperty("only-registered-fatal-errors-cross")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

test(
  "turns any hostile Tool output into one bounded, linked result, running no toJSON and no trap but the then lookup of adoption and at most one getPrototypeOf trap of a Proxy prototype",
  async () => {
    expect(await checkProperty("hostile-output-becomes-one-bounded-result")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
