/**
 * The AI SDK's tool-call repair hook for our bridged Tools: argument text the
 * SDK cannot parse reaches our bounded parser, so the model reads our short
 * `TOOL_ARGUMENTS_INVALID` reason instead of the SDK's parse error, which
 * quotes the whole text back into the next prompt.
 */

import { PendingRepairs } from "../frameworks/pending-repairs.ts";
import { parseToolArguments } from "../providers/argument-limits.ts";

/**
 * The bridged Tools of `toAiSdkTools`, the only ones the hook serves (every
 * other tool keeps the SDK's own handling), each with the seal of the
 * stand-ins of its repaired calls. A stand-in carries a refusal only, never
 * arguments: the SDK's approval, `refineToolInput` and callbacks see a
 * repaired call's stand-in input, so no repaired call may run on anything
 * they did not see.
 */
export const aiSdkRepairs = new PendingRepairs();

/**
 * The reason for text our parser accepts but the SDK's refuses: its parser
 * refuses a `__proto__` key and a `constructor` holding `prototype`. Running
 * such a call on what our parser made of it would pass arguments the SDK's
 * approval and refinements never saw, so it is refused like broken text.
 */
export const AI_SDK_REFUSED_TEXT_REASON =
  'arguments hold a "__proto__" key or a "constructor" with a "prototype", which the AI SDK does not pass on';

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
    // Quoted as JSON: a quote or a line break in the name cannot pose as the text around it.
    const quoted =
      points.length <= NAME_SHOWN
        ? JSON.stringify(toolName)
        : `${JSON.stringify(`${points.slice(0, NAME_SHOWN).join("")}…`)} (${points.length.toLocaleString("en-US")} code points)`;
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

/** An own data property's value: a getter on the ToolSet or the call is never run for these reads. */
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
 * Whether parsed JSON holds a key the SDK's parser refuses: `__proto__`, or
 * `constructor` whose value is an object with `prototype`. The value comes
 * from our parser (plain objects and arrays, depth-bounded), walked without
 * recursion.
 */
export function holdsPrototypeKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null) continue;
    if (!Array.isArray(node)) {
      if (Object.hasOwn(node, "__proto__")) return true;
      const holder = Object.hasOwn(node, "constructor")
        ? (node as Record<string, unknown>).constructor
        : undefined;
      if (typeof holder === "object" && holder !== null && Object.hasOwn(holder, "prototype")) {
        return true;
      }
    }
    for (const child of Object.values(node)) pending.push(child);
  }
  return false;
}

/**
 * A repair function for the AI SDK's `repairToolCall` option of
 * `generateText`, `streamText` and agents, for Tools made by `toAiSdkTools`.
 * When the SDK cannot parse the model's argument text for one of them, it
 * would refuse the call with an error that quotes the whole text, and the
 * next prompt would carry it all. This hook parses the text with toolbound's
 * bounded parser instead (`parseToolArguments`, default limits: 1,000,000
 * characters, depth 64) and hands the SDK the same call with
 * `{"__toolbound_repair":"<seal>:<reason>"}` as its input, the parser's reason
 * sealed for that Tool (the next prompt shows the model that input, not its
 * text); the Tool's `execute` reads the reason back and answers with our
 * `TOOL_ARGUMENTS_INVALID` result, which never quotes the text, without
 * running. Nothing is held in between, so any number of repaired calls keep
 * their own reasons. Text our parser accepts but the SDK's
 * refuses (a `__proto__` key) is refused too, with
 * {@link AI_SDK_REFUSED_TEXT_REASON}: the SDK's approval and `refineToolInput`
 * only ever see the stand-in, so a repaired call never runs. A call carrying
 * the reserved key without a stand-in sealed for that Tool is refused as
 * well. Call ids play no
 * part, so repeated or blank ids cannot mix two calls up. A `refineToolInput`
 * must keep the `__toolbound_repair` key of the input it gets: one that builds
 * a new input without it makes the repaired call an ordinary call with what it
 * built.
 *
 * A call of a tool name the ToolSet lacks is refused by throwing an
 * {@link AiSdkUnknownToolError}, which quotes at most 64 code points of the
 * name (the SDK's own error quotes it whole). Answers `null` (the SDK's own
 * handling) for invalid input of a tool `toAiSdkTools` did not make, for an
 * invalid-input error that is not the SDK's parse failure (one a host's
 * `refineToolInput` throws stays the host's verdict, as does text that parses
 * and holds no such key), and for any other error.
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
  // Only the SDK's own parse failure: an invalid-input error a host's refineToolInput
  // throws for text that parsed is that host's verdict, and stays the SDK's to answer.
  if (errorName(ownValue(error, "cause")) !== "AI_JSONParseError") return null;
  const parsed = parseToolArguments(input);
  // Text our parser accepts is only ours to refuse when it holds what the SDK's parser refuses;
  // otherwise the parse error was a host's (a refinement's), and stays the SDK's to answer.
  if (parsed.ok && !holdsPrototypeKey(parsed.value)) return null;
  const stand = await aiSdkRepairs.hold(
    tool,
    parsed.ok ? AI_SDK_REFUSED_TEXT_REASON : parsed.reason,
  );
  if (stand === undefined) return null;
  // The same call (its id and provider metadata included), with the stand-in as its input.
  return { ...(toolCall as ModelToolCall), input: stand };
}
