/**
 * Pins the host-visible refusals of the Tool call snapshot and the JSON
 * argument snapshot: the exact message and code of every rule, whether a
 * cause is attached, what a hostile getter or Proxy gets to touch, and two
 * identities (a snapshot is returned as it is; a shared reference stays
 * shared even with other containers copied in between).
 */
import { describe, expect, test } from "vitest";
import { snapshotJsonObject, snapshotToolCall, toolErrorResult } from "../../src/index.ts";
import { countingHandler, refusal } from "./support/hostile.ts";

const valid = () => ({ type: "toolCall", id: "call-1", name: "tool", arguments: {} });
const withArgs = (args: unknown) => ({ ...valid(), arguments: args });

/** An own accessor with a setter and no getter: reading it yields undefined and runs nothing. */
function setterOnly<T extends object>(target: T, key: string): T {
  Object.defineProperty(target, key, { enumerable: true, configurable: true, set() {} });
  return target;
}

describe("refusing a malformed Tool call", () => {
  const { id: _id, ...noId } = valid();
  const { type: _type, ...noType } = valid();
  const { arguments: _args, ...noArguments } = valid();
  const { name: _name, ...noName } = valid();
  const inheritedType = Object.assign(Object.create({ type: "toolCall" }), noType);
  const cases: [string, unknown, string][] = [
    ["a number", 42, "Tool call must be an object"],
    ["null", null, "Tool call must be an object"],
    ["a string", "toolCall", "Tool call must be an object"],
    ["a function", () => valid(), "Tool call must be an object"],
    ["a call without type", noType, 'Tool call must have an own "type" field'],
    ["an inherited type", inheritedType, 'Tool call must have an own "type" field'],
    ["a wrong type", { ...valid(), type: "tool_call" }, 'Tool call type must be "toolCall"'],
    ["a call without id", noId, 'Tool call must have an own "id" field'],
    ["a blank id", { ...valid(), id: " \t" }, "Tool call id must be a non-blank string"],
    [
      "an id accessor without getter",
      setterOnly({ ...noId }, "id"),
      "Tool call id must be a non-blank string",
    ],
    ["a numeric name", { ...valid(), name: 42 }, "Tool call name must be a non-blank string"],
    ["a blank name", { ...valid(), name: "" }, "Tool call name must be a non-blank string"],
    ["a call without name", noName, 'Tool call must have an own "name" field'],
    ["a call without arguments", noArguments, 'Tool call must have an own "arguments" field'],
    ["numeric arguments", withArgs(42), "Tool call arguments at $: must be a JSON object"],
    ["null arguments", withArgs(null), "Tool call arguments at $: must be a JSON object"],
    ["string arguments", withArgs("{}"), "Tool call arguments at $: must be a JSON object"],
    [
      "array arguments",
      withArgs([1]),
      "Tool call arguments at $: must be a JSON object, not an array",
    ],
  ];

  test("the malformed-call table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)(
    "refuses %s as INVALID_TOOL_CALL with the exact message",
    (_name, call, message) => {
      const error = refusal(() => snapshotToolCall(call));
      expect(error.code).toBe("INVALID_TOOL_CALL");
      expect(error.message).toBe(message);
      expect(Object.hasOwn(error, "cause")).toBe(false);
    },
  );

  test("refuses a Proxy call as INVALID_TOOL_CALL without running a trap", () => {
    const { handler, traps } = countingHandler();
    const error = refusal(() => snapshotToolCall(new Proxy(valid(), handler)));
    expect(error.code).toBe("INVALID_TOOL_CALL");
    expect(error.message).toBe("Tool call must not be a Proxy");
    expect(traps()).toBe(0);
  });

  const fields = ["type", "id", "name", "arguments"] as const;

  test.each(fields)(
    "a throwing %s getter runs once, is refused naming the field with the thrown value as cause, and no later field is read",
    (field) => {
      expect(fields.length).toBe(4);
      const reads: string[] = [];
      const thrown = new Error("hostile getter");
      const call: Record<string, unknown> = {};
      // Every field a getter in the call's order, the attacked one throwing: the reads show
      // which fields were touched, and in which order.
      for (const key of fields) {
        const value = valid()[key];
        Object.defineProperty(call, key, {
          enumerable: true,
          get() {
            reads.push(key);
            if (key === field) throw thrown;
            return value;
          },
        });
      }
      const error = refusal(() => snapshotToolCall(call));
      expect(error.code).toBe("INVALID_TOOL_CALL");
      expect(error.message).toBe(`Tool call field "${field}" threw when read`);
      expect(error.cause).toBe(thrown);
      expect(reads).toEqual(fields.slice(0, fields.indexOf(field) + 1));
    },
  );

  test("refuses Proxy arguments as INVALID_TOOL_CALL at the root, without running a trap", () => {
    const { handler, traps } = countingHandler();
    const error = refusal(() => snapshotToolCall(withArgs(new Proxy({ a: 1 }, handler))));
    expect(error.code).toBe("INVALID_TOOL_CALL");
    expect(error.message).toBe("Tool call arguments at $: Proxy objects are not accepted");
    expect(traps()).toBe(0);
  });
});

describe("the call snapshot itself", () => {
  test("is frozen, typed toolCall, and returned as it is when snapshotted again", () => {
    const snapshot = snapshotToolCall(valid());
    expect(snapshot.type).toBe("toolCall");
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(snapshotToolCall(snapshot)).toBe(snapshot);
    const lookalike = { ...snapshot };
    expect(snapshotToolCall(lookalike)).not.toBe(lookalike);
  });

  test("an own getter is called once, with the call as this and no arguments", () => {
    const seen: { self: unknown; count: number }[] = [];
    const call = Object.defineProperty({ ...valid() }, "name", {
      get(this: unknown, ...rest: unknown[]) {
        seen.push({ self: this, count: rest.length });
        return "tool";
      },
    });
    expect(snapshotToolCall(call).name).toBe("tool");
    expect(seen).toEqual([{ self: call, count: 0 }]);
  });
});

describe("refusing arguments that are not JSON", () => {
  const cases: [string, unknown, string][] = [
    ["Infinity", { x: Infinity }, "$.x: numbers must be finite"],
    ["NaN in a list", { list: [1, Number.NaN] }, "$.list[1]: numbers must be finite"],
    ["undefined", { x: undefined }, "$.x: undefined is not a JSON value"],
    ["a BigInt", { x: 1n }, "$.x: bigint is not a JSON value"],
    ["a symbol", { x: Symbol("s") }, "$.x: symbol is not a JSON value"],
    ["a function", { x: () => 1 }, "$.x: function is not a JSON value"],
    ["a Proxy", { x: new Proxy({}, {}) }, "$.x: Proxy objects are not accepted"],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the attack.
    ["a hole", { list: [1, , 3] }, "$.list[1]: arrays must not have holes"],
    ["an accessor without getter", setterOnly({}, "x"), "$.x: undefined is not a JSON value"],
    ["a Date", { when: new Date(0) }, "$.when: Date objects are not supported"],
  ];

  test("the non-JSON table is not empty", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases)("refuses %s with the path and the exact reason", (_name, args, reason) => {
    const error = refusal(() => snapshotToolCall(withArgs(args)));
    expect(error.code).toBe("INVALID_TOOL_CALL");
    expect(error.message).toBe(`Tool call arguments at ${reason}`);
    expect(Object.hasOwn(error, "cause")).toBe(false);
  });

  test("refuses a Proxy argument without running a trap", () => {
    const { handler, traps } = countingHandler();
    refusal(() => snapshotToolCall(withArgs({ nested: new Proxy({ a: 1 }, handler) })));
    expect(traps()).toBe(0);
  });

  test("a throwing getter is read once and refused with its throw as cause", () => {
    let reads = 0;
    const thrown = new Error("no");
    const args = Object.defineProperty({}, "x", {
      enumerable: true,
      get() {
        reads += 1;
        throw thrown;
      },
    });
    const error = refusal(() => snapshotToolCall(withArgs({ outer: args })));
    expect(error.message).toBe("Tool call arguments at $.outer.x: reading it threw");
    expect(error.cause).toBe(thrown);
    expect(reads).toBe(1);
  });

  test("a throwing getter in a list is read once and refused at its index with its throw as cause", () => {
    let reads = 0;
    const thrown = new Error("no");
    const list = Object.defineProperty([1, 2], 1, {
      enumerable: true,
      get() {
        reads += 1;
        throw thrown;
      },
    });
    const error = refusal(() => snapshotToolCall(withArgs({ list })));
    expect(error.message).toBe("Tool call arguments at $.list[1]: reading it threw");
    expect(error.cause).toBe(thrown);
    expect(reads).toBe(1);
  });

  test("a getter in the arguments is called with the holder as this and no arguments", () => {
    const seen: { self: unknown; count: number }[] = [];
    const holder = Object.defineProperty({}, "x", {
      enumerable: true,
      get(this: unknown, ...rest: unknown[]) {
        seen.push({ self: this, count: rest.length });
        return 1;
      },
    });
    expect(snapshotToolCall(withArgs(holder)).arguments).toEqual({ x: 1 });
    expect(seen).toEqual([{ self: holder, count: 0 }]);
  });

  test("snapshotJsonObject uses the given label and code, INVALID_TOOL_CALL by default", () => {
    const byDefault = refusal(() => snapshotJsonObject(7, "Payload"));
    expect(byDefault.code).toBe("INVALID_TOOL_CALL");
    expect(byDefault.message).toBe("Payload at $: must be a JSON object");
    const given = refusal(() => snapshotJsonObject([], "Schema", "INVALID_TOOL_DEFINITION"));
    expect(given.code).toBe("INVALID_TOOL_DEFINITION");
    expect(given.message).toBe("Schema at $: must be a JSON object, not an array");
  });
});

describe("shared references in the arguments", () => {
  test("stay shared, read once, even with another container copied in between", () => {
    let reads = 0;
    const shared = Object.defineProperty({}, "value", {
      enumerable: true,
      get() {
        reads += 1;
        return 1;
      },
    });
    const args = snapshotToolCall(
      withArgs({ a: shared, between: { other: [1] }, b: shared }),
    ).arguments;
    expect(args.a).toBe(args.b);
    expect(args.a).toEqual({ value: 1 });
    expect(reads).toBe(1);
  });
});

describe("the error result builder", () => {
  const countingProxy = () => {
    const traps = { count: 0 };
    const proxy = new Proxy(
      {},
      {
        get: () => {
          traps.count += 1;
          return () => 'X"}';
        },
      },
    );
    return { proxy: proxy as unknown as string, traps };
  };

  test.each([
    ["a Proxy as the code", "code"],
    ["a Proxy as the message", "message"],
  ] as const)("refuses %s with a TypeError, running no trap", (_label, which) => {
    const { proxy, traps } = countingProxy();
    const code = which === "code" ? proxy : "TOOL_NOT_FOUND";
    const message = which === "message" ? proxy : "Unknown Tool";
    expect(() => toolErrorResult({ id: "call-1", name: "tool" }, code, message)).toThrow(
      new TypeError("toolErrorResult needs a string code and a string message"),
    );
    expect(traps.count).toBe(0);
  });

  test("a code with quotes is escaped like any text", () => {
    const result = toolErrorResult({ id: "call-1", name: "tool" }, 'A"B', "m");
    expect(JSON.parse(result.content)).toEqual({ error: { code: 'A"B', message: "m" } });
    expect(result.isError).toBe(true);
    expect(result.toolCallId).toBe("call-1");
  });
});
