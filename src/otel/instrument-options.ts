/**
 * The options of `instrumentRegistry`, read once each and checked before the
 * registry is instrumented: a bad value is the host's mistake, a TypeError
 * naming the option, never a failure of a call later.
 */

import type { MeterProvider, TextMapPropagator, TracerProvider } from "@opentelemetry/api";
import { hasOwn, reflectGet } from "../../course/src/internal.ts";
import type { CaptureSettings, ContentRedactor } from "./content-capture.ts";

/**
 * Options of {@link instrumentRegistry}. Every field is optional.
 *
 * - `tracerProvider`, `meterProvider`: where spans and the duration
 *   histogram go. Default: the globally registered providers, looked up on
 *   every call (an SDK started later is used from then on).
 * - `propagator`: reads the W3C trace context a request carries (MCP
 *   `_meta`). Default: the globally registered propagator (the Node SDK
 *   registers W3C trace context and baggage).
 * - `captureContent`: record the call's arguments
 *   (`gen_ai.tool.call.arguments`) and the result's content
 *   (`gen_ai.tool.call.result`) on its span. Default `false`. Sensitive:
 *   they hold whatever the model sent and the Tool returned.
 * - `maxCaptureCharacters`: each captured attribute's budget in code points,
 *   marker included. Default 4,096; from 64 to 1,000,000.
 * - `redact`: runs on each captured value before it is bounded (see
 *   {@link ContentRedactor}). Default: none.
 *
 * @example
 * instrumentRegistry(registry, { captureContent: true, maxCaptureCharacters: 1_000, redact });
 */
export interface InstrumentOptions {
  readonly tracerProvider?: TracerProvider;
  readonly meterProvider?: MeterProvider;
  readonly propagator?: TextMapPropagator;
  readonly captureContent?: boolean;
  readonly maxCaptureCharacters?: number;
  readonly redact?: ContentRedactor;
}

/**
 * The default budget of each captured attribute, in code points.
 *
 * @example
 * instrumentRegistry(registry, { captureContent: true }); // each attribute at most DEFAULT_MAX_CAPTURE_CHARACTERS
 */
export const DEFAULT_MAX_CAPTURE_CHARACTERS = 4096;

/**
 * The smallest and largest `maxCaptureCharacters` accepted.
 *
 * @example
 * const [lowest, highest] = CAPTURE_CHARACTERS_RANGE; // 64, 1000000
 */
export const CAPTURE_CHARACTERS_RANGE: readonly [number, number] = Object.freeze([
  64, 1_000_000,
] as const);

/**
 * The options after one read of each field and validation.
 *
 * @example
 * const settings = readInstrumentOptions({ captureContent: true }); // settings.capture.maxCharacters === 4096
 */
export interface InstrumentSettings {
  readonly tracerProvider: TracerProvider | undefined;
  readonly meterProvider: MeterProvider | undefined;
  readonly propagator: TextMapPropagator | undefined;
  readonly capture: CaptureSettings | undefined;
}

const FIELDS = [
  "tracerProvider",
  "meterProvider",
  "propagator",
  "captureContent",
  "maxCaptureCharacters",
  "redact",
] as const;

function refuse(message: string): never {
  throw new TypeError(`instrumentRegistry options: ${message}`);
}

function objectWith<T>(value: unknown, name: string, methods: readonly string[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) return refuse(`${name} must be an object`);
  for (const method of methods) {
    if (typeof (value as Record<string, unknown>)[method] !== "function") {
      return refuse(`${name}.${method} must be a function`);
    }
  }
  return value as T;
}

/**
 * Reads `options` (each field once, own fields only) and checks every value.
 *
 * @example
 * readInstrumentOptions({ maxCaptureCharacters: 10 }); // throws TypeError: … from 64 to 1000000
 */
export function readInstrumentOptions(options: unknown): InstrumentSettings {
  if (options === undefined) {
    return {
      tracerProvider: undefined,
      meterProvider: undefined,
      propagator: undefined,
      capture: undefined,
    };
  }
  if (typeof options !== "object" || options === null) refuse("must be an object");
  const read: Record<string, unknown> = {};
  for (const field of FIELDS) {
    try {
      // The captured built-ins: a Tool that patched Object.hasOwn changes nothing here.
      read[field] = hasOwn(options, field) ? reflectGet(options, field) : undefined;
    } catch (thrown) {
      throw new TypeError(`instrumentRegistry options: ${field} threw when read`, {
        cause: thrown,
      });
    }
  }
  const tracerProvider = objectWith<TracerProvider>(read.tracerProvider, "tracerProvider", [
    "getTracer",
  ]);
  const meterProvider = objectWith<MeterProvider>(read.meterProvider, "meterProvider", [
    "getMeter",
  ]);
  const propagator = objectWith<TextMapPropagator>(read.propagator, "propagator", [
    "extract",
    "inject",
  ]);
  const captureContent = read.captureContent;
  if (captureContent !== undefined && typeof captureContent !== "boolean") {
    refuse("captureContent must be true or false");
  }
  const [min, max] = CAPTURE_CHARACTERS_RANGE;
  const maxCharacters = read.maxCaptureCharacters ?? DEFAULT_MAX_CAPTURE_CHARACTERS;
  if (
    typeof maxCharacters !== "number" ||
    !Number.isSafeInteger(maxCharacters) ||
    maxCharacters < min ||
    maxCharacters > max
  ) {
    refuse(`maxCaptureCharacters must be a whole number from ${min} to ${max}`);
  }
  const redact = read.redact;
  if (redact !== undefined && typeof redact !== "function") refuse("redact must be a function");
  const capture: CaptureSettings | undefined =
    captureContent === true
      ? Object.freeze({ maxCharacters, redact: redact as ContentRedactor | undefined })
      : undefined;
  return { tracerProvider, meterProvider, propagator, capture };
}
