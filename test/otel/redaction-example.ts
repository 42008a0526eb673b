/**
 * The redaction example of `docs/observability.md` (its second `ts` block is
 * exactly the marked lines), as a function the doc's test runs; it records
 * to the globally registered providers, as the example does.
 */

import type { ToolRegistry } from "../../course/src/index.ts";
import { instrumentRegistry } from "../../src/otel/index.ts";

/** Instruments `registry` as the doc's redaction example does. */
export function redactedRegistry(registry: ToolRegistry): ToolRegistry {
  // doc:begin
  const traced = instrumentRegistry(registry, {
    captureContent: true,
    maxCaptureCharacters: 1_000,
    // A Tool may echo what it was given: its results are not recorded at all.
    redact: (content, { kind }) =>
      kind === "result"
        ? undefined
        : Object.hasOwn(content as object, "apiKey")
          ? { ...(content as object), apiKey: "[redacted]" }
          : content,
  });
  // doc:end
  return traced;
}
