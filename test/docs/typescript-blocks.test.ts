/**
 * Every ```ts block of README.md, CONTRIBUTING.md and docs/*.md that no
 * tested file mirrors is type-checked with the project's compiler settings
 * and run, and what it prints is compared with the outputs it shows
 * (`// → …`). Blocks that serve MCP on standard input and output
 * (`serves=mcp`) run as a process under the official MCP client instead.
 */

import { readdirSync } from "node:fs";
import { beforeAll, describe, expect, test } from "vitest";
import { ensureBuilt } from "../support/cli.ts";
import { type BlockModule, blockModule, blockModules, SETUP_DIR } from "./block-modules.ts";
import { matchesShown } from "./expected-output.ts";
import { where } from "./markdown.ts";
import { checkServer, transpiledServer } from "./mcp-server.ts";
import { runModule } from "./run-module.ts";
import { typeErrors } from "./typecheck.ts";

const modules = blockModules();
const inProcess = modules.filter((module) => module.block.directives.serves === undefined);
const servers = modules.filter((module) => module.block.directives.serves !== undefined);
const named = (list: readonly BlockModule[]) =>
  list.map((module) => [where(module.block), module] as const);

// A block with a type error, checked in the same program: the check must name its line.
const broken = blockModule(
  {
    doc: "guide.md",
    line: 40,
    lang: "ts",
    text: 'const n: number = "one";',
    directives: {},
    directiveErrors: [],
  },
  [],
);

let errors = new Map<string, string[]>();
beforeAll(() => {
  errors = typeErrors([...modules, broken]);
}, 120_000);

test("a type error is reported at its document line", () => {
  expect(errors.get(broken.id)).toEqual([
    "guide.md:41: TS2322 Type 'string' is not assignable to type 'number'.",
  ]);
});

test("the documents have ts blocks, and each module assembled without problems", () => {
  expect(inProcess.length).toBeGreaterThan(5);
  expect(modules.flatMap((module) => module.errors)).toEqual([]);
});

test("every setup file is used by a block", () => {
  const used = new Set(modules.flatMap((module) => module.block.directives.setup ?? []));
  const files = readdirSync(SETUP_DIR).filter((name) => name.endsWith(".ts"));
  expect(files.length).toBeGreaterThan(0);
  expect(files.map((name) => name.slice(0, -3)).filter((name) => !used.has(name))).toEqual([]);
});

describe("type-checks", () => {
  test.each(named(modules))("%s", (_, module) => {
    expect(errors.get(module.id)).toEqual([]);
  });
});

describe("runs and prints what it shows", () => {
  test.each(named(inProcess))(
    "%s",
    async (_, module) => {
      const printed = await runModule(module);
      if (module.expected.length === 0) return;
      expect(printed, `${where(module.block)} prints one line per "// →"`).toHaveLength(
        module.expected.length,
      );
      module.expected.forEach((shown, index) => {
        const actual = printed[index] ?? "";
        expect(
          matchesShown(shown.text, actual),
          `${shown.origin} shows\n${shown.text}\nbut it printed\n${actual}`,
        ).toBe(true);
      });
    },
    30_000,
  );
});

describe("serves MCP to the official client", () => {
  beforeAll(ensureBuilt, 180_000);
  test("the documents show a server", () => {
    expect(servers.length).toBeGreaterThan(0);
  });
  test.each(named(servers))(
    "%s",
    async (_, module) => {
      expect(module.block.directives.serves).toBe("mcp");
      const tools = await checkServer(["--input-type=module", "--eval", transpiledServer(module)]);
      expect(tools.length).toBeGreaterThan(0);
    },
    60_000,
  );
});
