/**
 * The documentation harness itself: each rule it applies to the documents
 * fails on a block that breaks it, so a passing run means the documents
 * hold, not that the harness looked away.
 */

import { describe, expect, test } from "vitest";
import { diagramProblems } from "./block-kinds.ts";
import { blockModule } from "./block-modules.ts";
import { matchesShown } from "./expected-output.ts";
import { type CodeBlock, codeBlocksOf } from "./markdown.ts";
import {
  commandKind,
  projectCommandProblem,
  shellCommands,
  simpleCommands,
} from "./shell-blocks.ts";

const fence = "```";
const block = (lang: string, text: string, line = 10, directives = {}): CodeBlock => ({
  doc: "guide.md",
  line,
  lang,
  text,
  directives,
  directiveErrors: [],
});

describe("reading blocks and directives", () => {
  test("a block's language, text, line and the directives above it", () => {
    const text = [
      "# Guide",
      "<!-- doc-test: setup=add-call continues -->",
      "",
      `${fence}ts`,
      "const x = 1;",
      fence,
      `${fence}sh`,
      "npm test",
      fence,
    ].join("\n");
    const [ts, sh] = codeBlocksOf("guide.md", text);
    expect(ts).toMatchObject({
      line: 4,
      lang: "ts",
      text: "const x = 1;",
      directives: { setup: "add-call", continues: "" },
    });
    expect(sh).toMatchObject({ line: 7, lang: "sh", directives: {} });
  });

  test("an unknown or repeated directive is an error", () => {
    const text = `<!-- doc-test: skip setup=a setup=b -->\n${fence}ts\nx\n${fence}`;
    expect(codeBlocksOf("guide.md", text)[0]?.directiveErrors).toEqual([
      'unknown doc-test directive "skip"',
      'doc-test directive "setup" given twice',
    ]);
  });
});

describe("shown outputs", () => {
  test.each([
    ["{ a: 1,\n  b: 'x' }", "{ a: 1, b: 'x' }", true],
    ["{ …, b: 'x' }", "{ a: 1, b: 'x' }", true],
    ["{ …, b: 'y' }", "{ a: 1, b: 'x' }", false],
    ["42", "43", false],
    ["42", "42 and more", false],
  ])("%j against %j: %s", (shown, printed, matches) => {
    expect(matchesShown(shown, printed)).toBe(matches);
  });
});

describe("TypeScript modules", () => {
  test("parts share imports: one binding once, a value import over a type-only one", () => {
    const first = block("ts", 'import type OpenAI from "openai";\nimport { a } from "m";', 10);
    const second = block("ts", 'import OpenAI from "openai";\nimport { a, b } from "m";', 20, {
      continues: "",
    });
    const { source, errors } = blockModule(second, [first, second]);
    expect(errors).toEqual([]);
    expect(source.split("\n").slice(0, 2)).toEqual([
      'import OpenAI from "openai";',
      'import { a, b } from "m";',
    ]);
  });

  test("outputs are read from // → comments; an unmarked comment under console.log is an error", () => {
    const shown = block("ts", "console.log(1);\n// → 1\nconsole.log({ a: 1 }); // → { a: 1 }");
    expect(blockModule(shown, [shown]).expected).toEqual([
      { origin: "guide.md:12", text: "1" },
      { origin: "guide.md:13", text: "{ a: 1 }" },
    ]);
    const unmarked = block("ts", "console.log(1);\n// 1");
    expect(blockModule(unmarked, [unmarked]).errors).toEqual([
      'guide.md:12: show printed output as "// → …"',
    ]);
  });

  test("a missing setup file and a block that continues nothing are errors", () => {
    const lone = block("ts", "x", 10, { continues: "", setup: "no-such-setup" });
    expect(blockModule(lone, [lone]).errors).toEqual([
      'guide.md:10: "continues", but no ts block comes before it',
      "guide.md:10: no setup file test/docs/setup/no-such-setup.ts",
    ]);
  });

  test("each line remembers where it came from", () => {
    const shown = block("ts", 'import { a } from "m";\nconst b = a;', 10, { setup: "add-call" });
    const { source, origins } = blockModule(shown, [shown]);
    const line = source.split("\n").indexOf("const b = a;");
    expect(origins[line]).toBe("guide.md:12");
  });
});

describe("shell blocks", () => {
  test("commands, continued lines and their shown output", () => {
    const commands = shellCommands(
      block("sh", "# prose\ntoolbound list x \\\n  --format mcp\n# → a\n# → b\n\nnpm test"),
    );
    expect(commands).toEqual([
      { origin: "guide.md:12", line: "toolbound list x --format mcp", shown: "a\nb" },
      { origin: "guide.md:17", line: "npm test", shown: undefined },
    ]);
  });

  test("a comment right under a command that is not marked as output is flagged", () => {
    expect(shellCommands(block("sh", "toolbound list x\n# {}"))[0]?.unmarked).toBe("guide.md:12");
  });

  test.each([
    ["npm ci && npm start", "project"],
    ["npx vitest run", "project"],
    ["printf '%s\\n' '{}' | toolbound call x", "run"],
    ["toolbound mcp x --max-output-characters 50000", "mcp"],
  ])("%s is a %s command", (line, kind) => {
    expect(commandKind(line)).toBe(kind);
  });

  test("a command no rule checks is an error", () => {
    expect(commandKind("curl https://example.com")).toBeInstanceOf(Error);
    expect(commandKind("rm -rf x | toolbound call y")).toBeInstanceOf(Error);
  });

  test.each([
    ["npm run no-such-script", 'npm script "no-such-script" is not in package.json'],
    [
      "npm run test:course:checkpoint -- course/test/none.test.ts",
      "no such file: course/test/none.test.ts",
    ],
    ["npx no-such-tool", "npx no-such-tool: no such installed tool"],
    ["npm publish", "npm publish: not a command the project uses"],
  ])("%s is refused", (line, problem) => {
    expect(simpleCommands(line).map(projectCommandProblem)).toEqual([problem]);
  });
});

test("a diagram naming a function the sources lack is flagged", () => {
  const diagram = block("mermaid", "flowchart TD\n  A[executeToolCall] --> B[runMissingThing]");
  expect(diagramProblems(diagram)).toEqual(["names runMissingThing, not in the sources"]);
});
