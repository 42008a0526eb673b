/**
 * The course's public entry with tracing on: every registry a course test
 * hands to `executeToolCall` or `prepareToolCall` is instrumented (with the
 * OpenTelemetry SDK's in-memory exporter) just before the call, so the
 * course's own suite runs, unchanged, against traced calls. Everything else
 * is the course's, the same values. Used only by the `course-traced` test
 * project (see `vitest.config.ts`).
 */

import * as course from "../../course/src/index.ts";
import { isToolRegistry } from "../../course/src/internal.ts";
import { instrumentRegistry } from "../../src/otel/index.ts";
import { tracedCourseTelemetry } from "./traced-course-telemetry.ts";

const traced = (registry: course.ToolRegistry): course.ToolRegistry =>
  // Not a registry (the course's malformed-registry attacks): handed over as it is.
  isToolRegistry(registry) ? instrumentRegistry(registry, tracedCourseTelemetry) : registry;

/** `executeToolCall` on the instrumented registry. */
export const executeToolCall: typeof course.executeToolCall = (registry, ...rest) =>
  course.executeToolCall(traced(registry), ...rest);

/** `prepareToolCall` on the instrumented registry. */
export const prepareToolCall: typeof course.prepareToolCall = (registry, ...rest) =>
  course.prepareToolCall(traced(registry), ...rest);

export {
  COURSE_TOOL_ARGUMENTS_MAX_DEPTH,
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_SERIALIZATION_MAX_BIGINT_BITS,
  COURSE_TOOL_SERIALIZATION_MAX_COLLECTION_ENTRIES,
  COURSE_TOOL_SERIALIZATION_MAX_DEPTH,
  COURSE_TOOL_SERIALIZATION_MAX_NODES,
  COURSE_TOOL_SERIALIZATION_MAX_STRING_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  DEFAULT_MAX_SPILL_CHARACTERS,
  defineTool,
  invalidArgumentsReason,
  MAX_SPILL_REFERENCE_CHARACTERS,
  NonRecoverableToolError,
  OUTPUT_BUDGET_RANGES,
  runPreparedToolCall,
  SPILL_CHARACTERS_RANGE,
  serializeToolOutput,
  snapshotJsonObject,
  snapshotToolCall,
  ToolContractError,
  ToolRegistry,
  toolCallWithInvalidArguments,
  toolErrorResult,
  toolResultMessage,
} from "../../course/src/index.ts";
