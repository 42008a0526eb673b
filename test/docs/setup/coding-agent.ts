/**
 * For the documentation's coding-agent configuration: its other Tools (`readFile`,
 * `search`), the sandbox its shell Tool runs commands in (here, one that
 * answers every command with a 2,000-line build log of 113,999 characters),
 * and the model's call for a build.
 */
import { defineTool } from "toolbound";

const readFile = defineTool({
  name: "read_file",
  description: "Read a text file.",
  validate: (input) => ({ ok: true, value: input }),
  execute: async () => "file text",
});
const search = defineTool({
  name: "search",
  description: "Search the project.",
  validate: (input) => ({ ok: true, value: input }),
  execute: async () => [],
});
// 2,000 lines joined by 1,999 line breaks: 113,999 characters in all.
const buildLog = Array.from({ length: 2_000 }, (_, index) =>
  `[${index + 1}] compiling`.padEnd(56, "."),
).join("\n");
const runInSandbox = async (_command: string, _signal: AbortSignal): Promise<string> => buildLog;
const buildCall = {
  type: "toolCall",
  id: "call-7",
  name: "shell",
  arguments: { command: "npm run build" },
} as const;
const signal = new AbortController().signal;
