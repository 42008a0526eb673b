/**
 * The durable-agent example, run as `npm run example:durable` runs it (built,
 * in its own process, with this suite's restate-server): the endpoint killed
 * while the payments API answers, the refund made once, the transcript whole,
 * and nothing left behind.
 */

import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { SUITE_DIR } from "./support/suite.ts";

const MAIN = fileURLToPath(new URL("./build/examples/durable-agent/main.js", import.meta.url));
const ours = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith("toolbound-durable-agent-"));

describe("examples/durable-agent", () => {
  test("refunds once although its endpoint is killed mid-refund, and cleans up", () => {
    const before = ours();
    const run = spawnSync(process.execPath, [MAIN, SUITE_DIR], {
      encoding: "utf8",
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "killed the endpoint (SIGKILL) while the payments API was answering",
    );
    expect(run.stdout).toMatch(
      /payments API: 2 refund requests, all with key inv_\w+\/call-2; refunds made: 1/,
    );
    expect(run.stdout).toContain('"content":"Order A-42 is refunded: 25.00 is on its way back."');
    // The lookup ran before the kill and is journaled once: the new endpoint did not repeat it.
    expect(run.stdout.match(/Command: Run toolCall:call-1/g)).toHaveLength(1);
    expect(ours()).toEqual(before);
  });
});
