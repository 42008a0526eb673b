/**
 * Properties of the provider round trip's front door: for any argument text a
 * model can send, `readToolCalls` never throws on a well-formed response, and
 * a call reaches `execute` only when its text was valid JSON within the
 * limits, with exactly the arguments `JSON.parse` reads.
 */

import fc from "fast-check";
import { readToolCalls } from "../../../src/providers/index.ts";
import { executeToolCalls } from "../../../src/rounds/index.ts";
import { awkwardUnit, plainJsonObject } from "../support/json-arbitraries.ts";
import { probeRegistry } from "../support/tool-harness.ts";

/** How a generated text was made, so the check knows what the parser must do with it. */
type TextCase =
  | { readonly kind: "stringified"; readonly text: string }
  | { readonly kind: "other"; readonly text: string };

/** Text `JSON.stringify` wrote: valid JSON with unique keys, maybe with escaped lone surrogates. */
const stringified: fc.Arbitrary<TextCase> = fc
  .tuple(plainJsonObject, fc.boolean())
  .map(([value, pretty]) => ({
    kind: "stringified",
    text: JSON.stringify(value, null, pretty ? 2 : undefined),
  }));

/** Text `JSON.stringify` wrote from ordinary data: well-formed strings, any nesting. */
const ordinary: fc.Arbitrary<TextCase> = fc
  .dictionary(fc.string(), fc.jsonValue({ maxDepth: 6 }))
  .map((value) => ({ kind: "stringified", text: JSON.stringify(value) }));

/** Valid text broken: cut, with a unit inserted, or with a unit removed. */
const damaged: fc.Arbitrary<TextCase> = fc
  .tuple(plainJsonObject, fc.nat(), awkwardUnit, fc.constantFrom("cut", "insert", "remove"))
  .map(([value, at, unit, how]) => {
    const whole = JSON.stringify(value);
    const index = at % (whole.length + 1);
    const text =
      how === "cut"
        ? whole.slice(0, index)
        : how === "insert"
          ? whole.slice(0, index) + unit + whole.slice(index)
          : whole.slice(0, index) + whole.slice(index + 1);
    return { kind: "other", text };
  });

/** Hand-picked awkward texts: duplicates, non-objects, huge numbers, lone surrogates raw. */
const awkward: fc.Arbitrary<TextCase> = fc
  .oneof(
    fc.string({ unit: awkwardUnit, maxLength: 40 }),
    fc.constantFrom(
      '{"a":1,"a":1}',
      '{"__proto__":{"x":1},"__proto__":{}}',
      '{"n":1e999}',
      '{"s":"\ud800"}',
      "[]",
      "42",
      '"{}"',
      "null",
      "{}",
      `{"a":${"[".repeat(300)}${"]".repeat(300)}}`,
    ),
    // Awkward units written raw inside a string: controls, quotes, backslashes, lone surrogates.
    fc.string({ unit: awkwardUnit, maxLength: 12 }).map((raw) => `{"k":"${raw}"}`),
    fc
      .tuple(fc.string({ unit: awkwardUnit, maxLength: 6 }), fc.string({ maxLength: 6 }))
      .map(([key, value]) => JSON.stringify({ [key]: value })),
  )
  .map((text) => ({ kind: "other", text }));

/** Nesting of a parsed value: containers on the deepest path, the outer one included. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, depthOf(inner));
  return deepest + 1;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when no string or key in a parsed value holds a lone surrogate. */
function wellFormed(value: unknown): boolean {
  if (typeof value === "string") return !LONE_SURROGATE.test(value);
  if (typeof value !== "object" || value === null) return true;
  return Object.entries(value).every(
    ([key, inner]) => !LONE_SURROGATE.test(key) && wellFormed(inner),
  );
}

function parseOrUndefined(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * For any argument text, limits and text format: reading a well-formed
 * response never throws; a call runs only when `JSON.parse` reads its text as
 * an object within both limits, and then with equal arguments; a call that
 * does not run is answered TOOL_ARGUMENTS_INVALID, linked, with a bounded
 * reason that does not quote the text. Text that `JSON.stringify` wrote runs
 * exactly when it is within the limits and free of lone surrogates.
 */
export function argumentTextOnlyRunsWhenValid(): fc.IAsyncProperty<
  [TextCase, number, number, "openai-chat" | "openai-responses"]
> {
  return fc.asyncProperty(
    fc.oneof(
      { weight: 3, arbitrary: stringified },
      { weight: 2, arbitrary: ordinary },
      { weight: 3, arbitrary: damaged },
      { weight: 2, arbitrary: awkward },
    ),
    // Mostly the defaults, sometimes tight limits that land on both sides of the text.
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(1_000_000) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }) },
    ),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant(64) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
    ),
    fc.constantFrom("openai-chat" as const, "openai-responses" as const),
    async ({ kind, text }, maxArgumentCharacters, maxArgumentDepth, format) => {
      const response =
        format === "openai-chat"
          ? {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "call_1", type: "function", function: { name: "probe", arguments: text } },
              ],
            }
          : [{ type: "function_call", call_id: "call_1", name: "probe", arguments: text }];
      // Must not throw, whatever the text.
      const calls = readToolCalls(format, response, { maxArgumentCharacters, maxArgumentDepth });
      const seen: unknown[] = [];
      const { registry } = probeRegistry(
        (input) => ({ ok: true, value: input }),
        async (input) => {
          seen.push(input);
          return "ran";
        },
      );
      const [result] = await executeToolCalls(registry, calls, new AbortController().signal);
      const parsed = parseOrUndefined(text);
      const valid =
        parsed !== undefined &&
        typeof parsed.value === "object" &&
        parsed.value !== null &&
        !Array.isArray(parsed.value) &&
        text.length <= maxArgumentCharacters &&
        depthOf(parsed.value) <= maxArgumentDepth;
      if (seen.length > 0) {
        if (!valid) throw new Error(`ran with invalid text ${JSON.stringify(text.slice(0, 80))}`);
        if (JSON.stringify(seen[0]) !== JSON.stringify(parsed?.value)) {
          throw new Error("ran with arguments that differ from JSON.parse");
        }
      } else {
        const error = JSON.parse(result?.content ?? "null") as {
          error?: { code?: string; message?: string };
        };
        const reason = error.error?.message ?? "";
        if (result?.toolCallId !== "call_1" || error.error?.code !== "TOOL_ARGUMENTS_INVALID") {
          throw new Error(`not answered as TOOL_ARGUMENTS_INVALID: ${result?.content}`);
        }
        if (reason.length > 200) throw new Error(`reason too long: ${reason.length}`);
        if (text.length >= 24 && reason.includes(text)) throw new Error("reason quotes the text");
      }
      if (kind === "stringified" && parsed !== undefined) {
        const shouldRun = valid && wellFormed(parsed.value);
        if (shouldRun !== seen.length > 0) {
          throw new Error(
            `stringified text: expected ${shouldRun ? "a run" : "a refusal"}, got ${result?.content}`,
          );
        }
      }
    },
  );
}
