/**
 * The AI SDK's tool-call repair hook for our bridged Tools: argument text the
 * SDK cannot parse reaches our bounded parser, so the model reads our short
 * `TOOL_ARGUMENTS_INVALID` reason instead of the SDK's parse error, which
 * quotes the whole text back into the next prompt.
 */

import { MAX_PENDING_REPAIRS, PendingRepairs } from "../frameworks/pending-repairs.ts";
import { parseToolArguments, type ToolArgumentsParse } from "../providers/argument-limits.ts";

/**
 * The most repaired calls one bridged Tool holds for its `execute` at once
 * (1,000). A record is taken when its call runs; one whose call never runs (a
 * denied approval, a step aborted between parsing and running) stays, and
 * past this many the oldest is dropped (that call, should it still run, is
 * refused), so a long run cannot grow the records without end.
 *
 * @example
 * AI_SDK_MAX_PENDING_REPAIRS; // 1000
 */
export const AI_SDK_MAX_PENDING_REPAIRS: number = MAX_PENDING_REPAIRS;

/**
 * The bridged Tools of `toAiSdkTools`, the only ones the hook serves (every
 * other tool keeps the SDK's own handling), each with what our parser made of
 * its repaired calls' text: the arguments (the SDK's parser refuses some JSON
 * ours accepts, a `__proto__` key among them) or the reason to give the model.
 */
export const aiSdkRepairs = new PendingRepairs<ToolArgumentsParse>();

/** The most code points of an unknown tool name the model reads back. */
const NAME_SHOWN = 64;

/**
 * Thrown by {@link repairAiSdkToolCall} for a call of a tool name the ToolSet
 * does not have. The SDK's own error quotes the whole name, however long the
 * model made it; this one quotes at most its first 64 code points and says how
 * many it had, and the SDK hands the model
 * `AI_ToolCallRepairError: Error repairing tool call: ` and this message. `toolName` keeps the whole name for the host.
 *
 * @example
 * onStepFinish: (step) => {
 *   for (const part of step.content) if (part.type === "tool-error" && part.error?.cause instanceof AiSdkUnknownToolError) console.warn(part.error.cause.toolName.length);
 * }
 */
export class AiSdkUnknownToolError extends Error {
  /** The name the model called, whole. */
  readonly toolName: string;

  constructor(toolName: string, available: readonly string[]) {
    const points = Array.from(toolName);
    const quoted =
      points.length <= NAME_SHOWN
        ? `"${toolName}"`
        : `"${points.slice(0, NAME_SHOWN).join("")}…" (${points.length.toLocaleString("en-US")} code points)`;
    const list = available.length === 0 ? "none" : available.join(", ");
    super(`Unknown Tool ${quoted}; available tools: ${list}`);
    Object.defineProperty(this, "name", { value: "AiSdkUnknownToolError", enumerable: false });
    this.toolName = toolName;
  }

  /** The message alone (not `name: message`): the SDK quotes this text to the model. */
  override toString(): string {
    return this.message;
  }
}

/** The parts of the SDK's repair options the hook reads. */
interface RepairOptions {
  readonly toolCall?: unknown;
  readonly tools?: unknown;
  readonly error?: unknown;
}

/** The SDK's `LanguageModelV4ToolCall`, as far as the hook reads and writes it. */
interface ModelToolCall {
  readonly type: "tool-call";
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

/** An own data property's value: a getter on the ToolSet or the call is never run. */
function ownValue(holder: unknown, key: string): unknown {
  if (typeof holder !== "object" || holder === null) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(holder, key);
  return descriptor !== undefined && "value" in descriptor ? descriptor.value : undefined;
}

/** The SDK marks its errors with a symbol-named brand; its `name` is the stable public part. */
function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

/**
 * A repair function for the AI SDK's `repairToolCall` option of
 * `generateText`, `streamText` and agents, for Tools made by `toAiSdkTools`.
 * When the model's argument text for one of them cannot be parsed, the SDK
 * would refuse the call with an error that quotes the whole text, and the
 * next prompt would carry it all. This hook parses the text with toolbound's
 * bounded parser instead (`parseToolArguments`, default limits: 1,000,000
 * characters, depth 64), keeps the outcome for that Tool under a fresh random
 * token, and hands the SDK the same call with `{"__toolbound_repair":"<token>"}`
 * as its input (the next prompt shows the model that input, not its text); the
 * Tool's `execute` then takes the outcome by the token: a refusal becomes our
 * `TOOL_ARGUMENTS_INVALID` result with the parser's reason (which never quotes
 * the text), and text our parser accepts (the SDK's refuses a `__proto__` key,
 * ours keeps it an ordinary key) goes to our validator as parsed. The Tool
 * never runs on arguments our boundary refused, and never on the stand-in
 * input: a call carrying the reserved key without a held record is refused.
 * Call ids play no part, so repeated or blank ids cannot mix two calls up.
 *
 * A call of a tool name the ToolSet lacks is refused by throwing an
 * {@link AiSdkUnknownToolError}, which quotes at most 64 code points of the
 * name (the SDK's own error quotes it whole). Answers `null` (the SDK's own
 * handling) for invalid input of a tool `toAiSdkTools` did not make and for
 * any other error.
 *
 * @example
 * const result = await generateText({
 *   model,
 *   tools: await toAiSdkTools(registry),
 *   repairToolCall: repairAiSdkToolCall,
 *   stopWhen: isStepCount(5),
 *   prompt: "Echo hi.",
 * });
 */
export async function repairAiSdkToolCall(options: RepairOptions): Promise<ModelToolCall | null> {
  // Each field read once: a getter could answer differently the second time.
  const { toolCall, tools, error } = options ?? {};
  const kind = errorName(error);
  if (kind !== "AI_InvalidToolInputError" && kind !== "AI_NoSuchToolError") return null;
  const name = ownValue(toolCall, "toolName");
  const input = ownValue(toolCall, "input");
  if (typeof name !== "string" || typeof input !== "string") return null;
  const tool = ownValue(tools, name);
  if (tool === undefined && kind === "AI_NoSuchToolError") {
    const available = typeof tools === "object" && tools !== null ? Object.keys(tools) : [];
    throw new AiSdkUnknownToolError(name, available);
  }
  // Checked before parsing: text for a tool that is not ours is never read.
  if (kind !== "AI_InvalidToolInputError" || !aiSdkRepairs.serves(tool)) return null;
  const stand = aiSdkRepairs.hold(tool, parseToolArguments(input));
  if (stand === undefined) return null;
  // The same call (its id and provider metadata included), with the token as its input.
  return { ...(toolCall as ModelToolCall), input: stand };
}
