/**
 * What the cut did, on the call's span: for each budget that can cut a Tool's
 * output (under the course's budgets and under configured ones), the limit's
 * name and value, the output's size before and after the cut, and where the
 * spill hook put the full output.
 */

import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, describe, expect, test } from "vitest";
import {
  defineTool,
  executeToolCall,
  type ToolCallOptions,
  ToolRegistry,
  toolContent,
} from "../../course/src/index.ts";
import { createTelemetry } from "../../test/support/otel.ts";
import { inParentSpan, toolCall } from "../../test/support/otel-tools.ts";
import { instrumentRegistry, TOOLBOUND_ATTRIBUTES as TB } from "./index.ts";

const telemetry = createTelemetry();
afterAll(() => telemetry.shutdown());

const codePoints = (text: string): number => [...text].length;

/** One call of a Tool returning `value`, under `options`: its span and its result. */
async function spanOf(value: unknown, options?: ToolCallOptions) {
  const emit = defineTool({
    name: "emit",
    description: "Return the value the test chose.",
    validate: (input) => ({ ok: true, value: input }),
    execute: async () => value,
  });
  const registry = instrumentRegistry(new ToolRegistry([emit]), telemetry);
  const run = await inParentSpan(telemetry, () =>
    executeToolCall(registry, toolCall("emit"), new AbortController().signal, options),
  );
  expect(run.calls).toHaveLength(1);
  return { span: run.calls[0] as ReadableSpan, content: run.result?.content ?? "" };
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : { next: nested(depth - 1) });

describe("a cut's facts", () => {
  test.each([
    ["characters", "x".repeat(5000), { outputBudget: { maxCharacters: 1024 } }, 1024],
    [
      "string characters",
      { text: "y".repeat(3000) },
      { outputBudget: { maxCharacters: 100_000, maxStringCharacters: 100 } },
      100,
    ],
    ["depth", nested(10), { outputBudget: { maxDepth: 3 } }, 3],
    [
      "values",
      Array.from({ length: 50 }, (_, index) => index),
      { outputBudget: { maxNodes: 10 } },
      10,
    ],
    ["entries", Array.from({ length: 50 }, () => null), { outputBudget: { maxEntries: 5 } }, 5],
    ["BigInt size", { n: 2n ** 100n }, { outputBudget: { maxBigIntBits: 64 } }, 64],
  ] as const)(
    "the %s budget: limit, its value, the sizes",
    async (limit, value, options, limitValue) => {
      const { span, content } = await spanOf(value, options);
      expect(span.attributes[TB.outputTruncated]).toBe(true);
      expect(span.attributes[TB.outputLimit]).toBe(limit);
      expect(span.attributes[TB.outputLimitValue]).toBe(limitValue);
      expect(span.attributes[TB.outputCharacters]).toBe(codePoints(content));
      // Without a spill hook the rest of the output is never measured.
      expect(span.attributes[TB.outputOriginalCharacters]).toBeUndefined();
      expect(span.attributes[TB.outputSpillReference]).toBeUndefined();
    },
  );

  test.each([
    ["characters", "z".repeat(5000), 4096],
    // Holes are entries but not values: the entry budget runs out first.
    ["entries", new Array(300), 256],
    ["values", Array.from({ length: 200 }, () => 0), 128],
  ] as const)(
    "under the course's budgets, the %s limit is named too",
    async (limit, value, limitValue) => {
      const { span, content } = await spanOf(value);
      expect(span.attributes[TB.outputLimit]).toBe(limit);
      expect(span.attributes[TB.outputLimitValue]).toBe(limitValue);
      expect(span.attributes[TB.outputCharacters]).toBe(codePoints(content));
    },
  );

  test("a cut top-level string says its length before the cut", async () => {
    const { span } = await spanOf("a😀".repeat(3000), {
      outputBudget: { maxCharacters: 2048 },
    });
    expect(span.attributes[TB.outputOriginalTextLength]).toBe(9000);
    expect(span.attributes[TB.outputCharacters]).toBe(2048);
  });

  test("a spill hook's reference is on the span, and the spilled text's size is the size before the cut", async () => {
    const spilled: string[] = [];
    const spill = (text: string) => {
      spilled.push(text);
      return "artifact-42";
    };
    const { span, content } = await spanOf(
      { rows: Array.from({ length: 2000 }, (_, index) => index) },
      { spill },
    );
    expect(span.attributes[TB.outputSpillReference]).toBe("artifact-42");
    expect(span.attributes[TB.outputOriginalCharacters]).toBe(codePoints(spilled[0] ?? ""));
    expect(span.attributes[TB.outputOriginalCharacters]).toBeGreaterThan(4096);
    expect(content).toContain("artifact-42");
  });

  test("a spill hook that names no reference: the size before the cut, no reference", async () => {
    const { span } = await spanOf("w".repeat(6000), { spill: () => undefined });
    expect(span.attributes[TB.outputSpillReference]).toBeUndefined();
    expect(span.attributes[TB.outputOriginalCharacters]).toBe(6002);
  });

  test("a spilled text cut by the spill budget leaves the size before the cut unknown", async () => {
    const { span } = await spanOf("v".repeat(5000), {
      outputBudget: { maxCharacters: 1024 },
      maxSpillCharacters: 2048,
      spill: () => "partial",
    });
    expect(span.attributes[TB.outputSpillReference]).toBe("partial");
    expect(span.attributes[TB.outputOriginalCharacters]).toBeUndefined();
  });

  test("output that fits: not truncated, no limit, the same size before and after", async () => {
    const { span } = await spanOf({ ok: true });
    expect(span.attributes[TB.outputTruncated]).toBe(false);
    expect(span.attributes[TB.outputLimit]).toBeUndefined();
    expect(span.attributes[TB.outputCharacters]).toBe(11);
    expect(span.attributes[TB.outputOriginalCharacters]).toBe(11);
  });

  test("toolContent whose text is cut: truncated, the characters limit, the spill's reference and size", async () => {
    const spilled: string[] = [];
    const { span, content } = await spanOf(
      toolContent([
        { type: "text", text: "t".repeat(3000) },
        { type: "text", text: "u".repeat(3000) },
      ]),
      {
        outputBudget: { maxCharacters: 2048 },
        spill: (text) => {
          spilled.push(text);
          return "artifact-7";
        },
      },
    );
    expect(content).toContain("artifact-7");
    expect(span.attributes[TB.outputTruncated]).toBe(true);
    expect(span.attributes[TB.outputLimit]).toBe("characters");
    expect(span.attributes[TB.outputLimitValue]).toBe(2048);
    expect(span.attributes[TB.outputCharacters]).toBe(codePoints(content));
    expect(span.attributes[TB.outputSpillReference]).toBe("artifact-7");
    expect(spilled).toHaveLength(1);
    expect(span.attributes[TB.outputOriginalCharacters]).toBe(6001);
  });

  test("toolContent that fits: not truncated, no limit", async () => {
    const { span, content } = await spanOf(toolContent([{ type: "text", text: "fits" }]));
    expect(content).toBe("fits");
    expect(span.attributes[TB.outputTruncated]).toBe(false);
    expect(span.attributes[TB.outputLimit]).toBeUndefined();
    expect(span.attributes[TB.outputOriginalCharacters]).toBe(4);
  });
});
