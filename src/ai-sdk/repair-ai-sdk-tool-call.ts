/**
 * The AI SDK's tool-call repair hook for our bridged Tools: argument text the
 * SDK cannot parse reaches our bounded parser, so the model reads our short
 * `TOOL_ARGUMENTS_INVALID` reason instead of the SDK's parse error, which
 * quotes the whole text back into the next prompt.
 */

import {
  addSlot,
  defineProperty,
  getPrototypeOf,
  hasOwn,
  isArray,
  NativeError,
  ownDataValue,
  stringSlice,
} from "../../course/src/internal.ts";
import { PendingRepairs } from "../frameworks/pending-repairs.ts";
import { parseToolArguments } from "../providers/argument-limits.ts";
import { codePointsOf, codeUnitsOf } from "../providers/code-points.ts";

// The hook runs in a model's step, after the step's Tools ran in this process: what it calls
// is captured at load, or the core's copy. A Tool that replaced `Array.from`, `slice`, `join`,
// `JSON.stringify` or `toLocaleString` could lift the name's cut or forge the quote the model
// reads; `Object.keys` the list of tools; `Object.hasOwn`, `Object.values` or `push` could hide
// a `__proto__` key, and `Error[Symbol.hasInstance]` keep the hook from answering at all.
const nativeStringify = JSON.stringify;
const nativeKeys = Object.keys;
const nativeValues = Object.values;
const ErrorPrototype: object = NativeError.prototype;

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
    const points = codePointsOf(toolName);
    // Quoted as JSON: a quote or a line break in the name cannot pose as the text around it.
    const quoted =
      points <= NAME_SHOWN
        ? nativeStringify(toolName)
        : `${nativeStringify(`${stringSlice(toolName, 0, codeUnitsOf(toolName, NAME_SHOWN))}…`)} (${grouped(points)} code points)`;
    // By index, as `join` would write them (a missing name is empty).
    let list = available.length === 0 ? "none" : "";
    for (let index = 0; index < available.length; index += 1) {
      list += `${index === 0 ? "" : ", "}${available[index] ?? ""}`;
    }
    super(`Unknown Tool ${quoted}; available tools: ${list}`);
    // A null-prototype descriptor, by the captured define: no `get` planted on Object.prototype.
    defineProperty(this, "name", {
      __proto__: null,
      value: "AiSdkUnknownToolError",
      enumerable: false,
    } as PropertyDescriptor);
    this.toolName = toolName;
  }

  /** The message alone (not `name: message`): the SDK quotes this text to the model. */
  override toString(): string {
    return this.message;
  }
}

/** A count as `toLocaleString("en-US")` writes it: thousands apart by commas. */
function grouped(count: number): string {
  const digits = `${count}`;
  let text = "";
  for (let index = 0; index < digits.length; index += 1) {
    const left = digits.length - index;
    text += index > 0 && left % 3 === 0 ? `,${digits[index]}` : digits[index];
  }
  return text;
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

/**
 * An own data property's value: a getter on the ToolSet or the call is never run for these
 * reads, nor a `value` planted on Object.prototype taken for the descriptor's.
 */
function ownValue(holder: unknown, key: string): unknown {
  if (typeof holder !== "object" || holder === null) return undefined;
  return ownDataValue(holder, key);
}

/**
 * The SDK marks its errors with a symbol-named brand; its `name` is the stable public part.
 * `instanceof Error` by the prototype chain, read with the captured getPrototypeOf: a
 * `Symbol.hasInstance` planted on `Error` is never asked.
 */
function errorName(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  for (let proto = getPrototypeOf(error); proto !== null; proto = getPrototypeOf(proto)) {
    if (proto === ErrorPrototype) return (error as Error).name;
  }
  return undefined;
}

/**
 * Whether parsed JSON holds a key the SDK's parser refuses: `__proto__`, or
 * `constructor` whose value is an object with `prototype`. The value comes
 * from our parser (plain objects and arrays, depth-bounded), walked without
 * recursion.
 */
export function holdsPrototypeKey(value: unknown): boolean {
  // A stack of own slots by index (addSlot: no index setter on Array.prototype takes a push).
  const pending: unknown[] = [value];
  let top = 1;
  while (top > 0) {
    top -= 1;
    const node = pending[top];
    if (typeof node !== "object" || node === null) continue;
    if (!isArray(node)) {
      if (hasOwn(node, "__proto__")) return true;
      const holder = hasOwn(node, "constructor")
        ? (node as Record<string, unknown>).constructor
        : undefined;
      if (typeof holder === "object" && holder !== null && hasOwn(holder, "prototype")) {
        return true;
      }
    }
    const children = nativeValues(node);
    for (let index = 0; index < children.length; index += 1) {
      addSlot(pending, top, children[index]);
      top += 1;
    }
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
  // Each field read once: a getter could answer differently the second time. No options: no
  // fields (an empty object would read any planted on Object.prototype).
  if (typeof options !== "object" || options === null) return null;
  const { toolCall, tools, error } = options;
  const kind = errorName(error);
  if (kind !== "AI_InvalidToolInputError" && kind !== "AI_NoSuchToolError") return null;
  const name = ownValue(toolCall, "toolName");
  const input = ownValue(toolCall, "input");
  if (typeof name !== "string" || typeof input !== "string") return null;
  const tool = ownValue(tools, name);
  if (tool === undefined && kind === "AI_NoSuchToolError") {
    const available = typeof tools === "object" && tools !== null ? nativeKeys(tools) : [];
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
