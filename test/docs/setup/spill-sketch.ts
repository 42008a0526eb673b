/**
 * For the documentation's first output-budget sketch: the Tools it registers
 * (`readFile`, and `runTestsDefinition`, which it redefines with its own
 * `truncate`), the folder its spill hook writes to, and the call it runs.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool } from "toolbound";

const readFile = defineTool({
  name: "read_file",
  description: "Read a text file.",
  validate: (input) => ({ ok: true, value: input }),
  execute: async () => "file text",
});
const runTestsDefinition = {
  name: "run_tests",
  description: "Run the tests and return their log.",
  validate: (input: unknown) => ({ ok: true as const, value: input }),
  execute: async () =>
    Array.from({ length: 20_000 }, (_, index) => `test ${index + 1}: ok`).join("\n"),
};
const spillDir = mkdtempSync(join(tmpdir(), "spill-"));
const call = { type: "toolCall", id: "call-1", name: "run_tests", arguments: {} } as const;
const signal = new AbortController().signal;
