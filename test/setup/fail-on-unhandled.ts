/**
 * Fails the test that was running when an unhandled rejection or an uncaught
 * exception reached the process: the boundary promises that none escapes.
 */
import { afterEach } from "vitest";

const escaped: unknown[] = [];
const record = (reason: unknown): void => {
  escaped.push(reason);
};
process.on("unhandledRejection", record);
process.on("uncaughtException", record);

afterEach(async () => {
  // Let pending rejections surface: Node reports them after the microtask queue drains.
  await new Promise((resolve) => setImmediate(resolve));
  if (escaped.length > 0) {
    const reasons = escaped.splice(0);
    throw new Error(`unhandled rejection or exception escaped: ${reasons.map(String).join("; ")}`);
  }
});
