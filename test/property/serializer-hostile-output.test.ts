import { expect, test } from "vitest";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  "serializes any hostile output without throwing, running a getter, toJSON or Proxy trap, within the cap and with one trailing marker",
  async () => {
    expect(await checkProperty("serializer-contains-hostile-output")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
