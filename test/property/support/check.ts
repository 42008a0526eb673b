/**
 * Runs a catalogued property the way `npm test` does: the fixed seed and the
 * property's own run count. A failure message carries the seed, the path and
 * the shrunk counterexample, so it can be replayed exactly.
 */

import fc from "fast-check";
import { findProperty, PROPERTY_SEED } from "../properties/catalogue.ts";

/** Time a property test may take on a slow, shared two-core machine (a limit, not a measurement). */
export const PROPERTY_TIMEOUT_MS = 120_000;

// Under mutation testing a failure only needs to be seen, not shrunk (shrinking a
// killed mutant's counterexample would cost minutes and tell nothing), and a
// tenth of the cases keeps a run over some 1,800 mutants within an hour or so.
const underMutation = process.env.STRYKER_MUTATOR_WORKER !== undefined;
const MUTATION_RUN_SHARE = 10;

/** Asserts the named property with the fixed seed; returns the run count of `npm test`. */
export async function checkProperty(name: string): Promise<number> {
  const entry = findProperty(name);
  await fc.assert(entry.build(), {
    seed: PROPERTY_SEED,
    numRuns: underMutation ? Math.ceil(entry.testRuns / MUTATION_RUN_SHARE) : entry.testRuns,
    endOnFailure: underMutation,
  });
  return entry.testRuns;
}
