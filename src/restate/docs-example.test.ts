/**
 * docs/durable.md opens with the durable agent: its first `ts` block must be
 * exactly the lines of examples/durable-agent/agent-service.ts between
 * `// doc:begin` and `// doc:end`, which the durable suite runs, except
 * that the doc imports the package where the example imports the sources.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

test("the guide's first block is the example the durable suite runs", () => {
  const doc = read("../../docs/durable.md");
  const open = doc.indexOf("\n```ts\n");
  const close = doc.indexOf("\n```\n", open + 1);
  expect(open).toBeGreaterThan(-1);
  const block = doc.slice(open + "\n```ts\n".length, close);

  const source = read("../../examples/durable-agent/agent-service.ts");
  const begin = source.indexOf("// doc:begin\n");
  const end = source.indexOf("// doc:end");
  expect(begin).toBeGreaterThan(-1);
  const marked = source
    .slice(begin + "// doc:begin\n".length, end)
    .replace('"../../course/src/index.ts"', '"toolbound"')
    .replace('"../../src/restate/index.ts"', '"toolbound/restate"')
    .trimEnd();
  expect(marked).toContain("durableToolCalls(ctx, tools");
  expect(block).toBe(marked);
});
