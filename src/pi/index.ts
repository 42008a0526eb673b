/**
 * The `./pi` entry: a bridge between toolbound and the Pi agent core, both
 * ways. `fromPiTool` runs a Pi `AgentTool` behind our boundary; `toPiTools`
 * hands our registry's Tools to Pi's agent loop. Pi's types are declared
 * structurally, so nothing of Pi is loaded by this entry; TypeBox (an optional
 * peer, which Pi itself depends on) is loaded for `fromPiTool`'s checker.
 */

export { fromPiTool } from "./from-pi-tool.ts";
export {
  PI_CONTENT_MAX_BLOCKS,
  PI_TEXT_MAX_UNITS,
  piResultOutput,
  piResultText,
} from "./pi-result-text.ts";
export type {
  PiAgentToolLike,
  PiAgentToolResult,
  PiBridgedTool,
  PiImageContent,
  PiJsonSchema,
  PiTextContent,
} from "./pi-types.ts";
export { PI_EMPTY_OBJECT_SCHEMA, PiToolResultError, toPiTools } from "./to-pi-tools.ts";
export { compileTypeBoxChecker, PI_ARGUMENT_ERRORS_SHOWN } from "./typebox-checker.ts";
