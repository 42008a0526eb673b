/**
 * Test support for the schema adapters (not part of the published surface).
 */
import { expect } from "vitest";
import { SchemaToolError } from "../../src/schema/schema-error.ts";

/** Runs `run`, which must throw a SchemaToolError, and returns it. */
export function thrownBy(run: () => unknown): SchemaToolError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SchemaToolError);
    return error as SchemaToolError;
  }
  throw new Error("expected a SchemaToolError");
}
