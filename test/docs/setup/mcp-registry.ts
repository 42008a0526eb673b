/**
 * For the documentation's MCP server with call options: the registry it serves and
 * the artifact store its spill hook hands full outputs to. The block runs as
 * a process of its own, so this file imports packages only.
 */
import { defineTool, ToolRegistry } from "toolbound";

const registry = new ToolRegistry([
  defineTool({
    name: "echo",
    description: "Repeat the arguments.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async (input) => input,
  }),
]);
const artifacts: string[] = [];
const saveArtifact = (text: string): string => `artifact-${artifacts.push(text)}`;
