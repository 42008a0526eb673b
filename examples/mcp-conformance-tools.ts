/**
 * The Tools the official MCP conformance suite's server scenarios call
 * (`@modelcontextprotocol/conformance`), as an ordinary tools module:
 * `toolbound mcp --http 127.0.0.1:0 ./dist/examples/mcp-conformance-tools.js`
 * serves them, and `npm run test:mcp-conformance` runs the suite against it.
 */

import type { CourseToolValidation } from "../course/src/index.ts";
import { defineTool, toolContent } from "../course/src/index.ts";
import { reportProgress, sendLogMessage } from "../src/mcp/index.ts";
import { onePixelPng, silentWav } from "./tiny-media.ts";

const NO_ARGUMENTS = { type: "object", properties: {}, additionalProperties: false } as const;

/** Accepts an empty arguments object only: these Tools take none. */
function noArguments(input: unknown): CourseToolValidation<Record<string, never>> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, error: "arguments must be an object" };
  }
  const keys = Object.keys(input);
  return keys.length === 0
    ? { ok: true, value: {} }
    : { ok: false, error: `this Tool takes no arguments (got ${keys.length})` };
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** `test_simple_text` (scenario tools-call-simple-text): a fixed sentence. */
export const simpleText = defineTool({
  name: "test_simple_text",
  description: "Return a fixed sentence of text.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async () => "This is a simple text response for testing.",
});

/** `test_image_content` (scenario tools-call-image): a 1x1 red PNG. */
export const imageContent = defineTool({
  name: "test_image_content",
  description: "Return a one-pixel PNG image.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async () => toolContent([{ type: "image", data: onePixelPng(), mimeType: "image/png" }]),
});

/** `test_audio_content` (scenario tools-call-audio): a tenth of a second of silence as WAV. */
export const audioContent = defineTool({
  name: "test_audio_content",
  description: "Return a short silent WAV clip.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async () => toolContent([{ type: "audio", data: silentWav(), mimeType: "audio/wav" }]),
});

/** `test_embedded_resource` (scenario tools-call-embedded-resource): a plain-text file part. */
export const embeddedResource = defineTool({
  name: "test_embedded_resource",
  description: "Return a plain-text file as an embedded resource.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async () =>
    toolContent([
      {
        type: "file",
        data: new TextEncoder().encode("This is an embedded resource content."),
        mimeType: "text/plain",
        name: "embedded-resource.txt",
      },
    ]),
});

/** `test_multiple_content_types` (scenario tools-call-mixed-content): text, an image and a file. */
export const multipleContentTypes = defineTool({
  name: "test_multiple_content_types",
  description: "Return text, an image and a file together.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async () =>
    toolContent([
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: onePixelPng(0, 0, 255), mimeType: "image/png" },
      {
        type: "file",
        data: new TextEncoder().encode(JSON.stringify({ test: "data", value: 123 })),
        mimeType: "text/plain",
        name: "mixed-content.json",
      },
    ]),
});

/** `test_error_handling` (scenario tools-call-error): always fails, so the result is an error. */
export const errorHandling = defineTool({
  name: "test_error_handling",
  description: "Always fail, to show how a failing Tool is reported.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async (): Promise<never> => {
    throw new Error("This tool intentionally returns an error for testing");
  },
});

/** `test_tool_with_progress` (scenario tools-call-with-progress): 0, 50 and 100 of 100, 50 ms apart. */
// doc:begin
export const withProgress = defineTool({
  name: "test_tool_with_progress",
  description: "Report progress three times while working for about 100 ms.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async (_input, { signal }) => {
    await reportProgress({ progress: 0, total: 100, message: "started" });
    await pause(50, signal);
    await reportProgress({ progress: 50, total: 100, message: "half way" });
    await pause(50, signal);
    await reportProgress({ progress: 100, total: 100, message: "done" });
    return "Progress reported: 0, 50 and 100 of 100.";
  },
});
// doc:end

/** `test_tool_with_logging` (scenario tools-call-with-logging): three info lines, 50 ms apart. */
export const withLogging = defineTool({
  name: "test_tool_with_logging",
  description: "Send three log lines while working for about 100 ms.",
  parameters: NO_ARGUMENTS,
  validate: noArguments,
  execute: async (_input, { signal }) => {
    await sendLogMessage("info", "Tool execution started");
    await pause(50, signal);
    await sendLogMessage("info", "Tool processing data");
    await pause(50, signal);
    await sendLogMessage("info", "Tool execution completed");
    return "Three log lines sent.";
  },
});

type Person = { name?: string; address?: { street?: string; city?: string } };

/** `json_schema_2020_12_tool` (scenario json-schema-2020-12): its schema uses `$schema` and `$defs`. */
export const jsonSchema202012 = defineTool({
  name: "json_schema_2020_12_tool",
  description: "Echo a person's name and address (a JSON Schema 2020-12 input schema).",
  parameters: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: {
      address: {
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    },
    properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
    additionalProperties: false,
  },
  validate: (input): CourseToolValidation<Person> => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return { ok: false, error: "arguments must be an object" };
    }
    const { name, address, ...rest } = input as Record<string, unknown>;
    if (Object.keys(rest).length > 0)
      return { ok: false, error: "only name and address are allowed" };
    if (name !== undefined && typeof name !== "string")
      return { ok: false, error: "name must be a string" };
    if (address === undefined) return { ok: true, value: name === undefined ? {} : { name } };
    if (typeof address !== "object" || address === null || Array.isArray(address)) {
      return { ok: false, error: "address must be an object" };
    }
    const { street, city } = address as Record<string, unknown>;
    if (street !== undefined && typeof street !== "string") {
      return { ok: false, error: "address.street must be a string" };
    }
    if (city !== undefined && typeof city !== "string") {
      return { ok: false, error: "address.city must be a string" };
    }
    const value: Person = {
      ...(name === undefined ? {} : { name }),
      address: {
        ...(street === undefined ? {} : { street }),
        ...(city === undefined ? {} : { city }),
      },
    };
    return { ok: true, value };
  },
  execute: async (person) => ({ received: person }),
});

export default [
  simpleText,
  imageContent,
  audioContent,
  embeddedResource,
  multipleContentTypes,
  errorHandling,
  withProgress,
  withLogging,
  jsonSchema202012,
];
