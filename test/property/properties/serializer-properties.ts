/**
 * Properties of the bounded serializer, shared by the property tests (few
 * runs, fixed seed) and the long fuzz runner (many runs, any seed).
 */

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import {
  COURSE_TOOL_OUTPUT_CAP_CHARACTERS,
  COURSE_TOOL_TRUNCATION_MARKER,
  type SerializedOutput,
  type SerializeOptions,
  serializeToolOutput,
} from "../../../course/src/index.ts";
import { codePoints, model, normalized, withinBudgets } from "../support/budget-model.ts";
import { buildHostile, hostileRecipe, type Recipe } from "../support/hostile-arbitraries.ts";
import { type Json, plainJson } from "../support/json-arbitraries.ts";
import {
  newTouches,
  PROTOTYPE_TRAP_ERROR_MESSAGE,
  type Touches,
  totalTouches,
} from "../support/touches.ts";

const MARKER_LENGTH = COURSE_TOOL_TRUNCATION_MARKER.length;

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) count += 1;
  return count;
}

/**
 * Checks the shape every successful serialization must have: at most 4096
 * code points, and the marker present exactly when `truncated`, once, at the
 * very end. Throws a descriptive error otherwise.
 */
export function assertBoundedContent(content: string, truncated: boolean): void {
  const points = codePoints(content);
  if (points > COURSE_TOOL_OUTPUT_CAP_CHARACTERS) {
    throw new Error(`content has ${points} code points, over the cap`);
  }
  const markers = occurrences(content, COURSE_TOOL_TRUNCATION_MARKER);
  if (markers !== (truncated ? 1 : 0)) {
    throw new Error(`truncated=${truncated} but the marker appears ${markers} times`);
  }
  if (truncated && !content.endsWith(COURSE_TOOL_TRUNCATION_MARKER)) {
    throw new Error("the marker is not at the end");
  }
  // A raw line feed only ever comes from the marker: JSON text escapes its own.
  if (occurrences(content, "\n") !== markers) throw new Error("a raw line feed escaped");
}

/**
 * Serializes `value`, turning the one throw the serializer lets through (a
 * Proxy prototype's `getPrototypeOf` trap that throws) into a verdict, and
 * checks that one serialization ran at most one such trap.
 */
export function serializeCounted(
  value: unknown,
  touches: Touches,
  options?: SerializeOptions,
): SerializedOutput | "trap threw" {
  const before = touches.prototypeTraps;
  let result: SerializedOutput | "trap threw";
  try {
    result = serializeToolOutput(value, options);
  } catch (error) {
    if (!(error instanceof Error) || error.message !== PROTOTYPE_TRAP_ERROR_MESSAGE) throw error;
    result = "trap threw";
  }
  if (touches.prototypeTraps - before > 1) {
    throw new Error("one serialization ran a Proxy prototype's trap more than once");
  }
  return result;
}

/**
 * For any hostile value: the serializer runs no getter, `toJSON` or trap of a
 * Proxy value, and of a Proxy prototype only its `getPrototypeOf` trap, at most
 * once per serialization (it throws only what that trap throws); it stays
 * within the cap with a well-placed marker, and gives the same answer for the
 * same value and for a rebuilt copy of it.
 */
export function serializerContainsHostileOutput(): fc.IProperty<[Recipe]> {
  return fc.property(hostileRecipe, (recipe) => {
    const touches = newTouches();
    const value = buildHostile(recipe, touches);
    const first = serializeCounted(value, touches);
    const again = serializeCounted(value, touches);
    const rebuilt = serializeCounted(buildHostile(recipe, touches), touches);
    if (totalTouches(touches) !== 0) {
      throw new Error(`user code ran: ${JSON.stringify(touches)}`);
    }
    if (JSON.stringify(first) !== JSON.stringify(again)) throw new Error("not deterministic");
    if (JSON.stringify(first) !== JSON.stringify(rebuilt)) {
      throw new Error("a rebuilt copy serialized differently");
    }
    if (first === "trap threw") {
      if (touches.prototypeTraps === 0) throw new Error("a throw without a prototype trap");
      return;
    }
    if (first.ok) assertBoundedContent(first.content, first.truncated);
    else if (first.message.length === 0) throw new Error("a refusal without a message");
  });
}

/**
 * For plain JSON: within every budget the text is exactly the canonical JSON
 * (sorted keys, the boundary's escapes) and `JSON.parse` gives the value back;
 * beyond a budget the text is a prefix of that canonical JSON plus the marker.
 */
export function serializerMatchesEngineJson(): fc.IProperty<[Json]> {
  return fc.property(plainJson, (value) => {
    const expected = model(value);
    const result = serializeToolOutput(value);
    if (!result.ok) throw new Error(`plain JSON refused: ${result.message}`);
    assertBoundedContent(result.content, result.truncated);
    if (withinBudgets(expected)) {
      if (result.truncated) throw new Error("truncated although within every budget");
      if (result.content !== expected.text) {
        throw new Error(`expected ${expected.text} but wrote ${result.content}`);
      }
      const parsed: unknown = JSON.parse(result.content);
      if (!isDeepStrictEqual(parsed, normalized(value))) {
        throw new Error("JSON.parse(content) differs from the value");
      }
      return;
    }
    if (!result.truncated) throw new Error("beyond a budget but not truncated");
    const kept = result.content.slice(0, result.content.length - MARKER_LENGTH);
    if (!expected.text.startsWith(kept)) throw new Error("the kept text is not a prefix");
  });
}
