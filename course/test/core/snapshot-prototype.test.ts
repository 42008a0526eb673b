import { describe, expect, test } from "vitest";
import { snapshotToolCall } from "../../src/index.ts";

const call = (args: unknown) => ({ type: "toolCall", id: "call-1", name: "tool", arguments: args });

describe("argument snapshots and the shared prototypes", () => {
  test("a setter planted on Object.prototype never runs while arguments are copied", () => {
    let setterCalls = 0;
    Object.defineProperty(Object.prototype, "planted", {
      configurable: true,
      get: () => "inherited",
      set: () => {
        setterCalls += 1;
      },
    });
    try {
      const snapshot = snapshotToolCall(call(JSON.parse('{"planted":1,"nested":{"planted":2}}')));
      expect(setterCalls).toBe(0);
      expect(Object.getOwnPropertyDescriptor(snapshot.arguments, "planted")?.value).toBe(1);
      expect(Object.getOwnPropertyDescriptor(snapshot.arguments.nested, "planted")?.value).toBe(2);
    } finally {
      delete (Object.prototype as { planted?: unknown }).planted;
    }
  });

  test.each(["toString", "valueOf", "hasOwnProperty", "__proto__", "constructor"])(
    "the key %s, which Object.prototype also has, becomes an ordinary own data property",
    (key) => {
      const snapshot = snapshotToolCall(call(JSON.parse(`{"${key}":"from the model"}`)));
      const own = Object.getOwnPropertyDescriptor(snapshot.arguments, key);
      expect(own?.value).toBe("from the model");
      expect(Object.getPrototypeOf(snapshot.arguments)).toBe(Object.prototype);
    },
  );
});
