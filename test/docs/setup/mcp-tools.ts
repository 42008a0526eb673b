/**
 * For the documentation's MCP server: the Tools it serves. The block runs as a
 * process of its own, so this file imports packages only.
 */
import { defineTool } from "toolbound";

const tools = [
  defineTool({
    name: "echo",
    description: "Repeat the arguments.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async (input) => input,
  }),
];
