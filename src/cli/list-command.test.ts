/**
 * `toolbound list`, loading tools modules, `--help` and `--version`, through
 * the built binary; and that `call` and `list` never load the MCP SDK.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ToolRegistry } from "../../course/src/index.ts";
import examples from "../../examples/tools.ts";
import { EXAMPLES, lines, ROOT, run, useBuiltFixtures } from "../../test/support/cli.ts";
import { type ProviderFormat, toProviderTools } from "../schema/index.ts";

const fixture = useBuiltFixtures();

/**
 * Whether this Node.js runs TypeScript itself (type stripping, on by default
 * from 22.18): there a `.ts` tools module loads, and is judged by its export.
 */
const STRIPS_TYPES = typeof (process.features as { typescript?: unknown }).typescript === "string";

const FORMATS: readonly ProviderFormat[] = [
  "openai-chat",
  "openai-responses",
  "anthropic",
  "gemini",
  "mcp",
];

describe.concurrent("toolbound list", { timeout: 60_000 }, () => {
  test("without --format prints each Tool's name, description and parameters", async () => {
    const { code, stdout, stderr } = await run(["list", EXAMPLES]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(
      examples.map(({ name, description, parameters }) => ({ name, description, parameters })),
    );
  });

  test("lists a Tool without parameters with the empty-object schema", async () => {
    const { stdout } = await run(["list", fixture("probe.mjs")]);
    const probe = (JSON.parse(stdout) as { name: string; parameters: unknown }[]).find(
      (tool) => tool.name === "probe",
    );
    expect(probe?.parameters).toEqual({ type: "object", properties: {} });
  });

  test.each(FORMATS)("--format %s prints what toProviderTools writes", async (format) => {
    const { code, stdout, stderr } = await run(["list", EXAMPLES, "--format", format]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(toProviderTools(new ToolRegistry(examples), format));
  });

  test("an unknown format is one line naming the choices, exit 1", async () => {
    const { code, stdout, stderr } = await run(["list", EXAMPLES, "--format", "cohere"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toMatch(/^toolbound: .*'cohere' is invalid.*openai-chat, .*mcp/);
  });
});

describe.concurrent("tools modules", { timeout: 60_000 }, () => {
  test.each([
    ["a ToolRegistry", "registry.mjs"],
    ["a ToolRegistry from another copy of toolbound", "foreign-registry.mjs"],
  ])("accepts %s as the default export", async (_label, file) => {
    const { code, stdout } = await run(["list", fixture(file)]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((tool: { name: string }) => tool.name)).toEqual([
      "add",
      "repeat",
    ]);
  });

  test.each([
    [
      "a missing module",
      "list",
      "missing.mjs",
      /^toolbound: cannot find tools module .*missing\.mjs/,
    ],
    ["a directory", "call", ".", /^toolbound: tools module .* is not a file$/],
    ["no default export", "mcp", "named-only.mjs", /has no default export; export default a Tool/],
    ["a number", "list", "number.mjs", /exports no Tools: its default export is a number;/],
    ["a plain object", "call", "object.mjs", /exports no Tools: its default export is an object;/],
    ["an empty array", "mcp", "empty.mjs", /defines no Tools;/],
    [
      "an invalid definition",
      "list",
      "bad-definition.mjs",
      /: Tool definition at index 0 .*"validate"/,
    ],
    ["a module that throws", "call", "throws.mjs", /cannot load tools .*: configuration missing$/],
    [
      "a TypeScript file",
      "mcp",
      "tools.ts",
      STRIPS_TYPES
        ? /tools\.ts defines no Tools;/
        : /Unknown file extension.*compile it to JavaScript first/,
    ],
  ])(
    "refuses %s (toolbound %s) with one line on stderr and exit 1",
    async (_label, command, file, message) => {
      const { code, stdout, stderr } = await run([command, fixture(file)]);
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(lines(stderr)).toHaveLength(1);
      expect(lines(stderr)[0]).toMatch(message);
    },
  );
});

describe.concurrent("help, version and usage errors", { timeout: 60_000 }, () => {
  test.each([
    [[], "Usage: toolbound [options] [command]"],
    [["call"], "Usage: toolbound call [options] <tools-module> [call-json]"],
    [["list"], "Usage: toolbound list [options] <tools-module>"],
    [["mcp"], "Usage: toolbound mcp [options] <tools-module>"],
  ])("%j --help prints usage on stdout and exits 0", async (command, usage) => {
    const { code, stdout, stderr } = await run([...command, "--help"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(lines(stdout)[0]).toBe(usage);
  });

  test("--version prints the package version", async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const { code, stdout } = await run(["--version"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`${manifest.version}\n`);
  });

  test.each([
    [
      "an unknown command",
      ["lst", EXAMPLES],
      /^toolbound: unknown command 'lst' \(Did you mean list\?\)$/,
    ],
    [
      "a missing module argument",
      ["call"],
      /^toolbound: missing required argument 'tools-module'$/,
    ],
    ["an extra argument", ["list", EXAMPLES, "extra"], /^toolbound: too many arguments for 'list'/],
  ])("%s is one line on stderr and exit 1", async (_label, args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(1);
    expect(lines(stderr)).toHaveLength(1);
    expect(lines(stderr)[0]).toMatch(message);
  });
});

describe.concurrent("without the MCP SDK", { timeout: 60_000 }, () => {
  // A resolve hook that makes the SDK impossible to find, as if it were not installed.
  const hook = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@modelcontextprotocol/")) {
    throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}`;
  const register = `import { register } from "node:module"; register(${JSON.stringify(
    `data:text/javascript,${encodeURIComponent(hook)}`,
  )});`;
  const nodeOptions = ["--import", `data:text/javascript,${encodeURIComponent(register)}`];

  test("list and call still work: only toolbound mcp loads the SDK", async () => {
    const listed = await run(["list", EXAMPLES], "", { nodeOptions });
    expect(listed.code).toBe(0);
    const called = await run(
      ["call", EXAMPLES, '{"name":"add","arguments":{"left":1,"right":2}}'],
      "",
      {
        nodeOptions,
      },
    );
    expect(called.code).toBe(0);
    expect(JSON.parse(called.stdout).content).toBe('{"sum":3}');
  });

  test("toolbound mcp says how to install the SDK, in one line", async () => {
    const { code, stdout, stderr } = await run(["mcp", EXAMPLES], "", { nodeOptions });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(lines(stderr)).toEqual([
      "toolbound: toolbound mcp needs the optional peer dependency @modelcontextprotocol/sdk; " +
        "install it with: npm install @modelcontextprotocol/sdk",
    ]);
  });
});
