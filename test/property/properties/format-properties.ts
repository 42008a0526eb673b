/**
 * Properties of `format: "text"` and of `toolContent`: a string is written as
 * itself (well-formed, cut where the strategy says, never over the cap, never
 * a split pair), structured output is standard JSON that `JSON.parse` reads
 * back, and a `toolContent` value's content and parts stay within every
 * budget with a line for every part that does not pass.
 */

import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import {
  executeToolCall,
  type OutputBudget,
  serializeToolOutput,
  type ToolContentPart,
  type TruncateStrategy,
  toolContent,
} from "../../../course/src/index.ts";
import { base64, PNG_1X1, SIGNED_SAMPLES } from "../../support/parts.ts";
import { codePoints, normalized } from "../support/budget-model.ts";
import { awkwardUnit, type Json, plainJson } from "../support/json-arbitraries.ts";
import { probeRegistry, toolCall } from "../support/tool-harness.ts";
import { anyBudget } from "./budget-properties.ts";

/** What raw text makes of `text`: every lone surrogate as U+FFFD. */
const wellFormed = (text: string): string =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

const anyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: awkwardUnit, maxLength: 40 }),
  fc
    .tuple(
      fc.string({ unit: awkwardUnit, minLength: 1, maxLength: 5 }),
      fc.integer({ min: 1, max: 3_000 }),
    )
    .map(([seed, times]) => seed.repeat(times)),
);

const strategy = fc.constantFrom<TruncateStrategy>("head", "tail", "head-and-tail");

const MARKER = /\[Tool output truncated: (\d+) of (\d+) characters kept[^\]\n]*\]/;

/**
 * For any string, budget and strategy under `format: "text"`: whole when it
 * fits (then exactly its well-formed text), else the kept text is the
 * well-formed head, tail or both ends around one marker; within the cap;
 * every surrogate in the content paired.
 */
export function textFormatWritesStringsAsThemselves(): fc.IProperty<
  [string, OutputBudget, TruncateStrategy]
> {
  return fc.property(anyString, anyBudget, strategy, (text, outputBudget, truncate) => {
    const result = serializeToolOutput(text, { outputBudget, truncate, format: "text" });
    if (!result.ok) throw new Error(`a string was refused: ${result.message}`);
    const cap = outputBudget.maxCharacters ?? 4_096;
    const { content } = result;
    if (codePoints(content) > cap)
      throw new Error(`${codePoints(content)} code points, over ${cap}`);
    if (wellFormed(content) !== content) throw new Error("a lone surrogate in the content");
    const expected = wellFormed(text);
    if (!result.truncated) {
      if (content !== expected) throw new Error("whole content differs from the text");
      return;
    }
    const match = MARKER.exec(content);
    if (match === null) throw new Error("a cut without its marker");
    if (Number(match[2]) !== text.length) throw new Error("the marker names another total");
    const before = content.slice(0, match.index);
    const after = content.slice(match.index + match[0].length);
    if (truncate === "head") {
      if (after !== "" || !expected.startsWith(before.slice(0, -1))) throw new Error("not a head");
    } else if (truncate === "tail") {
      if (before !== "" || !expected.endsWith(after.slice(1))) throw new Error("not a tail");
    } else if (!expected.startsWith(before.slice(0, -1)) || !expected.endsWith(after.slice(1))) {
      throw new Error("not both ends");
    }
  });
}

/** The standard JSON text of a plain value, keys sorted by code unit, strings as the engine writes them. */
function standardJson(value: Json): string {
  if (value === null || typeof value !== "object") {
    return typeof value === "number" && Object.is(value, -0) ? "0" : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(standardJson).join(",")}]`;
  const keys = Object.keys(value).sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${standardJson(value[key] as Json)}`).join(",")}}`;
}

const ROOMY: OutputBudget = {
  maxCharacters: 10_000_000,
  maxDepth: 1_000,
  maxNodes: 10_000_000,
  maxEntries: 10_000_000,
  maxStringCharacters: 10_000_000,
};

/**
 * For plain JSON under `format: "text"`: within roomy budgets the content is
 * exactly the standard JSON text (sorted keys, the engine's escapes) and
 * `JSON.parse` gives what `JSON.parse(JSON.stringify(value))` gives; under
 * any budget, a cut content is a prefix of that text and its marker.
 */
export function textFormatStructuredIsStandardJson(): fc.IProperty<[Json, OutputBudget]> {
  return fc.property(plainJson, anyBudget, (value, outputBudget) => {
    const whole = serializeToolOutput(value, { outputBudget: ROOMY, format: "text" });
    if (!whole.ok || whole.truncated) throw new Error("plain JSON not written whole");
    const expected = typeof value === "string" ? wellFormed(value) : standardJson(value);
    if (whole.content !== expected)
      throw new Error(`expected ${expected} but wrote ${whole.content}`);
    if (typeof value !== "string") {
      const parsed: unknown = JSON.parse(whole.content);
      if (!isDeepStrictEqual(parsed, JSON.parse(JSON.stringify(normalized(value))))) {
        throw new Error("JSON.parse(content) differs from the engine's round trip");
      }
    }
    const cut = serializeToolOutput(value, { outputBudget, format: "text" });
    if (!cut.ok) throw new Error(`plain JSON refused: ${cut.message}`);
    if (codePoints(cut.content) > (outputBudget.maxCharacters ?? 4_096))
      throw new Error("over the cap");
    if (!cut.truncated || typeof value === "string") return;
    const at = cut.content.lastIndexOf("\n[Tool output truncated: ");
    if (at < 0 || !expected.startsWith(cut.content.slice(0, at))) throw new Error("not a prefix");
  });
}

const sample = fc.constantFrom(...Object.entries(SIGNED_SAMPLES));

/** One part: text, a signed sample (as bytes or base64, declared truly or not), or broken base64. */
const anyPart: fc.Arbitrary<ToolContentPart> = fc.oneof(
  { weight: 3, arbitrary: anyString.map((text): ToolContentPart => ({ type: "text", text })) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(sample, sample, fc.boolean(), fc.integer({ min: 0, max: 3_000 }))
      .map(([[declared], [, bytes], asText, padding]): ToolContentPart => {
        const data = new Uint8Array(bytes.length + padding);
        data.set(bytes);
        const type = declared.startsWith("image/")
          ? "image"
          : declared.startsWith("audio/")
            ? "audio"
            : "file";
        return { type, data: asText ? base64(data) : data, mimeType: declared } as ToolContentPart;
      }),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 90 }).map(
      (cut): ToolContentPart => ({
        type: "image",
        data: base64(PNG_1X1).slice(0, cut),
        mimeType: "image/png",
      }),
    ),
  },
);

const partBudget: fc.Arbitrary<OutputBudget> = fc.record(
  {
    maxCharacters: fc.oneof(fc.integer({ min: 1_024, max: 3_000 }), fc.constant(50_000)),
    maxParts: fc.integer({ min: 1, max: 30 }),
    maxPartBytes: fc.integer({ min: 1, max: 4_000 }),
    maxTotalBytes: fc.integer({ min: 1, max: 12_000 }),
  },
  { requiredKeys: [] },
);

/**
 * For any parts and budgets, through a call: content within `maxCharacters`;
 * one line per binary part read (a placeholder or a reason), and one for
 * the parts left out; `parts` exactly when a binary part passed, each one's
 * base64 within its byte budgets and true to its declared type; kept bytes
 * within `maxTotalBytes`.
 */
export function toolContentStaysWithinItsBudgets(): fc.IAsyncProperty<
  [ToolContentPart[], OutputBudget]
> {
  return fc.asyncProperty(
    fc.array(anyPart, { maxLength: 40 }),
    partBudget,
    async (parts, outputBudget) => {
      const value = toolContent(parts);
      const { registry } = probeRegistry(
        (input) => ({ ok: true, value: input }),
        async () => value,
      );
      const result = await executeToolCall(
        registry,
        toolCall("probe", {}) as never,
        new AbortController().signal,
        {
          outputBudget,
        },
      );
      if (result.isError) throw new Error(`an error result: ${result.content}`);
      const cap = outputBudget.maxCharacters ?? 4_096;
      if (codePoints(result.content) > cap) throw new Error(`content over ${cap}`);
      const kept = (result.parts ?? []).filter((part) => part.type !== "text");
      if ((result.parts !== undefined) !== kept.length > 0)
        throw new Error("parts without a binary part");
      let total = 0;
      for (const part of kept) {
        const bytes = Buffer.from(part.data, "base64");
        if (bytes.toString("base64") !== part.data)
          throw new Error("a part's base64 is not canonical");
        if (bytes.length > (outputBudget.maxPartBytes ?? 5_242_880))
          throw new Error("a part over its limit");
        if (
          !bytes
            .subarray(0, 4)
            .equals(Buffer.from((SIGNED_SAMPLES[part.mimeType] as Uint8Array).subarray(0, 4)))
        ) {
          throw new Error(`a ${part.mimeType} part with other bytes`);
        }
        total += bytes.length;
        if (!result.content.includes(`[${part.type}: ${part.mimeType}, ${bytes.length} bytes]`)) {
          throw new Error("a kept part without its line");
        }
      }
      if (total > (outputBudget.maxTotalBytes ?? 20_971_520))
        throw new Error("over the total limit");
      const lines = result.content
        .split("\n")
        .filter((line) => /^\[(image|audio|file)( omitted)?: /.test(line));
      const binary = parts.filter((part) => part.type !== "text").length;
      const leftOut = /^\[\d+ more parts? omitted: /m.test(result.content);
      if (!leftOut && lines.length !== binary)
        throw new Error(`${lines.length} lines for ${binary} binary parts`);
    },
  );
}
