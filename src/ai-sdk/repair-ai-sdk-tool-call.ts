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
 * past this many the hook declines, so a long run cannot grow the records
 * without end.
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
function isInvalidToolInputError(error: unknown): boolean {
  return error instanceof Error && error.name === "AI_InvalidToolInputError";
}

/**
 * A repair function for the AI SDK's `repairToolCall` option of
 * `generateText`, `streamText` and agents, for Tools made by `toAiSdkTools`.
 * When the model's argument text for one of them cannot be parsed, the SDK
 * would refuse the call with an error that quotes the whole text, and the
 * next prompt would carry it all. This hook parses the text with toolbound's
 * bounded parser instead (`parseToolArguments`, default limits: 1,000,000
 * characters, depth 64), keeps the outcome for that Tool and call id, and
 * hands the SDK the same call with `{}` as its input; the Tool's `execute`
 * then takes the outcome: a refusal becomes our `TOOL_ARGUMENTS_INVALID`
 * result with the parser's reason (which never quotes the text), and text our
 * parser accepts (the SDK's refuses a `__proto__` key, ours keeps it an
 * ordinary key) goes to our validator as parsed. The Tool never runs on
 * arguments our boundary refused. Answers `null` (the SDK's own handling)
 * for an unknown tool name, a tool `toAiSdkTools` did not make, an error
 * other than the SDK's invalid-input error, and when the Tool already holds
 * {@link AI_SDK_MAX_PENDING_REPAIRS} repaired calls that have not run.
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
  if (!isInvalidToolInputError(error)) return null;
  const name = ownValue(toolCall, "toolName");
  const id = ownValue(toolCall, "toolCallId");
  const input = ownValue(toolCall, "input");
  if (typeof name !== "string" || typeof id !== "string" || typeof input !== "string") return null;
  const tool = ownValue(tools, name);
  // Checked before parsing: text for a tool that is not ours is never read.
  if (!aiSdkRepairs.serves(tool)) return null;
  const parsed = parseToolArguments(input);
  if (!aiSdkRepairs.hold(tool, id, parsed)) return null;
  // The same call (its provider metadata included), with input our boundary never reads.
  return { ...(toolCall as ModelToolCall), input: "{}" };
}
