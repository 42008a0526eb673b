/**
 * Reads the Tool calls of a Gemini `generateContent` response: the response
 * (one candidate), its candidate's `content`, or that content's `parts`.
 * `functionCall` parts become calls; text, thoughts and the rest are passed
 * over. Gemini sends `args` already parsed, so they are checked as a value.
 */

import { ArrayPrototype } from "../../course/src/internal.ts";
import { addData } from "./own-data.ts";
import { markLastCallCutOff, type RawToolCall } from "./raw-call.ts";
import { NO_ITEMS, type ResponseList, type ResponseReader } from "./response-fields.ts";

/** The parts of the response's one candidate (none when the prompt was blocked), and its finish reason. */
function candidateParts(
  reader: ResponseReader,
  candidates: unknown,
): { parts: ResponseList; path: string; finishReason: unknown } {
  const none = { parts: NO_ITEMS, path: "response", finishReason: undefined };
  // A blocked prompt has promptFeedback and no candidates.
  if (candidates === undefined || candidates === null) return none;
  const list = reader.elements(candidates, "response.candidates");
  if (list.length === 0) return none;
  if (list.length > 1) {
    reader.refuse(
      `response.candidates must hold one candidate; found ${list.length} (with candidateCount > 1, pass the chosen candidate's content)`,
    );
  }
  const candidate = reader.record(list.at(0), "response.candidates[0]");
  const content = reader.field(candidate, "content", "response.candidates[0]");
  const finishReason = reader.field(candidate, "finishReason", "response.candidates[0]");
  // A candidate stopped for safety can come without content.
  if (content === undefined || content === null) return { ...none, finishReason };
  const path = "response.candidates[0].content";
  const parts = reader.field(reader.record(content, path), "parts", path);
  if (parts === undefined || parts === null) return { ...none, finishReason };
  return { parts: reader.elements(parts, `${path}.parts`), path: `${path}.parts`, finishReason };
}

/**
 * Reads the `functionCall` parts in order. A call without an id gets one made
 * up, `gemini-call-<index>-<token>` (see `invented-ids.ts`), its index among
 * the response's calls.
 */
export function readGeminiCalls(reader: ResponseReader, response: unknown): RawToolCall[] {
  let parts: ResponseList;
  let path: string;
  let finishReason: unknown;
  if (reader.isList(response)) {
    path = "parts";
    parts = reader.elements(response, path);
  } else if (reader.isRecord(response)) {
    const own = reader.field(response, "parts", "response");
    if (own !== undefined) {
      path = "content.parts";
      parts = reader.elements(own, path);
    } else {
      const candidates = reader.field(response, "candidates", "response");
      if (
        candidates === undefined &&
        reader.field(response, "promptFeedback", "response") === undefined
      ) {
        reader.refuse(
          'the response must be a GenerateContentResponse (with "candidates" or "promptFeedback"), a candidate\'s content (with "parts") or its parts; found an object with none of them',
        );
      }
      ({ parts, path, finishReason } = candidateParts(reader, candidates));
    }
  } else {
    return reader.fail(
      "the response",
      "a GenerateContentResponse, a content or its parts",
      response,
    );
  }
  const calls: RawToolCall[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const at = `${path}[${index}]`;
    const part = reader.record(parts.at(index), at);
    const functionCall = reader.field(part, "functionCall", at);
    if (functionCall === undefined || functionCall === null) continue;
    const callPath = `${at}.functionCall`;
    const fields = reader.record(functionCall, callPath);
    const name = reader.text(fields, "name", callPath);
    // Gemini omits the id, or (from some clients) sends it empty, when the model issued none.
    const id = reader.callId(fields, "id", callPath, "gemini-call", calls.length);
    const args = reader.field(fields, "args", callPath);
    // A function without parameters is called without args.
    const value = args === undefined ? {} : args;
    // Defined, not pushed: a push writes through Array.prototype, where a Tool's planted
    // index setter could swallow the call and a getter answer one the model never made.
    addData(calls, ArrayPrototype, calls.length, {
      id,
      name,
      path: callPath,
      arguments: { kind: "value", value },
      cutOff: undefined,
    });
  }
  if (finishReason === "MAX_TOKENS") {
    markLastCallCutOff(
      calls,
      'the response stopped early (finishReason "MAX_TOKENS"), so these arguments may be incomplete',
    );
  }
  return calls;
}
