/**
 * `list[list.length - 1]` on an empty list reads the key "-1", and
 * `list[list.length]` a key past the end, which no array has of its own: the
 * read goes to Array.prototype, where a Tool can plant a getter. The argument
 * copy's height count (for a value the arguments repeat) indexes neither, so
 * such a getter is never asked and cannot hand it a frame or a child. The
 * attacks count its reads.
 */
import { afterEach, expect, test } from "vitest";
import { snapshotToolCall } from "../../src/index.ts";
import { repeatedDeepValueCall } from "./support/work-tool.ts";

let reads = 0;

afterEach(() => {
  delete (Array.prototype as unknown as Record<string, unknown>)["-1"];
  delete (Array.prototype as unknown as Record<string, unknown>)["0"];
  reads = 0;
});

test("a getter planted at Array.prototype[-1] is never asked while a repeated value is measured", () => {
  const call = repeatedDeepValueCall();
  Object.defineProperty(Array.prototype, "-1", {
    configurable: true,
    get() {
      reads += 1;
      // A frame whose height would hide the repeated value's levels.
      return { node: {}, children: [], next: 0, tallest: -1_000 };
    },
  });
  let refusal: unknown;
  try {
    snapshotToolCall(call);
  } catch (thrown) {
    refusal = thrown;
  }
  expect(reads).toBe(0);
  expect((refusal as Error).message).toContain(
    "nesting deeper than 256 is not accepted (a value repeated here nests 201 levels)",
  );
});

test("a getter planted at Array.prototype[0] is never asked for a child past a list's end", () => {
  // Valid as it is: {a:{b:{}}} repeated twice nests three levels.
  const shared = { a: { b: {} } };
  const call = {
    type: "toolCall",
    id: "call-1",
    name: "work",
    arguments: { x: shared, y: shared },
  };
  Object.defineProperty(Array.prototype, "0", {
    configurable: true,
    get() {
      reads += 1;
      // A child on every empty list: the count would climb without end.
      return reads < 5_000 ? {} : undefined;
    },
    set(this: object, value: unknown) {
      Object.defineProperty(this, "0", {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    },
  });
  let snapshot: unknown;
  try {
    snapshot = snapshotToolCall(call);
  } finally {
    delete (Array.prototype as unknown as Record<string, unknown>)["0"];
  }
  expect(reads).toBe(0);
  expect((snapshot as { arguments: unknown }).arguments).toEqual({ x: shared, y: shared });
});
