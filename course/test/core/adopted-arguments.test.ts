/**
 * Arguments the library's own parser built (`adoptParsedArguments`, on the
 * declared internal surface): the snapshot takes them as they are instead of
 * copying them a second time, and only a frozen, non-array, non-Proxy object
 * is adopted.
 */
import { describe, expect, test } from "vitest";
import { type CourseJsonObject, snapshotJsonObject, snapshotToolCall } from "../../src/index.ts";
import { adoptParsedArguments } from "../../src/internal.ts";

const frozenTree = (): CourseJsonObject =>
  Object.freeze({ list: Object.freeze([1, Object.freeze({ deep: "x" })]) });

describe("adopted arguments", () => {
  test("are the call's arguments as they are: no second copy", () => {
    const args = adoptParsedArguments(frozenTree());
    expect(snapshotJsonObject(args, "arguments")).toBe(args);
    const call = snapshotToolCall({
      type: "toolCall",
      id: "call-1",
      name: "work",
      arguments: args,
    });
    expect(call.arguments).toBe(args);
  });

  test("an equal tree that was not adopted is copied, as ever", () => {
    const args = frozenTree();
    const snapshot = snapshotJsonObject(args, "arguments");
    expect(snapshot).not.toBe(args);
    expect(snapshot).toEqual(args);
  });

  test.each([
    ["an object that is not frozen", () => ({ a: 1 })],
    ["a frozen array", () => Object.freeze([])],
    ["a Proxy of a frozen object", () => new Proxy(Object.freeze({}), {})],
    ["null", () => null],
    ["a string", () => "text"],
  ])("%s is refused with a TypeError", (_label, make) => {
    expect(() => adoptParsedArguments(make() as never)).toThrow(
      new TypeError("only a frozen JSON object built by the argument parser is adopted"),
    );
  });

  test("an object refused for not being frozen stays an ordinary value: later snapshots copy it", () => {
    const value = { a: 1 };
    expect(() => adoptParsedArguments(value as never)).toThrow(TypeError);
    Object.freeze(value);
    expect(snapshotJsonObject(value, "arguments")).not.toBe(value);
  });
});
