/**
 * Setup of the `course-traced` test project: after each course test file,
 * the calls must really have been traced (hundreds of spans), so a passing
 * run proves the course's expectations hold with tracing on.
 */

import { afterAll, expect } from "vitest";
import { tracedCourseTelemetry } from "./traced-course-telemetry.ts";

afterAll(async () => {
  expect(tracedCourseTelemetry.spans().length).toBeGreaterThan(100);
  await tracedCourseTelemetry.shutdown();
});
