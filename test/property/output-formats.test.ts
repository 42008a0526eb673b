import { expect, test } from "vitest";
import { checkProperty, PROPERTY_TIMEOUT_MS } from "./support/check.ts";

test(
  'under format "text", any string is its own well-formed text, cut where the strategy says, never over maxCharacters',
  async () => {
    expect(await checkProperty("text-format-writes-strings-as-themselves")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

test(
  'under format "text", plain JSON is standard JSON text that JSON.parse reads back, and a cut is its prefix',
  async () => {
    expect(await checkProperty("text-format-structured-is-standard-json")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);

test(
  "for any parts and part budgets, toolContent's content and parts stay within them, with a line for each binary part",
  async () => {
    expect(await checkProperty("tool-content-stays-within-its-budgets")).toBeGreaterThan(0);
  },
  PROPERTY_TIMEOUT_MS,
);
