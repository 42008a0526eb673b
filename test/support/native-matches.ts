/**
 * Counts what the platform's RegExp engine is asked to match (`test` and
 * `exec`) for given pattern sources: a linear-time engine in their place
 * must leave the count at zero. Restored with `vi.restoreAllMocks()`.
 */
import { vi } from "vitest";

/**
 * Spies on `RegExp.prototype.test` and `exec`, counting the calls whose
 * pattern is one of `sources`; every call still runs.
 *
 * @example
 * const native = countNativeMatches("^(a+)+$");
 * await call(tools, { name: "aaaa" });
 * expect(native.count()).toBe(0);
 */
export function countNativeMatches(...sources: string[]): { readonly count: () => number } {
  let count = 0;
  const test = RegExp.prototype.test;
  const exec = RegExp.prototype.exec;
  vi.spyOn(RegExp.prototype, "test").mockImplementation(function (this: RegExp, text: string) {
    if (sources.includes(this.source)) count += 1;
    return Reflect.apply(test, this, [text]);
  });
  vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (this: RegExp, text: string) {
    if (sources.includes(this.source)) count += 1;
    return Reflect.apply(exec, this, [text]);
  });
  return { count: () => count };
}
