/**
 * Properties of configured output budgets: for any budget and strategy, the
 * content never exceeds `maxCharacters` code points, the marker appears once
 * and where the strategy says, and no getter, `toJSON` or trap of the output
 * runs (but for at most one `getPrototypeOf` trap of a Proxy prototype), in
 * the serializer and through a whole call with a spill hook alike.
 */

import fc from "fast-check";
import {
  executeToolCall,
  OUTPUT_BUDGET_RANGES,
  type OutputBudget,
  type TruncateStrategy,
} from "../../../course/src/index.ts";
import { codePoints } from "../support/budget-model.ts";
import { buildHostile, hostileRecipe, type Recipe } from "../support/hostile-arbitraries.ts";
import { probeRegistry, toolCall } from "../support/tool-harness.ts";
import { newTouches, totalTouches } from "../support/touches.ts";
import { serializeCounted } from "./serializer-properties.ts";

/** Small values most of the time, so budgets bind; the ranges' edges sometimes. */
function field(name: keyof typeof OUTPUT_BUDGET_RANGES, small: number): fc.Arbitrary<number> {
  const [low, high] = OUTPUT_BUDGET_RANGES[name];
  return fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: low, max: low + small }) },
    { weight: 1, arbitrary: fc.constantFrom(low, high) },
  );
}

/** Any subset of the budget's fields, each within its range. */
export const anyBudget: fc.Arbitrary<OutputBudget> = fc.record(
  {
    maxCharacters: field("maxCharacters", 8_000),
    maxDepth: field("maxDepth", 40),
    maxNodes: field("maxNodes", 300),
    maxEntries: field("maxEntries", 600),
    maxStringCharacters: field("maxStringCharacters", 8_000),
    maxBigIntBits: field("maxBigIntBits", 5_000),
  },
  { requiredKeys: [] },
);

const strategy = fc.constantFrom<TruncateStrategy>("head", "tail", "head-and-tail");

/** Long texts of awkward units, the shape `tail` and `head-and-tail` are for. */
const longText: fc.Arbitrary<Recipe> = fc
  .record({
    seed: fc.string({
      unit: fc.constantFrom("a", "\n", "😀", "\ud800", "\udc00", '"', "\\", "\u0001"),
      minLength: 1,
      maxLength: 6,
    }),
    times: fc.integer({ min: 100, max: 4_000 }),
  })
  .map((shape): Recipe => ({ kind: "huge-string", ...shape }));

const value = fc.oneof({ weight: 1, arbitrary: longText }, { weight: 2, arbitrary: hostileRecipe });

const OPEN = "[Tool output truncated: ";

/**
 * Checks a configured content: within the cap; untruncated content has no raw
 * line feed (JSON text escapes its own, so a raw one only ever comes from a
 * marker, and a Tool cannot forge one); a cut one has its marker once, at the
 * end for structured output and `head`, first for `tail`, in the middle for
 * `head-and-tail` (the last two for top-level strings only).
 */
export function assertPlacedMarker(
  content: string,
  truncated: boolean,
  maxCharacters: number,
  topLevelString: boolean,
  truncate: TruncateStrategy,
): void {
  if (codePoints(content) > maxCharacters) {
    throw new Error(`${codePoints(content)} code points, over the cap of ${maxCharacters}`);
  }
  const lineFeeds = content.split("\n").length - 1;
  if (!truncated) {
    if (lineFeeds !== 0) throw new Error("a raw line feed in untruncated content");
    return;
  }
  const where = topLevelString ? truncate : "head";
  if (where === "head") {
    const at = content.lastIndexOf(`\n${OPEN}`);
    if (lineFeeds !== 1 || at < 0 || !content.endsWith("]") || content.indexOf("\n") !== at) {
      throw new Error(
        `the head marker is not once at the end: ${JSON.stringify(content.slice(-120))}`,
      );
    }
  } else if (where === "tail") {
    const end = content.indexOf("]\n");
    if (lineFeeds !== 1 || !content.startsWith(OPEN) || end < 0 || !content.endsWith('"')) {
      throw new Error(
        `the tail marker is not once at the start: ${JSON.stringify(content.slice(0, 120))}`,
      );
    }
  } else if (
    lineFeeds !== 2 ||
    !/^"[^\n]*\n\[Tool output truncated: [^\n]*\]\n[^\n]*"$/s.test(content)
  ) {
    throw new Error(
      `the marker is not once between both ends: ${JSON.stringify(content.slice(0, 80))}`,
    );
  }
}

/** For any budget, strategy and hostile value: the serializer keeps every promise. */
export function budgetedSerializerKeepsItsPromises(): fc.IProperty<
  [Recipe, OutputBudget, TruncateStrategy]
> {
  return fc.property(value, anyBudget, strategy, (recipe, outputBudget, truncate) => {
    const touches = newTouches();
    const built = buildHostile(recipe, touches);
    const result = serializeCounted(built, touches, { outputBudget, truncate });
    if (totalTouches(touches) !== 0) throw new Error(`user code ran: ${JSON.stringify(touches)}`);
    if (result === "trap threw" || !result.ok) return;
    const cap = outputBudget.maxCharacters ?? 4_096;
    assertPlacedMarker(result.content, result.truncated, cap, typeof built === "string", truncate);
  });
}

/**
 * For any budget and strategy, through a whole call with a spill hook: a
 * success obeys the same placement rules, the hook is called exactly when the
 * content was cut (or, when the full output cannot be written, that is
 * reported once instead) and its reference is named, and no user code of the
 * output runs in either serialization.
 */
export function budgetedCallSpillsOnlyWhatWasCut(): fc.IAsyncProperty<
  [Recipe, OutputBudget, TruncateStrategy]
> {
  return fc.asyncProperty(value, anyBudget, strategy, async (recipe, outputBudget, truncate) => {
    const touches = newTouches();
    const built = buildHostile(recipe, touches);
    const { registry } = probeRegistry(
      (input) => ({ ok: true, value: input }),
      // Nested in an object and unwrapped: no promise adoption looks at the output.
      async () => [built],
    );
    let spills = 0;
    const reports: string[] = [];
    let result: Awaited<ReturnType<typeof executeToolCall>>;
    try {
      result = await executeToolCall(
        registry,
        toolCall("probe", {}, "call-b") as never,
        new AbortController().signal,
        {
          outputBudget,
          truncate,
          maxSpillCharacters: 20_000,
          spill: () => {
            spills += 1;
            return "spilled/call-b";
          },
          onSpillError: (error) => {
            reports.push(error instanceof Error ? error.message : String(error));
          },
        },
      );
    } catch (error) {
      throw new Error(`a budgeted call rejected: ${String(error)}`);
    }
    if (totalTouches(touches) !== 0) throw new Error(`user code ran: ${JSON.stringify(touches)}`);
    if (touches.prototypeTraps > 2)
      throw new Error("more than one prototype trap per serialization");
    if (result.toolCallId !== "call-b") throw new Error("the result lost its call");
    const cap = outputBudget.maxCharacters ?? 4_096;
    if (codePoints(result.content) > cap) throw new Error("an error or success over the cap");
    if (result.isError) return;
    const truncated = result.content.includes(`\n${OPEN}`);
    assertPlacedMarker(result.content, truncated, cap, false, truncate);
    if (spills + reports.length !== (truncated ? 1 : 0)) {
      throw new Error(`${spills} spills and ${reports.length} reports for truncated=${truncated}`);
    }
    // The one way a cut output reaches no hook: past the cut, the full output holds
    // something that cannot be written (a Date, a Proxy), and that is reported instead.
    if (
      reports.length === 1 &&
      !reports[0]?.startsWith("the full output could not be serialized")
    ) {
      throw new Error(`unexpected spill report: ${reports[0]}`);
    }
    if (spills === 1 && !result.content.endsWith("; full output: spilled/call-b]")) {
      throw new Error("the marker does not name the reference");
    }
  });
}
