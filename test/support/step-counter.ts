/**
 * Counts the steps the schema checks of toolbound/mcp take: every Ajv
 * instance made from now on gets its step keyword wrapped, so each
 * application of a schema object is counted. Restored by `vi.restoreAllMocks()`.
 */
import { vi } from "vitest";
import { STEP_KEYWORD } from "../../src/mcp/schema-meter.ts";

/** An Ajv class as `loadAjv()` hands them out. */
interface AjvClass {
  readonly prototype: { addKeyword(...args: never[]): unknown };
}

/**
 * Wraps `addKeyword` of each class so that the step keyword's `validate`
 * counts its calls; answers the count so far.
 *
 * @example
 * const ajv = await loadAjv();
 * const steps = countSteps([ajv.draft07, ajv.draft2019, ajv.draft2020]);
 * check({ x: 1 });
 * steps(); // the applications the check counted
 */
export function countSteps(classes: readonly AjvClass[]): () => number {
  let steps = 0;
  for (const Class of classes) {
    const addKeyword = Class.prototype.addKeyword;
    vi.spyOn(Class.prototype, "addKeyword").mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      const definition = args[0] as {
        keyword?: unknown;
        validate?: (...stepArgs: unknown[]) => boolean;
      };
      const step = definition.validate;
      if (definition.keyword !== STEP_KEYWORD || step === undefined) {
        return Reflect.apply(addKeyword, this, args);
      }
      const counted = (...stepArgs: unknown[]) => {
        steps += 1;
        return step(...stepArgs);
      };
      return Reflect.apply(addKeyword, this, [{ ...definition, validate: counted }]);
    } as never);
  }
  return () => steps;
}
