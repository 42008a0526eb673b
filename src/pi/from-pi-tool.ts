/**
 * Pi to toolbound: wraps a Pi `AgentTool` as a defined Tool of ours, so that
 * `executeToolCall` runs it behind our boundary (synchronous validation before
 * effects, the run's signal, bounded transcript text).
 */

import { types } from "node:util";
import {
  defineTool,
  type RegisteredCourseTool,
  snapshotJsonObject,
  type ToolContent,
  ToolContractError,
} from "../../course/src/index.ts";
import { piResultOutput } from "./pi-result-text.ts";
import type { PiAgentToolLike } from "./pi-types.ts";
import { compileTypeBoxChecker } from "./typebox-checker.ts";

// Pi's `onUpdate` streams partial results to a UI; our transcript keeps only the final result.
const ignoreUpdate = (): void => {};

function invalid(message: string, cause?: unknown): never {
  throw new ToolContractError(
    "INVALID_TOOL_DEFINITION",
    message,
    cause === undefined ? undefined : { cause },
  );
}

/** Reads one field once; a throwing getter becomes INVALID_TOOL_DEFINITION. */
function readField(tool: object, key: string): unknown {
  try {
    return Reflect.get(tool, key);
  } catch (thrown) {
    return invalid(`Pi Tool field "${key}" threw when read`, thrown);
  }
}

/**
 * Wraps a Pi `AgentTool` as a defined Tool of ours. Reads `name`,
 * `description`, `parameters` and `execute` once each (inherited fields too,
 * as Pi does). The validator is the TypeBox `parameters` schema compiled once
 * here, checking the model's arguments synchronously and without conversion
 * (Pi's loop would turn `"20"` into `20`; this one refuses it as
 * `TOOL_ARGUMENTS_INVALID`; `prepareArguments` is not applied). It compiles
 * the deep-frozen JSON copy of the schema, the same object it carries over as
 * our `parameters`, so TypeBox-only additions that are not JSON (codecs,
 * refinement callbacks) are not part of the check. The executor calls Pi's
 * `execute(toolCallId, params, signal, onUpdate)` with the call id, the
 * boundary's signal, a mutable copy of the validated arguments and a no-op
 * `onUpdate`; the result's text blocks become the output that our serializer
 * bounds (under the call's, the Tool's or the registry's output budget, like
 * any Tool of ours; spread the result into a new definition to add
 * `outputBudget`, `truncate` or `format` fields), so `content` is that text as
 * a JSON string (or the text itself under `format: "text"`). A result with an
 * image block becomes `toolContent` instead (see `piResultOutput`): its text
 * blocks and images as parts, each image checked by the boundary, so the
 * result message carries the image in `parts` and `content` reads
 * `[image: image/png, 70 bytes]` in its place. A Pi Tool that throws or rejects becomes `TOOL_EXECUTION_FAILED`
 * with its message. Throws ToolContractError INVALID_TOOL_DEFINITION for a Proxy, a throwing
 * field, a non-function `execute`, or a schema that is not plain JSON or does
 * not compile.
 *
 * @example
 * const add = fromPiTool({
 *   name: "add",
 *   label: "Add",
 *   description: "Add two numbers.",
 *   parameters: Type.Object({ left: Type.Number(), right: Type.Number() }),
 *   execute: async (_id, { left, right }) => ({ content: [{ type: "text", text: String(left + right) }], details: {} }),
 * });
 * const result = await executeToolCall(new ToolRegistry([add]), call, signal);
 * // result.content === '"42"'
 */
export function fromPiTool(
  agentTool: PiAgentToolLike,
): RegisteredCourseTool<unknown, string | ToolContent> {
  if (typeof agentTool !== "object" || agentTool === null) invalid("Pi Tool must be an object");
  if (types.isProxy(agentTool)) invalid("Pi Tool must not be a Proxy");
  const name = readField(agentTool, "name");
  const description = readField(agentTool, "description");
  const parameters = readField(agentTool, "parameters");
  const execute = readField(agentTool, "execute");
  if (typeof name !== "string") invalid("Pi Tool name must be a string");
  if (typeof execute !== "function") invalid(`Pi Tool "${name}" execute must be a function`);
  if (typeof parameters !== "object" || parameters === null) {
    invalid(`Pi Tool "${name}" parameters must be a TypeBox or JSON Schema object`);
  }
  // One schema for both sides: the deep-frozen JSON copy (Proxies, throwing
  // getters and non-JSON values refused, each getter run once) is what the model
  // is shown and what the checker compiles, so a later change to the Pi Tool's
  // schema cannot make the two disagree.
  const schema = snapshotJsonObject(
    parameters,
    `Pi Tool "${name}" parameters`,
    "INVALID_TOOL_DEFINITION",
  );
  const validate = compileTypeBoxChecker(schema, name);
  return defineTool<unknown, string | ToolContent>({
    name,
    description: description as string,
    validate,
    execute: async (input, { signal, toolCallId }) => {
      // Pi hands each call a fresh copy its Tool may change; our snapshot is frozen.
      const params = structuredClone(input);
      const result: unknown = await Reflect.apply(execute, agentTool, [
        toolCallId,
        params,
        signal,
        ignoreUpdate,
      ]);
      return piResultOutput(result);
    },
    parameters: schema,
  });
}
