/**
 * The long fuzz run: every catalogued boundary property, chunk by chunk, with
 * a progress line per chunk. Started by `fuzz/run.mjs` (`npm run fuzz`),
 * which passes the plan in an environment variable.
 */

import fc from "fast-check";
import { expect, test } from "vitest";
import { findProperty, PROPERTIES } from "../test/property/properties/catalogue.ts";
import { planChunks, readRequest } from "./plan.ts";

function formatDuration(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m${`${seconds % 60}`.padStart(2, "0")}s`;
}

test("fuzzes every boundary property for the requested number of cases", async () => {
  const asked = readRequest(process.env);
  // No names means every property without a known bug; an unknown name fails here.
  const request = {
    ...asked,
    properties:
      asked.properties.length > 0
        ? asked.properties
        : PROPERTIES.filter((p) => p.knownBug === undefined).map((p) => p.name),
  };
  const chunks = planChunks(request, (name) => findProperty(name).fuzzWeight);
  expect(chunks.length).toBeGreaterThan(0);
  const total = chunks.reduce((sum, chunk) => sum + chunk.runs, 0);
  const started = performance.now();
  let done = chunks.slice(0, request.fromChunk).reduce((sum, chunk) => sum + chunk.runs, 0);
  let checked = 0;
  for (const chunk of chunks.slice(request.fromChunk)) {
    try {
      await fc.assert(findProperty(chunk.property).build(), {
        seed: chunk.seed,
        numRuns: chunk.runs,
        ...(request.path === undefined ? {} : { path: request.path }),
      });
    } catch (error) {
      console.log(
        `fuzz FAILED in chunk ${chunk.index} (${chunk.property}, seed ${chunk.seed}); ` +
          `replay it with: npm run fuzz -- --property ${chunk.property} --seed ${chunk.seed} ` +
          `--runs ${chunk.runs} --chunk ${chunk.runs} --path <path printed below>`,
      );
      throw error;
    }
    done += chunk.runs;
    checked += chunk.runs;
    const elapsed = performance.now() - started;
    const rate = Math.round(checked / (elapsed / 1000));
    console.log(
      `fuzz chunk ${chunk.index + 1}/${chunks.length}  ${chunk.property}  seed ${chunk.seed}  ` +
        `cases ${done.toLocaleString("en")}/${total.toLocaleString("en")}  ${rate} cases/s  ` +
        `elapsed ${formatDuration(elapsed)}  (resume: --seed ${request.seed} --from-chunk ${chunk.index + 1})`,
    );
  }
  console.log(
    request.path === undefined
      ? `fuzz passed: ${checked.toLocaleString("en")} cases checked in this run`
      : `fuzz passed: the counterexample at path ${request.path} no longer fails`,
  );
});
