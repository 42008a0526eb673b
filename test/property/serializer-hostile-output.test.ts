import { expect, test } from "vitest";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "serializes any hostile output within the cap with one trailing marker, running no getter, toJSON or trap of a Proxy value, and of a Proxy prototype only its getPrototypeOf trap, at most once",
  async () => {
    expect(await checkProperty("serializer-contains-hostile-output")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
