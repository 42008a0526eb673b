/**
 * The registry's signatures at the type level: the course's modules pass
 * `readonly unknown[]` batches and `unknown` definitions (the run time checks
 * them), and a caller with typed definitions keeps what the typed overload
 * gives: inline callbacks typed from context, and a compile error for a batch
 * that is not an array at all. `npm run typecheck` checks the annotations
 * below; the assertions show each compiled line also behaves at run time.
 */
import { describe, expect, expectTypeOf, test } from "vitest";
import { defineTool, ToolContractError, ToolRegistry } from "../../src/index.ts";

const echo = defineTool({
  name: "echo",
  description: "Echo the input.",
  validate: (input) => ({ ok: true, value: input }),
  execute: async (input) => input,
});

describe("the course's signatures: readonly unknown[] and unknown", () => {
  test("an unknown[] batch compiles for the constructor and registerMany", () => {
    const batch: readonly unknown[] = [echo];
    const registry = new ToolRegistry(batch);
    expect(registry.names).toEqual(["echo"]);
    const other = new ToolRegistry();
    other.registerMany(batch);
    expect(other.size).toBe(1);
  });

  test("a revoked Proxy cast to readonly unknown[] compiles and is refused at run time", () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(() => new ToolRegistry(proxy as readonly unknown[])).toThrow(ToolContractError);
  });

  test("an unknown definition compiles for register and is checked at run time", () => {
    const definition: unknown = { name: "x" };
    expect(() => new ToolRegistry().register(definition)).toThrow(ToolContractError);
  });

  test("the widest overload's parameter is readonly unknown[]", () => {
    expectTypeOf<Parameters<ToolRegistry["registerMany"]>[0]>().toEqualTypeOf<readonly unknown[]>();
  });
});

describe("what a caller with typed definitions keeps", () => {
  test("inline definitions get their callbacks' parameter types from context", async () => {
    // Under noImplicitAny these parameters compile only because the typed
    // overload types them; with unknown[] alone they would be implicit any.
    const registry = new ToolRegistry([
      {
        name: "length",
        description: "Count characters.",
        validate: (input) => {
          expectTypeOf(input).toEqualTypeOf<unknown>();
          return typeof input === "string"
            ? { ok: true, value: input }
            : { ok: false, error: "a string, please" };
        },
        execute: async (input, context) => {
          expectTypeOf(context.toolCallId).toEqualTypeOf<string>();
          return { input };
        },
      },
    ]);
    expect(registry.names).toEqual(["length"]);
  });

  test("a batch that is not an array does not compile", () => {
    // @ts-expect-error: a batch is an array
    expect(() => new ToolRegistry(echo)).toThrow(ToolContractError);
    // @ts-expect-error: a batch is an array
    expect(() => new ToolRegistry().registerMany("echo")).toThrow(ToolContractError);
  });
});
