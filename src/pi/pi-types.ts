/**
 * Pi's Tool shapes, declared structurally so that neither the core nor the
 * `./pi` entry needs a Pi package at run time. They mirror the parts of
 * `AgentTool` and `AgentToolResult` from the Pi agent core 0.85.0 that the
 * bridge reads or produces; a real Pi `AgentTool` is assignable to
 * {@link PiAgentToolLike}, and a {@link PiBridgedTool} to Pi's `AgentTool`.
 */

/**
 * A text block of a Pi Tool result.
 *
 * @example
 * const block: PiTextContent = { type: "text", text: "42" };
 */
export interface PiTextContent {
  type: "text";
  text: string;
}

/**
 * An image block of a Pi Tool result (base64 `data`); the bridge writes only
 * a placeholder with its MIME type into our transcript.
 *
 * @example
 * const block: PiImageContent = { type: "image", data: "iVBORw0...", mimeType: "image/png" };
 */
export interface PiImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/**
 * What a Pi Tool's `execute` resolves with: content blocks for the model and
 * free-form `details` for logs and UIs.
 *
 * @example
 * const result: PiAgentToolResult<{ sum: number }> = { content: [{ type: "text", text: "42" }], details: { sum: 42 } };
 */
export interface PiAgentToolResult<Details = unknown> {
  // Mutable, like Pi's own type, so that a value of this type is a Pi AgentToolResult.
  content: (PiTextContent | PiImageContent)[];
  details: Details;
}

/**
 * A JSON Schema object as Pi's `parameters` carries it. TypeBox 1.x schemas
 * are plain JSON Schema objects, so any JSON Schema object fits.
 */
export type PiJsonSchema = { readonly [key: string]: unknown };

/**
 * The parts of a Pi `AgentTool` that `fromPiTool` reads: `name`,
 * `description`, the TypeBox `parameters` schema and
 * `execute(toolCallId, params, signal, onUpdate)`. Pi's `label`,
 * `prepareArguments`, `executionMode` and `replay` are not used.
 *
 * @example
 * const piTool: PiAgentToolLike = {
 *   name: "add",
 *   label: "Add",
 *   description: "Add two numbers.",
 *   parameters: Type.Object({ left: Type.Number(), right: Type.Number() }),
 *   execute: async (_id, { left, right }) => ({ content: [{ type: "text", text: String(left + right) }], details: {} }),
 * };
 */
export interface PiAgentToolLike {
  readonly name: string;
  readonly label?: string;
  readonly description: string;
  readonly parameters: object;
  readonly execute: (
    toolCallId: string,
    // `never`: any Pi Tool fits, whatever its parameter type.
    params: never,
    signal?: AbortSignal,
    onUpdate?: (partialResult: unknown) => void,
  ) => Promise<unknown>;
}

/**
 * A Pi `AgentTool` made by `toPiTools`: our Tool's name (also its `label`),
 * description and `parameters` JSON Schema (or the empty object schema), and
 * an `execute` that runs `executeToolCall` on our registry. The result's
 * `details` is our frozen result message.
 *
 * @example
 * const [echo] = toPiTools(registry);
 * const result = await echo.execute("call-1", { text: "hi" });
 * // result.content: [{ type: "text", text: '{"text":"hi"}' }]
 */
export interface PiBridgedTool<Details = unknown> {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  readonly parameters: PiJsonSchema;
  readonly execute: (
    toolCallId: string,
    params: unknown,
    signal?: AbortSignal,
    onUpdate?: unknown,
  ) => Promise<PiAgentToolResult<Details>>;
}
