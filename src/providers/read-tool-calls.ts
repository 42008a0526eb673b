/**
 * `readToolCalls`: a provider's response in, the Tool calls the boundary runs
 * out. Every call the model made comes out, in the provider's order; a call
 * whose arguments cannot be accepted comes out marked, so that the boundary
 * answers it with a recoverable `TOOL_ARGUMENTS_INVALID` result that says why,
 * without validating or running anything.
 */

import {
  type CourseToolCall,
  snapshotToolCall,
  ToolContractError,
  toolCallWithInvalidArguments,
} from "../../course/src/index.ts";
import {
  ArrayPrototype,
  freeze,
  isSafeInteger,
  mapGet,
  mapSet,
  NativeMap,
  NativeTypeError,
  reflectGet,
} from "../../course/src/internal.ts";
import { readAnthropicCalls } from "./anthropic-calls.ts";
import { type ArgumentLimitOptions, readArgumentLimits } from "./argument-limits.ts";
import { type ArgumentLimits, parseArgumentText } from "./argument-parser.ts";
import { readGeminiCalls } from "./gemini-calls.ts";
import { callFromValue, responseBudgetReason } from "./object-arguments.ts";
import { readOpenAIChatCalls } from "./openai-chat-calls.ts";
import { readOpenAIResponsesCalls } from "./openai-responses-calls.ts";
import { addData } from "./own-data.ts";
import type { CallReader, RawToolCall } from "./raw-call.ts";
import { ResponseReader } from "./response-fields.ts";
import { assertRoundTripFormat, type RoundTripFormat } from "./round-trip-formats.ts";

/**
 * The default budget of argument characters one response may have read:
 * 4,000,000 (four calls at the default `maxArgumentCharacters`).
 *
 * @example
 * readToolCalls("openai-chat", completion, { maxResponseArgumentCharacters: PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS / 4 });
 */
export const PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS = 4_000_000;

/**
 * Options of {@link readToolCalls}: the argument limits of each call (see
 * `ArgumentLimitOptions`; defaults 1,000,000 characters and 64 levels), and
 * `maxResponseArgumentCharacters`, how many characters of arguments one
 * response may have read in all (a positive integer or `Infinity`; default
 * 4,000,000, `PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS`). Calls are taken in
 * order: each call's argument text (for parsed arguments, their compact JSON
 * text) counts against it, and a call whose arguments do not fit in what is
 * left is refused without being read.
 *
 * @example
 * const options: ReadToolCallsOptions = { maxArgumentCharacters: 50_000, maxResponseArgumentCharacters: 200_000 };
 */
export interface ReadToolCallsOptions extends ArgumentLimitOptions {
  readonly maxResponseArgumentCharacters?: number;
}

/** Reads `maxResponseArgumentCharacters` once and checks it; a bad one is a TypeError. */
function readResponseLimit(options: unknown): number {
  // readArgumentLimits has already refused anything but undefined or a non-Proxy object.
  if (options === undefined) return PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS;
  const value = reflectGet(options as object, "maxResponseArgumentCharacters") as unknown;
  if (value === undefined) return PROVIDER_RESPONSE_ARGUMENTS_MAX_CHARACTERS;
  // Number.isSafeInteger never converts: a string or a boxed number fails it.
  if (value === Number.POSITIVE_INFINITY || (isSafeInteger(value) && (value as number) > 0)) {
    return value as number;
  }
  throw new NativeTypeError(
    "readToolCalls option maxResponseArgumentCharacters must be a positive integer or Infinity",
  );
}

/** What one response may still have read, in characters of arguments. */
class ResponseBudget {
  used = 0;

  constructor(readonly limit: number) {}

  get room(): number {
    return this.limit - this.used;
  }
}

const READERS: Readonly<Record<RoundTripFormat, CallReader>> = freeze({
  "openai-chat": readOpenAIChatCalls,
  "openai-responses": readOpenAIResponsesCalls,
  anthropic: readAnthropicCalls,
  gemini: readGeminiCalls,
});

/**
 * Builds the frozen call of one raw call: a snapshot, or a call marked with
 * why its arguments were refused. Arguments that are read count against
 * `budget`; arguments that do not fit in what it has left are not read.
 */
function toCall(
  reader: ResponseReader,
  raw: RawToolCall,
  limits: ArgumentLimits,
  budget: ResponseBudget,
): CourseToolCall {
  const { id, name } = raw;
  if (raw.cutOff !== undefined) return toolCallWithInvalidArguments({ id, name }, raw.cutOff);
  const given = raw.arguments;
  if (given.kind === "value") {
    const outcome = callFromValue(
      id,
      name,
      given.value,
      limits,
      budget.room,
      budget.limit,
      (cause) => reader.refuse(`${raw.path} holds arguments that are not JSON data`, cause),
    );
    if (!outcome.ok) return toolCallWithInvalidArguments({ id, name }, outcome.reason);
    budget.used += outcome.characters;
    return outcome.call;
  }
  const text = given.text;
  // A text past its own limit is refused by the parser without being read, and costs nothing.
  if (text.length <= limits.maxCharacters) {
    if (text.length > budget.room) {
      return toolCallWithInvalidArguments({ id, name }, responseBudgetReason(budget.limit));
    }
    budget.used += text.length;
  }
  const parsed = parseArgumentText(text, limits);
  if (!parsed.ok) return toolCallWithInvalidArguments({ id, name }, parsed.reason);
  // Parsed text is frozen plain data the core adopted, so the snapshot takes it as it is;
  // were it ever to refuse, the model would still get an answer, not a throw.
  try {
    return snapshotToolCall({ type: "toolCall", id, name, arguments: parsed.value });
  } catch (thrown) {
    const reason = thrown instanceof ToolContractError ? thrown.message : "arguments were refused";
    return toolCallWithInvalidArguments({ id, name }, reason);
  }
}

/**
 * Reads the Tool calls of one provider response and answers a frozen array of
 * frozen `CourseToolCall`s in the provider's order, ready for
 * `executeToolCalls` (or `executeToolCall` one by one).
 *
 * What each format takes:
 * - `openai-chat`: a chat completion with one choice, or its
 *   `choices[0].message` (a message accumulated from a stream too);
 *   `function` tool calls, whose `arguments` are JSON text.
 * - `openai-responses`: a response, or its `output` items; `function_call`
 *   items, whose `arguments` are JSON text.
 * - `anthropic`: a message, or its `content` blocks; `tool_use` blocks,
 *   whose `input` is already parsed.
 * - `gemini`: a `GenerateContentResponse` with one candidate, that
 *   candidate's `content`, or its `parts`; `functionCall` parts, whose `args`
 *   are already parsed.
 * A call without an id (Gemini's, or an OpenAI-compatible server's absent or
 * blank one) gets one made up, `gemini-call-<index>-<token>` or
 * `openai-call-<index>-<token>`: its 0-based index among the response's calls
 * and a random token drawn once per process (see `toToolResultMessages`).
 *
 * Argument text is checked against `maxArgumentCharacters` (default
 * 1,000,000) and against what is left of `maxResponseArgumentCharacters`
 * (default 4,000,000 for the whole response) before it is read, then parsed
 * by a bounded parser (see `parseToolArguments`). Arguments that are not
 * valid JSON, too long, too deep, not an object, or that the provider says may be cut off (the turn
 * stopped at the output token limit: the last call is marked) come out as a
 * call made by `toolCallWithInvalidArguments`: the boundary answers it with a
 * linked, recoverable `TOOL_ARGUMENTS_INVALID` result whose message says why,
 * and never validates or runs it. Nothing is dropped; a response without calls
 * answers an empty array.
 *
 * Fields are read once each, as own fields (an SDK class's prototype getters
 * never run). Throws:
 * - a TypeError, naming the format, the path and what was found, for anything
 *   that is not a response of `format` (the host's mistake), an array of more
 *   than 100,000 items (refused by its count before any item is read), including
 *   features this reader does not take: several choices or candidates,
 *   OpenAI's legacy `function_call`, custom tool calls, namespaced calls;
 *   also for an unknown format or bad options;
 * - ToolContractError `INVALID_TOOL_CALL` when two calls share an id.
 *
 * @example
 * const completion = await openai.chat.completions.create({ model, messages, tools });
 * const calls = readToolCalls("openai-chat", completion);
 * const results = await executeToolCalls(registry, calls, signal);
 * messages.push(completion.choices[0].message, ...toToolResultMessages("openai-chat", results));
 */
export function readToolCalls(
  format: RoundTripFormat,
  response: unknown,
  options?: ReadToolCallsOptions,
): readonly CourseToolCall[] {
  assertRoundTripFormat(format, "readToolCalls");
  const limits = readArgumentLimits(options, "readToolCalls");
  const budget = new ResponseBudget(readResponseLimit(options));
  const reader = new ResponseReader(format);
  const raws = READERS[format](reader, response);
  const firstIndex = new NativeMap<string, number>();
  const calls: CourseToolCall[] = [];
  for (let index = 0; index < raws.length; index += 1) {
    const raw = raws[index] as RawToolCall;
    const earlier = mapGet(firstIndex, raw.id);
    if (earlier !== undefined) {
      // Results are linked to calls by id: two calls with one id cannot both be answered.
      throw new ToolContractError(
        "INVALID_TOOL_CALL",
        `readToolCalls("${format}"): calls ${earlier} and ${index} of the response share one id`,
      );
    }
    mapSet(firstIndex, raw.id, index);
  }
  for (let index = 0; index < raws.length; index += 1) {
    const call = toCall(reader, raws[index] as RawToolCall, limits, budget);
    addData(calls, ArrayPrototype, index, call);
  }
  return freeze(calls);
}
