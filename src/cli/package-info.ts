/**
 * The version of the installed package, for `toolbound --version` and the
 * MCP handshake, read from the nearest `package.json` named "toolbound".
 */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Walks up from this file to the package root and returns its version; the
 * same code works from the sources and from the build, which sit at
 * different depths. Default when no such `package.json` is found: "0.0.0".
 *
 * @example
 * packageVersion(); // "0.1.0"
 */
export function packageVersion(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < 6; level += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "toolbound" && typeof manifest.version === "string") {
        return manifest.version;
      }
    } catch {
      // No readable package.json here: keep climbing.
    }
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return "0.0.0";
}
