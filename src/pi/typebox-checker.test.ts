import { Type } from "typebox";
import { describe, expect, test } from "vitest";
import { ToolContractError } from "../../course/src/index.ts";
import { compileTypeBoxChecker, PI_ARGUMENT_ERRORS_SHOWN } from "./index.ts";

const pair = Type.Object({ left: Type.Number(), right: Type.Number() });

describe("compileTypeBoxChecker", () => {
  test("passes a valid value on as the same object", () => {
    const validate = compileTypeBoxChecker(pair, "add");
    const input = { left: 1, right: 2 };
    const decision = validate(input);
    expect(decision).toEqual({ ok: true, value: input });
    expect(decision.ok && decision.value).toBe(input);
  });

  test.each([
    ["a numeric string", { left: "20", right: 22 }, "/left must be number"],
    ["a boolean", { left: true, right: 22 }, "/left must be number"],
    ["null", { left: null, right: 22 }, "/left must be number"],
    ["a missing field", { left: 20 }, "/ must have required properties right"],
  ])("refuses %s without converting it", (_label, input, error) => {
    const validate = compileTypeBoxChecker(pair, "add");
    const snapshot = structuredClone(input);
    expect(validate(input)).toEqual({ ok: false, error });
    // Nothing was converted in place either.
    expect(input).toEqual(snapshot);
  });

  test("accepts a plain JSON Schema object as TypeBox 1.x does", () => {
    const validate = compileTypeBoxChecker(
      { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      "count",
    );
    expect(validate({ n: 3 }).ok).toBe(true);
    expect(validate({ n: 3.5 })).toEqual({ ok: false, error: "/n must be integer" });
  });

  test(`names at most ${PI_ARGUMENT_ERRORS_SHOWN} schema errors and counts the rest`, () => {
    const keys = ["a", "b", "c", "d", "e", "f", "g"];
    const schema = Type.Object(Object.fromEntries(keys.map((key) => [key, Type.String()])));
    const validate = compileTypeBoxChecker(schema, "many");
    const decision = validate(Object.fromEntries(keys.map((key) => [key, 1])));
    expect(decision).toEqual({
      ok: false,
      error: `${keys
        .slice(0, PI_ARGUMENT_ERRORS_SHOWN)
        .map((key) => `/${key} must be string`)
        .join("; ")} (and 2 more)`,
    });
  });

  test("refuses a schema that does not compile as INVALID_TOOL_DEFINITION", () => {
    let thrown: unknown;
    try {
      compileTypeBoxChecker({ type: "string", pattern: "(" }, "broken");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolContractError);
    expect(thrown).toMatchObject({ code: "INVALID_TOOL_DEFINITION" });
    expect((thrown as Error).message).toContain('"broken"');
  });
});
