/**
 * Shared attack tools of the core tests: a Proxy handler that counts every trap
 * the engine asks it for, and a helper that expects a ToolContractError.
 */
import { expect } from "vitest";
import { ToolContractError } from "../../../src/index.ts";

/**
 * A Proxy handler that is itself a Proxy: every trap the engine looks up on it
 * is counted (and none is supplied, so the target answers). `traps()` reads
 * the count; a boundary that refuses Proxies unasked leaves it at 0.
 */
export function countingHandler<Target extends object = object>(): {
  handler: ProxyHandler<Target>;
  traps: () => number;
} {
  let count = 0;
  const handler = new Proxy(
    {},
    {
      get: () => {
        count += 1;
        return undefined;
      },
    },
  );
  return { handler, traps: () => count };
}

/** Runs `attempt`, which must throw a ToolContractError, and returns it. */
export function refusal(attempt: () => unknown): ToolContractError {
  try {
    attempt();
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(ToolContractError);
    return thrown as ToolContractError;
  }
  throw new Error("expected a ToolContractError, nothing was thrown");
}
