/**
 * For the documentation's Tool round: the example Tools, a model turn asking for
 * two of them, the run, and a log its event listener writes to.
 */
import { ToolRegistry } from "toolbound";
import tools from "../../../examples/tools.ts";

const registry = new ToolRegistry(tools);
const turn = {
  toolCalls: [
    { type: "toolCall", id: "call-1", name: "add", arguments: { left: 20, right: 22 } },
    { type: "toolCall", id: "call-2", name: "sleep", arguments: { ms: 1 } },
  ],
} as const;
const run = new AbortController();
const events: string[] = [];
const log = (...parts: string[]): void => {
  events.push(parts.join(" "));
};
