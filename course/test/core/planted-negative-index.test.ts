/**
 * `list[list.length - 1]` on an empty list reads the key "-1", which no array
 * has of its own: the read goes to Array.prototype, where a Tool can plant a
 * getter. The argument copy's height count (for a value the arguments
 * repeat) never indexes its stack once it is empty, so such a getter is
 * never asked and cannot hand it a frame. The attack counts its reads.
 */
import { afterEach, expect, test } from "vitest";
import { snapshotToolCall } from "../../src/index.ts";

let reads = 0;

afterEach(() => {
  delete (Array.prototype as unknown as Record<string, unknown>)["-1"];
  reads = 0;
});

test("a getter planted at Array.prototype[-1] is never asked while a repeated value is measured", () => {
  const chain = (levels: number, end: object = {}) => {
    let node = end;
    for (let level = 0; level < levels; level += 1) node = { a: node };
    return node;
  };
  const shared = chain(200);
  const call = {
    type: "toolCall",
    id: "call-1",
    name: "work",
    arguments: { x: shared, y: chain(100, { s: shared }) },
  };
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
