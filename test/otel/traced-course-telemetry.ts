/**
 * The telemetry of the `course-traced` test project: one tracer provider and
 * one meter provider per test file (the OpenTelemetry SDK's in-memory
 * exporters), shared by the traced entry and the project's setup file.
 */

import { createTelemetry } from "../support/otel.ts";

/** The providers every traced course call records with. */
export const tracedCourseTelemetry = createTelemetry();
