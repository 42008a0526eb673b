/**
 * Every boundary property in one list, with its run count in `npm test` and
 * its share of the long fuzz run. The property tests and the fuzz runner both
 * read this list, so the two always check the same properties.
 */

import type fc from "fast-check";
import {
  hostileOutputBecomesOneBoundedResult,
  malformedCallsNeverReachTheTool,
  onlyRegisteredFatalErrorsCross,
  refusedArgumentsNeverExecute,
} from "./boundary-properties.ts";
import {
  budgetedCallSpillsOnlyWhatWasCut,
  budgetedSerializerKeepsItsPromises,
} from "./budget-properties.ts";
import { cancellationWinsEverywhere } from "./cancellation-properties.ts";
import { capturedContentStaysWithinItsBudget } from "./capture-properties.ts";
import {
  textFormatStructuredIsStandardJson,
  textFormatWritesStringsAsThemselves,
  toolContentStaysWithinItsBudgets,
} from "./format-properties.ts";
import {
  approvalGateDecidesBeforeEffects,
  argumentBudgetMatchesCompactJson,
  deadlineStopsOnlyOverstayingTools,
} from "./options-properties.ts";
import { argumentTextOnlyRunsWhenValid } from "./provider-properties.ts";
import {
  serializerContainsHostileOutput,
  serializerMatchesEngineJson,
} from "./serializer-properties.ts";
import { sharedArgumentsAreDepthCheckedWhereTheyAppear } from "./shared-argument-properties.ts";

/** One property: its stable name, how to build it, and how hard to run it. */
export interface CataloguedProperty {
  readonly name: string;
  // biome-ignore lint/suspicious/noExplicitAny: each property has its own tuple of generated values.
  readonly build: () => fc.IRawProperty<any, boolean>;
  /** Runs in `npm test`, with the fixed seed. */
  readonly testRuns: number;
  /** Relative share of the fuzz run's total cases. */
  readonly fuzzWeight: number;
  /**
   * Set while the property fails on a reported defect of the core: `npm test`
   * then expects the failure, and the fuzz run skips it unless asked by name.
   */
  readonly knownBug?: string;
}

/** The fixed seed of the property tests in `npm test` (a failure prints its own seed and path). */
export const PROPERTY_SEED = 20_260_406;

/** All properties, cheapest-per-case first. */
export const PROPERTIES: readonly CataloguedProperty[] = [
  {
    name: "serializer-matches-engine-json",
    build: serializerMatchesEngineJson,
    testRuns: 2000,
    fuzzWeight: 4,
  },
  {
    name: "serializer-contains-hostile-output",
    build: serializerContainsHostileOutput,
    testRuns: 1500,
    fuzzWeight: 2,
  },
  {
    name: "budgeted-serializer-keeps-its-promises",
    build: budgetedSerializerKeepsItsPromises,
    testRuns: 800,
    fuzzWeight: 2,
  },
  {
    name: "budgeted-call-spills-only-what-was-cut",
    build: budgetedCallSpillsOnlyWhatWasCut,
    testRuns: 300,
    fuzzWeight: 1,
  },
  {
    name: "text-format-writes-strings-as-themselves",
    build: textFormatWritesStringsAsThemselves,
    testRuns: 800,
    fuzzWeight: 2,
  },
  {
    name: "text-format-structured-is-standard-json",
    build: textFormatStructuredIsStandardJson,
    testRuns: 800,
    fuzzWeight: 2,
  },
  {
    name: "tool-content-stays-within-its-budgets",
    build: toolContentStaysWithinItsBudgets,
    testRuns: 300,
    fuzzWeight: 1,
  },
  {
    name: "refused-arguments-never-execute",
    build: refusedArgumentsNeverExecute,
    testRuns: 600,
    fuzzWeight: 1,
  },
  {
    name: "malformed-calls-never-reach-the-tool",
    build: malformedCallsNeverReachTheTool,
    testRuns: 600,
    fuzzWeight: 1,
  },
  {
    name: "hostile-output-becomes-one-bounded-result",
    build: hostileOutputBecomesOneBoundedResult,
    testRuns: 600,
    fuzzWeight: 1,
  },
  {
    name: "cancellation-wins-everywhere",
    build: cancellationWinsEverywhere,
    testRuns: 800,
    fuzzWeight: 1,
  },
  {
    name: "only-registered-fatal-errors-cross",
    build: onlyRegisteredFatalErrorsCross,
    testRuns: 400,
    fuzzWeight: 1,
  },
  {
    name: "approval-gate-decides-before-effects",
    build: approvalGateDecidesBeforeEffects,
    testRuns: 300,
    fuzzWeight: 0.5,
  },
  {
    // Each case waits for a real timer of a few milliseconds, so it gets few cases.
    name: "deadline-stops-only-overstaying-tools",
    build: deadlineStopsOnlyOverstayingTools,
    testRuns: 60,
    fuzzWeight: 0.02,
  },
  {
    name: "argument-budget-matches-compact-json",
    build: argumentBudgetMatchesCompactJson,
    testRuns: 600,
    fuzzWeight: 1,
  },
  {
    name: "shared-arguments-are-depth-checked-where-they-appear",
    build: sharedArgumentsAreDepthCheckedWhereTheyAppear,
    testRuns: 300,
    fuzzWeight: 0.5,
  },
  {
    name: "argument-text-only-runs-when-valid",
    build: argumentTextOnlyRunsWhenValid,
    testRuns: 800,
    fuzzWeight: 1,
  },
  {
    name: "captured-content-stays-within-its-budget",
    build: capturedContentStaysWithinItsBudget,
    testRuns: 300,
    fuzzWeight: 0.5,
  },
];

/** Looks a property up by name; throws with the known names for a typo. */
export function findProperty(name: string): CataloguedProperty {
  const found = PROPERTIES.find((entry) => entry.name === name);
  if (found === undefined) {
    throw new Error(
      `unknown property "${name}"; known: ${PROPERTIES.map((p) => p.name).join(", ")}`,
    );
  }
  return found;
}
