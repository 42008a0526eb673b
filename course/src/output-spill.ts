/**
 * Serializing a Tool's output under configured settings, and handing the full
 * output of a truncated result to the host's spill hook. The hook is the
 * host's code: whatever it does (throw, answer something odd, answer
 * asynchronously) never changes the result's linkage or turns a success into
 * a failure; the marker then names no reference and the failure is reported
 * once.
 */

import { isRegisteredNonRecoverable } from "./errors.js";
import {
  apply,
  defineProperty,
  emitWarning,
  freeze,
  isNativePromise,
  NativeError,
  regExpTest,
  sealedRegExp,
  stringCharCodeAt,
  stringSlice,
} from "./intrinsics.js";
import { codePointCount } from "./json-text.js";
import { observe } from "./outcomes.js";
import { draftOutput } from "./output-draft.js";
import type { OutputFormat } from "./output-format.js";
import type { OutputSettings, OutputSpillInfo, SpillSettings } from "./output-settings.js";
import type { OutputLimitName } from "./output-walk.js";
import type { CourseToolCall } from "./protocol.js";
import type { SerializedOutput } from "./serializer.js";

/**
 * Where an observed call notes what a cut did (see `observed-output.ts`):
 * which budget cut, the reference the marker names, and the size of the
 * spilled text when the hook received the whole output.
 */
export interface CutFacts {
  limit: OutputLimitName | undefined;
  spillReference: string | undefined;
  spilledCharacters: number | undefined;
}

/** Name of the process warning emitted for a failed spill when no `onSpillError` is given. */
export const SPILL_WARNING = "ToolOutputSpillWarning";

/** The longest spill reference a marker names, in UTF-16 code units. */
export const MAX_SPILL_REFERENCE_CHARACTERS = 200;

function warn(message: string, cause: unknown): void {
  const warning = new NativeError(message, { cause });
  defineProperty(warning, "name", { value: SPILL_WARNING, enumerable: false });
  try {
    emitWarning(warning);
  } catch {
    // A broken process.emitWarning leaves nowhere else to report to; the call goes on.
  }
}

function report(spill: SpillSettings, error: unknown, info: OutputSpillInfo): void {
  const onError = spill.onError;
  const about = `the spill hook failed for Tool call "${info.toolCallId}"; its marker names no reference`;
  if (onError === undefined) return warn(about, error);
  try {
    const answer = apply(onError, undefined, [error, info]);
    // An asynchronous handler's rejection would otherwise surface as unhandled.
    if (isNativePromise(answer)) observe(answer);
  } catch (thrown) {
    warn(`onSpillError failed while reporting that ${about}`, thrown);
  }
}

/** Why a reference cannot be named in a marker, or undefined when it can. */
function referenceProblem(reference: string): string | undefined {
  if (reference.length === 0) return "the spill reference is empty";
  if (reference.length > MAX_SPILL_REFERENCE_CHARACTERS) {
    return `the spill reference is longer than ${MAX_SPILL_REFERENCE_CHARACTERS} characters`;
  }
  // The classes of characters a reference may not hold, by Unicode property, as the engine's
  // tables define them (sealed: a patched RegExp.prototype.exec decides nothing here). Made
  // here, not at load: a reference is checked once per spill, and rarely.
  // Controls (Cc: U+0000-001F, U+007F-009F), such as a line feed, could end the marker early.
  const control = sealedRegExp(/\p{Cc}/u);
  // Line and paragraph separators (Zl, Zp) could too.
  const separator = sealedRegExp(/[\p{Zl}\p{Zp}]/u);
  // Format characters (Cf) are invisible. They include every Bidi_Control character
  // (U+061C, U+200E, U+200F, U+202A-202E, U+2066-2069), which can reorder what the model
  // reads around it, and the zero-width ones (U+200B-200D, U+2060, U+FEFF, ...).
  const format = sealedRegExp(/\p{Cf}/u);
  // Opening and closing punctuation (Ps, Pe): the marker's own ] and [, and every other
  // bracket, parenthesis or brace that could pose as them (the full-width ［ ］ among them).
  const bracket = sealedRegExp(/[\p{Ps}\p{Pe}]/u);
  // One code point at a time: the first that may not be named decides the reason.
  for (let index = 0; index < reference.length; index += 1) {
    const unit = stringCharCodeAt(reference, index);
    let end = index + 1;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = stringCharCodeAt(reference, index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return "the spill reference has a lone surrogate";
      end = index + 2;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return "the spill reference has a lone surrogate";
    }
    const point = stringSlice(reference, index, end);
    if (regExpTest(control, point)) return "the spill reference contains a control character";
    if (regExpTest(separator, point)) {
      return "the spill reference contains a line or paragraph separator";
    }
    if (regExpTest(format, point)) {
      return "the spill reference contains a format character (a direction mark or control, a zero-width or other invisible character)";
    }
    if (regExpTest(bracket, point)) return "the spill reference contains a bracket";
    index = end - 1;
  }
  // Blank: nothing a reader sees. White space, characters that are not drawn (default
  // ignorable), combining marks (with nothing to sit on, a mark alone draws no name) and the
  // braille blank U+2800 (a symbol, not white space, that renders as an empty cell).
  const blank = sealedRegExp(/^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\u2800]*$/u);
  return regExpTest(blank, reference) ? "the spill reference is blank" : undefined;
}

/** What the hook and `onSpillError` learn about a spill. */
function spillInfo(
  call: CourseToolCall,
  limit: OutputLimitName,
  truncated: boolean,
): OutputSpillInfo {
  return freeze({ toolCallId: call.id, toolName: call.name, limit, truncated });
}

/**
 * Reports a spill that could not start because the full output could not be
 * written (`error` says why): the hook is not called, and `onSpillError` (or a
 * process warning) hears of it once, as of any other spill failure.
 */
export function reportSpillFailure(
  spill: SpillSettings,
  call: CourseToolCall,
  limit: OutputLimitName,
  error: unknown,
): void {
  report(spill, error, spillInfo(call, limit, false));
}

/**
 * Serializes the full output under the spill budget, in `format`, and hands
 * it to the hook. Returns the reference the marker names, or undefined. Only
 * a registered NonRecoverableToolError thrown while serializing (by a Proxy
 * prototype's trap) escapes, as it would from the content's own serialization.
 */
export function spillFullOutput(
  output: unknown,
  spill: SpillSettings,
  call: CourseToolCall,
  limit: OutputLimitName,
  format: OutputFormat,
  facts: CutFacts | undefined,
): string | undefined {
  let text: string;
  let truncated: boolean;
  try {
    const draft = draftOutput(output, spill.limits, "head", format);
    if (draft.kind === "refused") {
      // Reached only past the content's cut: something there cannot be written.
      const why = `the full output could not be serialized: ${draft.message}`;
      reportSpillFailure(spill, call, limit, new NativeError(why));
      return undefined;
    }
    truncated = draft.kind === "cut";
    text = draft.kind === "cut" ? draft.finish(undefined) : draft.content;
  } catch (thrown) {
    if (isRegisteredNonRecoverable(thrown)) throw thrown;
    reportSpillFailure(spill, call, limit, thrown);
    return undefined;
  }
  const info = spillInfo(call, limit, truncated);
  if (facts !== undefined && !truncated) facts.spilledCharacters = codePointCount(text);
  let answer: unknown;
  try {
    answer = apply(spill.hook, undefined, [text, info]);
  } catch (thrown) {
    report(spill, thrown, info);
    return undefined;
  }
  if (answer === undefined) return undefined;
  if (typeof answer !== "string") {
    // A promise or thenable is not an answer: the hook must decide synchronously.
    if (isNativePromise(answer)) observe(answer);
    const why =
      isNativePromise(answer) || (typeof answer === "object" && answer !== null)
        ? "the spill hook must return a string reference or undefined, synchronously"
        : `the spill hook returned ${typeof answer}, not a string reference or undefined`;
    report(spill, new NativeError(why), info);
    return undefined;
  }
  const problem = referenceProblem(answer);
  if (problem === undefined) return answer;
  report(spill, new NativeError(problem), info);
  return undefined;
}

/**
 * Serializes a Tool's output under configured settings: a cut result's marker
 * says which budget ran out, and names where the full output went when a
 * spill hook took it. An observed call passes `facts` to learn what the cut did.
 */
export function serializeConfigured(
  output: unknown,
  settings: OutputSettings,
  call: CourseToolCall,
  facts?: CutFacts,
): SerializedOutput {
  const draft = draftOutput(output, settings.limits, settings.truncate, settings.format);
  if (draft.kind === "refused") return { ok: false, message: draft.message };
  if (draft.kind === "whole") return { ok: true, content: draft.content, truncated: false };
  const spill = settings.spill;
  const reference =
    spill === undefined
      ? undefined
      : spillFullOutput(output, spill, call, draft.limit, settings.format, facts);
  if (facts !== undefined) {
    facts.limit = draft.limit;
    facts.spillReference = reference;
  }
  return { ok: true, content: draft.finish(reference), truncated: true };
}
