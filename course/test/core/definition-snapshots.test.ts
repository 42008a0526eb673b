/**
 * Pins the host-visible refusals of `defineTool` (the exact message and code
 * of every INVALID_TOOL_DEFINITION rule, what a hostile getter or Proxy gets
 * to touch) and the optional fifth field, `parameters`: kept deep-frozen when
 * given, absent when undefined, refused with its own label when not JSON.
 * The missing-field rule is checked once more on freshly loaded modules (the
 * "absent" answer of the field reader is built at load).
 */
import { describe, expect, test, vi } from "vitest";
import { defineTool } from "../../src/index.ts";
import { countingHandler, refusal } from "./support/hostile.ts";

const fields = () => ({
  name: "echo",
  description: "Repeats the text.",
  validate: (input: unknown) => ({ ok: true as const, value: input }),
  execute: async (input: unknown) => input,
});

const define = (definition: unknown) => defineTool(definition as Parameters<typeof defineTool>[0]);

function without(key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = fields();
  delete copy[key];
  return copy;
}

describe("refusing a malformed definition", () => {
  const inherited = (key: string) =>
    Object.assign(Object.create({ [key]: fields()[key as "name"] }), without(key));
  const ownField = (key: string) =>
    `Tool definition must have "${key}" as an own field (inherited fields are not read)`;
  const cases: [string, unknown, string][] = [
    ["a number", 42, "Tool definition must be an object"],
    ["null", null, "Tool definition must be an object"],
    ["undefined", undefined, "Tool definition must be an object"],
    ["a string", "echo", "Tool definition must be an object"],
    ["a function", () => fields(), "Tool definition must be an object"],
    ["a missing name", without("name"), ownField("name")],
    ["an inherited name", inherited("name"), ownField("name")],
    ["an inherited description", inherited("description"), ownField("description")],
    ["a missing validate", without("validate"), ownField("validate")],
    ["a missing execute", without("execute"), ownField("execute")],
    [
      "a blank name",
      { ...fields(), name: "  " },
      "Tool definition name must be a non-blank string",
    ],
    [
      "a name accessor without getter",
      Object.defineProperty(without("name"), "name", { set() {} }),
      "Tool definition name must be a non-blank string",
    ],
    [
      "a numeric description",
      { ...fields(), description: 1 },
      "Tool definition description must be a non-blank string",
    ],
    [
      "a string validate",
      { ...fields(), validate: "ok" },
      'Tool definition field "validate" must be a function',
    ],
    [
      "a numeric execute",
      { ...fields(), execute: 1 },
      'Tool definition field "execute" must be a function',
    ],
  ];

  test("the malformed-definition table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)(
    "refuses %s as INVALID_TOOL_DEFINITION with the exact message",
    (_name, definition, message) => {
      const error = refusal(() => define(definition));
      expect(error.code).toBe("INVALID_TOOL_DEFINITION");
      expect(error.message).toBe(message);
    },
  );

  test("a freshly loaded copy refuses a missing or inherited field with the same message", async () => {
    vi.resetModules();
    const fresh = await import("../../src/definitions.ts");
    const missing: [unknown, string][] = [
      [without("name"), "name"],
      [inherited("description"), "description"],
    ];
    for (const [definition, key] of missing) {
      let caught: unknown;
      try {
        fresh.defineTool(definition as Parameters<typeof fresh.defineTool>[0]);
      } catch (thrown) {
        caught = thrown;
      }
      expect(caught).toMatchObject({ code: "INVALID_TOOL_DEFINITION", message: ownField(key) });
    }
  });

  test("refuses a Proxy definition without running a trap", () => {
    const { handler, traps } = countingHandler();
    const error = refusal(() => define(new Proxy(fields(), handler)));
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe("Tool definition must not be a Proxy");
    expect(traps()).toBe(0);
  });

  test.each(["validate", "execute"])("refuses a Proxy %s without running a trap", (key) => {
    const { handler, traps } = countingHandler();
    const error = refusal(() =>
      define({ ...fields(), [key]: new Proxy(() => undefined, handler) }),
    );
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe(`Tool definition field "${key}" must not be a Proxy`);
    expect(traps()).toBe(0);
  });

  test("a throwing name getter runs once and is refused with the throw as cause", () => {
    let reads = 0;
    const thrown = new Error("hostile name");
    const definition = Object.defineProperty(without("name"), "name", {
      get() {
        reads += 1;
        throw thrown;
      },
    });
    const error = refusal(() => define(definition));
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe('Tool definition field "name" threw when read');
    expect(error.cause).toBe(thrown);
    expect(reads).toBe(1);
  });

  test("a field getter runs with the definition as this and no arguments", () => {
    const seen: { self: unknown; count: number }[] = [];
    const definition = Object.defineProperty(without("description"), "description", {
      get(this: unknown, ...rest: unknown[]) {
        seen.push({ self: this, count: rest.length });
        return "Described by a getter.";
      },
    });
    expect(define(definition).description).toBe("Described by a getter.");
    expect(seen).toEqual([{ self: definition, count: 0 }]);
  });
});

describe("the optional parameters field", () => {
  test("is kept as a deep-frozen copy when given", () => {
    const parameters = {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    };
    const tool = define({ ...fields(), parameters });
    expect(tool.parameters).toEqual(parameters);
    expect(tool.parameters).not.toBe(parameters);
    expect(Object.isFrozen(tool.parameters)).toBe(true);
    expect(Object.isFrozen(tool.parameters?.properties)).toBe(true);
    expect(Object.keys(tool).sort()).toEqual([
      "description",
      "execute",
      "name",
      "parameters",
      "validate",
    ]);
  });

  test.each([
    ["absent", fields()],
    ["undefined", { ...fields(), parameters: undefined }],
  ])("when %s, the snapshot has exactly the four course fields", (_name, definition) => {
    const tool = define(definition);
    expect(Object.hasOwn(tool, "parameters")).toBe(false);
    expect(Object.keys(tool).sort()).toEqual(["description", "execute", "name", "validate"]);
  });

  test("an inherited parameters field is not read", () => {
    let reads = 0;
    const proto = Object.defineProperty({}, "parameters", {
      get() {
        reads += 1;
        return { type: "object" };
      },
    });
    const tool = define(Object.assign(Object.create(proto), fields()));
    expect(Object.hasOwn(tool, "parameters")).toBe(false);
    expect(reads).toBe(0);
  });

  test("a throwing parameters getter runs once and is refused with the throw as cause", () => {
    let reads = 0;
    const thrown = new Error("hostile schema");
    const definition = Object.defineProperty(fields(), "parameters", {
      get() {
        reads += 1;
        throw thrown;
      },
    });
    const error = refusal(() => define(definition));
    expect(error.code).toBe("INVALID_TOOL_DEFINITION");
    expect(error.message).toBe('Tool definition field "parameters" threw when read');
    expect(error.cause).toBe(thrown);
    expect(reads).toBe(1);
  });

  const refused: [string, unknown, string][] = [
    ["a number", 42, "$: must be a JSON object"],
    ["null", null, "$: must be a JSON object"],
    ["an array", [], "$: must be a JSON object, not an array"],
    [
      "a nested Infinity",
      { properties: { x: { maximum: Infinity } } },
      "$.properties.x.maximum: numbers must be finite",
    ],
  ];

  test("the refused-parameters table is not empty", () => {
    expect(refused.length).toBeGreaterThan(0);
  });

  test.each(refused)(
    "refuses %s parameters with their own label and code",
    (_name, parameters, reason) => {
      const error = refusal(() => define({ ...fields(), parameters }));
      expect(error.code).toBe("INVALID_TOOL_DEFINITION");
      expect(error.message).toBe(`Tool definition parameters at ${reason}`);
    },
  );
});
