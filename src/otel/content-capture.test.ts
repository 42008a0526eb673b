/**
 * Opt-in content capture: off by default whatever else is set; when on, the
 * arguments and the result's content as span attributes, each through the
 * redaction hook first and then within its own budget; a hook that throws
 * records a fixed text, never the content; and the options are checked when
 * the registry is instrumented.
 */

import { afterAll, describe, expect, test, vi } from "vitest";
import { executeToolCall } from "../../course/src/index.ts";
import { createTelemetry } from "../../test/support/otel.ts";
import { outcomeTools, toolCall } from "../../test/support/otel-tools.ts";
import {
  CAPTURE_TRUNCATION_MARKER,
  type ContentRedactor,
  DEFAULT_MAX_CAPTURE_CHARACTERS,
  type InstrumentOptions,
  instrumentRegistry,
  REDACTION_FAILED,
} from "./index.ts";

const telemetry = createTelemetry();
afterAll(() => telemetry.shutdown());

const ARGUMENTS = "gen_ai.tool.call.arguments";
const RESULT = "gen_ai.tool.call.result";
const codePoints = (text: unknown): number => [...String(text)].length;

async function captured(options: InstrumentOptions, args: Record<string, unknown> = { q: "hi" }) {
  telemetry.reset();
  const registry = instrumentRegistry(outcomeTools(), { ...telemetry, ...options });
  const result = await executeToolCall(
    registry,
    toolCall("echo", args),
    new AbortController().signal,
  );
  const [span] = telemetry.spans();
  return { attributes: span?.attributes ?? {}, result };
}

describe("capture off", () => {
  test.each([
    ["no options", {}],
    [
      "a redaction hook and a budget but no captureContent",
      { redact: () => "x", maxCaptureCharacters: 100 },
    ],
    ["captureContent: false", { captureContent: false }],
  ])("with %s, no arguments or result are recorded", async (_label, options) => {
    const { attributes } = await captured(options);
    expect(attributes[ARGUMENTS]).toBeUndefined();
    expect(attributes[RESULT]).toBeUndefined();
    expect(attributes["gen_ai.tool.name"]).toBe("echo");
  });

  test("the redaction hook is never called", async () => {
    const redact = vi.fn();
    await captured({ redact });
    expect(redact).not.toHaveBeenCalled();
  });
});

describe("capture on", () => {
  test("records the arguments as JSON and the result's content", async () => {
    const { attributes, result } = await captured({ captureContent: true }, { b: 1, a: "x" });
    expect(attributes[ARGUMENTS]).toBe('{"a":"x","b":1}');
    expect(attributes[RESULT]).toBe(result.content);
  });

  test("each attribute stays within the default budget of 4,096 code points, marker included", async () => {
    const { attributes, result } = await captured(
      { captureContent: true },
      { text: "😀".repeat(10_000) },
    );
    expect(codePoints(attributes[ARGUMENTS])).toBe(DEFAULT_MAX_CAPTURE_CHARACTERS);
    expect(String(attributes[ARGUMENTS]).endsWith(CAPTURE_TRUNCATION_MARKER)).toBe(true);
    // The result's content was already cut to the course's 4,096: it fits the budget as it is.
    expect(attributes[RESULT]).toBe(result.content);
    expect(codePoints(attributes[RESULT])).toBe(DEFAULT_MAX_CAPTURE_CHARACTERS);
  });

  test.each([64, 65, 1000])("a budget of %i code points bounds each attribute", async (budget) => {
    const { attributes } = await captured(
      { captureContent: true, maxCaptureCharacters: budget },
      { text: "a😀".repeat(2000) },
    );
    expect(codePoints(attributes[ARGUMENTS])).toBe(budget);
    expect(codePoints(attributes[RESULT])).toBe(budget);
  });

  test("the redaction hook runs first, once per value, told what and whose", async () => {
    const redact = vi.fn<ContentRedactor>((content, info) =>
      info.kind === "arguments"
        ? { ...(content as object), apiKey: "[redacted]" }
        : (content as string).replaceAll("sk-live-123", "[redacted]"),
    );
    const { attributes } = await captured(
      { captureContent: true, redact },
      { apiKey: "sk-live-123", query: "weather" },
    );
    expect(attributes[ARGUMENTS]).toBe('{"apiKey":"[redacted]","query":"weather"}');
    expect(attributes[RESULT]).toBe('{"apiKey":"[redacted]","query":"weather"}');
    expect(redact.mock.calls.map(([, info]) => info)).toEqual([
      { kind: "arguments", toolName: "echo", toolCallId: "call-1" },
      { kind: "result", toolName: "echo", toolCallId: "call-1" },
    ]);
  });

  test("a redaction hook that throws records a fixed text, never the content; the result is unchanged", async () => {
    const plain = await executeToolCall(
      outcomeTools(),
      toolCall("echo", { secret: "s3cr3t" }),
      new AbortController().signal,
    );
    const { attributes, result } = await captured(
      {
        captureContent: true,
        redact: () => {
          throw new Error("redactor bug");
        },
      },
      { secret: "s3cr3t" },
    );
    expect(attributes[ARGUMENTS]).toBe(REDACTION_FAILED);
    expect(attributes[RESULT]).toBe(REDACTION_FAILED);
    expect(result).toEqual(plain);
  });

  test("a redaction hook answering undefined records nothing for that value", async () => {
    const { attributes } = await captured({
      captureContent: true,
      redact: (content, { kind }) => (kind === "arguments" ? undefined : content),
    });
    expect(attributes[ARGUMENTS]).toBeUndefined();
    expect(attributes[RESULT]).toBe('{"q":"hi"}');
  });

  test("a redaction hook answering a Proxy: refused without running any of its traps", async () => {
    const traps: string[] = [];
    const proxy = new Proxy(
      {},
      {
        get: (_target, key) => {
          traps.push(`get ${String(key)}`);
          return "leak";
        },
        ownKeys: () => {
          traps.push("ownKeys");
          return [];
        },
      },
    );
    const { attributes } = await captured({ captureContent: true, redact: () => proxy });
    expect(String(attributes[ARGUMENTS])).toMatch(/^\[not captured: .*Proxy/);
    expect(traps).toEqual([]);
  });
});

describe("the options", () => {
  test.each([
    ["captureContent", { captureContent: "yes" }, "captureContent must be true or false"],
    ["maxCaptureCharacters below the floor", { maxCaptureCharacters: 63 }, "from 64 to 1000000"],
    ["maxCaptureCharacters above the ceiling", { maxCaptureCharacters: 1_000_001 }, "from 64"],
    ["maxCaptureCharacters not whole", { maxCaptureCharacters: 100.5 }, "whole number"],
    ["redact", { redact: "mask" }, "redact must be a function"],
    ["tracerProvider", { tracerProvider: {} }, "tracerProvider.getTracer must be a function"],
    ["meterProvider", { meterProvider: 1 }, "meterProvider must be an object"],
    ["propagator", { propagator: { extract() {} } }, "propagator.inject must be a function"],
  ])("a bad %s is a TypeError naming it", (_label, options, message) => {
    expect(() => instrumentRegistry(outcomeTools(), options as InstrumentOptions)).toThrow(
      expect.objectContaining({ name: "TypeError", message: expect.stringContaining(message) }),
    );
  });

  test("each option is read once, and an inherited one is not read at all", () => {
    const reads: string[] = [];
    const options = Object.create({ captureContent: true });
    Object.defineProperty(options, "maxCaptureCharacters", {
      enumerable: true,
      get: () => {
        reads.push("maxCaptureCharacters");
        return 100;
      },
    });
    instrumentRegistry(outcomeTools(), options);
    expect(reads).toEqual(["maxCaptureCharacters"]);
  });

  test("a registry that is not a ToolRegistry is refused", () => {
    expect(() => instrumentRegistry({} as never)).toThrow(
      "instrumentRegistry needs a ToolRegistry",
    );
  });
});
