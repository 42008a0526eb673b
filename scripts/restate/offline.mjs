#!/usr/bin/env node
// Runs a Node.js script (the durable suite, its example, its bench) with this
// Node.js, inside a private network namespace whose only interface is
// loopback, where the machine allows one (Linux, `unshare` and `ip`, root or
// unprivileged user namespaces). Why: restate-server asks a public API for its
// latest release when it starts, whatever its telemetry setting; in the
// namespace that request cannot leave the machine, and everything the suite
// does stays on loopback. Elsewhere the script runs as it is, with a note.
//
// Usage: node scripts/restate/offline.mjs <script> [args...]
import { spawnSync } from "node:child_process";

const [script, ...args] = process.argv.slice(2);
if (script === undefined) {
  console.error("usage: node scripts/restate/offline.mjs <script> [args...]");
  process.exit(2);
}

const quiet = { stdio: "ignore" };
const namespaceFlags = process.getuid?.() === 0 ? ["-n"] : ["-rn"];
const isolated =
  process.platform === "linux" &&
  spawnSync("unshare", [...namespaceFlags, "ip", "link", "set", "lo", "up"], quiet).status === 0;

const command = isolated
  ? [
      "unshare",
      [
        ...namespaceFlags,
        "sh",
        "-c",
        'ip link set lo up && exec "$0" "$@"',
        process.execPath,
        script,
        ...args,
      ],
    ]
  : [process.execPath, [script, ...args]];
if (!isolated) {
  console.error(
    "note: no private network namespace here; restate-server may ask for its latest release",
  );
}
const result = spawnSync(command[0], command[1], { stdio: "inherit" });
if (result.error !== undefined) throw result.error;
process.exit(result.status ?? 1);
