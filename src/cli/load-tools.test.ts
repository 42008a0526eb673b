/**
 * A tools-module path that cannot name a local file: whether the URL fails
 * to parse or only fails to become a path, the user gets the one friendly
 * line for a bad module path, never an "unexpected error".
 */
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBuilt, lines, run } from "../../test/support/cli.ts";
import { CliError } from "./cli-error.ts";
import { loadToolRegistry } from "./load-tools.ts";

// The binary runs from dist: built once per test run, shared with the other CLI tests.
beforeAll(ensureBuilt, 180_000);

// Each parses as a URL (or not at all) but names no file here (the reasons as Node.js gives them
// on Linux, where CI runs).
const UNREADABLE: readonly (readonly [string, string, RegExp])[] = [
  ["a malformed percent escape", "file:///%zz", /URI malformed/],
  ["an encoded slash", "file:///tmp/a%2Fb.js", /encoded \/ characters/],
  ["another host", "file://otherhost/tools.js", /host must be "localhost" or empty/],
  ["a URL that does not parse", "file://[", /Invalid URL/],
];

describe("a tools-module path that names no local file", () => {
  test.each(UNREADABLE)("%s (%s) is a CliError naming the path", async (_label, specifier, why) => {
    const failure = await loadToolRegistry(specifier).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(failure).toBeInstanceOf(CliError);
    const { message } = failure as CliError;
    expect(message).toContain(
      `cannot read ${JSON.stringify(specifier)} as a path or a file: URL (`,
    );
    expect(message).toMatch(why);
  });

  test.each(UNREADABLE)(
    "%s is one line on stderr and exit 1 from toolbound list",
    { timeout: 60_000 },
    async (_label, specifier) => {
      const { code, stdout, stderr } = await run(["list", specifier]);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(lines(stderr)).toHaveLength(1);
      expect(lines(stderr)[0]).toMatch(/^toolbound: cannot read ".*" as a path or a file: URL \(/);
      expect(stderr).not.toContain("unexpected error");
    },
  );
});
