/**
 * OpenTelemetry for the boundary (`toolbound/otel`): `instrumentRegistry`
 * traces every call made through a registry. It loads `@opentelemetry/api`,
 * an optional peer dependency that only this entry needs; spans and metrics
 * go to the providers an OpenTelemetry SDK registers (or that the options name).
 */

export {
  EXECUTE_TOOL_DURATION,
  MAX_MODEL_TEXT_CHARACTERS,
  MAX_ROUND_CALL_IDS,
  ROUND_SPAN_NAME,
  TOOLBOUND_ATTRIBUTES,
} from "./attribute-names.ts";
export { CAPTURE_TRUNCATION_MARKER } from "./bounded-text.ts";
export type { CapturedContentInfo, ContentRedactor } from "./content-capture.ts";
export { REDACTION_FAILED } from "./content-capture.ts";
export type { InstrumentOptions } from "./instrument-options.ts";
export { CAPTURE_CHARACTERS_RANGE, DEFAULT_MAX_CAPTURE_CHARACTERS } from "./instrument-options.ts";
export { instrumentRegistry } from "./instrument-registry.ts";
